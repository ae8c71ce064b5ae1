package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.flowcontrol.credit.ManagementSweep;
import rocelab.fabric.link.Link;
import rocelab.fabric.nic.DeferredMessages;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.PlaneRouting;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;

/** An assembled fabric: RNICs, switches and links wired per a {@link Topology}, ready to carry queue pairs. */
public final class Network {
    private final Simulator sim;
    private final PacketPool pool;
    private final PacketPool[] pools;
    /** The simulator of each topology node: the same one, or its partition's in a partitioned run. */
    private final Simulator[] simOfNode;
    private final Topology topology;
    private final Nic[] nics;
    private final Switch[] switches;
    private final List<Link> links;
    private final QueuePairTable queuePairs;
    private final NicParameters nicParameters;
    private final FrameFormat frames;
    private final CongestionControlFactory[] congestionControlByHost;
    private final RandomStreams streams;
    private final boolean[] edgeDown;
    private final RetryFailures retryFailures;
    private int linkEvents;
    private final int[] laneOfDscp;
    private int[] serviceLevelOfDscp;
    private ManagementSweep managementSweep;
    /** A partitioned run: each partition's deferred completion notifications (null: listeners hear them at once). */
    private DeferredMessages[] deferred;
    /** The listener the deferring listeners below forward to, and one of them per (sender, receiver) partition pair. */
    private MessageListener deferredFor;
    private MessageListener[] deferredBetween;
    private int[] partitionOfHost;
    /** Multi-plane fabric: which planes reach which hosts (null on a single-plane fabric). */
    private PlaneRouting planeRouting;

    Network(Simulator sim, PacketPool[] pools, Simulator[] simOfNode, Topology topology, Nic[] nics, Switch[] switches, List<Link> links,
            QueuePairTable queuePairs, NicParameters nicParameters, FrameFormat frames,
            CongestionControlFactory[] congestionControlByHost, RandomStreams streams, int[] laneOfDscp) {
        this.laneOfDscp = laneOfDscp;
        this.sim = sim;
        this.pools = pools.clone();
        this.pool = pools[0];
        this.simOfNode = simOfNode;
        this.topology = topology;
        this.nics = nics;
        this.switches = switches;
        this.links = List.copyOf(links);
        this.queuePairs = queuePairs;
        this.nicParameters = nicParameters;
        this.frames = frames;
        this.congestionControlByHost = congestionControlByHost.clone();
        this.streams = streams;
        this.edgeDown = new boolean[topology.edges().size()];
        this.retryFailures = new RetryFailures(topology, edgeDown);
        for (Nic nic : nics) {
            if (nic != null) {
                nic.retryExhaustionListener(retryFailures);
            }
        }
    }

    /** The scenario's link events this run applies (a {@link LinkEventDriver} tells it); 0: every link stays up. */
    public int linkEventCount() {
        return linkEvents;
    }

    void linkEvents(int count) {
        this.linkEvents = count;
    }

    /** What was down when each QP that failed while links were down ran out of retries, in the order they failed. */
    public List<RetryFailure> retryFailures() {
        return retryFailures.failures();
    }

    /** What was down when this QP ran out of retries, or null (it did not fail, or no link was down then). */
    public RetryFailure retryFailureOf(int queuePair) {
        for (RetryFailure f : retryFailures.failures()) {
            if (f.queuePair() == queuePair) {
                return f;
            }
        }
        return null;
    }

    /**
     * Takes both directions of a topology edge down or up, and reroutes every switch around the edges that are
     * down. Frames on a link that goes down are lost.
     */
    public void setLinkState(int edgeIndex, boolean up) {
        edgeDown[edgeIndex] = !up;
        retryFailures.onLinkState(sim.nowPs(), edgeIndex, up);
        // Told first: the frames the link loses as it goes down are told after it.
        Topology.Edge e = topology.edges().get(edgeIndex);
        journey.onLinkState(sim.nowPs(), e.a().node(), e.a().port(), e.b().node(), e.b().port(), up);
        links.get(2 * edgeIndex).setDown(!up, pool);
        links.get(2 * edgeIndex + 1).setDown(!up, pool);
        if (!up) {
            // Neither end can be resumed by a frame on a dead link: each forgets the pauses its peer put on it.
            for (Topology.End end : new Topology.End[] {e.a(), e.b()}) {
                if (topology.isHost(end.node())) {
                    nics[end.node()].linkDown(sim.nowPs(), end.port());
                } else {
                    switches[end.node() - topology.hostCount()].port(end.port()).linkDown(sim.nowPs());
                }
            }
        }
        if (laneOfDscp != null && up) {
            reinitialiseCredits(e.a(), e.b());
            reinitialiseCredits(e.b(), e.a());
        } else if (laneOfDscp != null) {
            // Neither end waits for credits its dead link cannot bring: what they queued for it drains onto it, lost.
            creditGate(e.a()).linkDown(sim.nowPs());
            creditGate(e.b()).linkDown(sim.nowPs());
        }
        int[][][] routes = topology.shortestPathPorts(edgeDown);
        for (int s = 0; s < switches.length; s++) {
            switches[s].routes(routes[s]);
        }
        if (planeRouting != null) {
            planeRouting.update(routes, edgeDown);
            planeRouting.replan(sim.nowPs(), queuePairs);
        }
        for (RouteListener l : routeListeners) {
            l.routesChanged(sim.nowPs());
        }
    }

    private JourneyProbe journey = JourneyProbe.NONE;

    /**
     * Tells {@code probe} of links going down and up, and of the frames each link loses while down (as drops by the
     * end that sent them). The RNICs and switches have probes of their own.
     */
    public void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
        for (Topology.Edge e : topology.edges()) {
            link(e.index(), true).journeyProbe(probe, e.a().node(), e.a().port());
            link(e.index(), false).journeyProbe(probe, e.b().node(), e.b().port());
        }
    }

    /**
     * InfiniBand: from now on every credit update names the root of what the granting buffer holds (a switch's input
     * buffer: {@link Switch#traceCreditRoots}; an HCA's receive buffer: {@link Nic#traceCreditRoots}). Nothing on
     * Ethernet.
     */
    public void traceCreditRoots() {
        for (Switch s : switches) {
            s.traceCreditRoots();
        }
        for (Nic n : nics) {
            n.traceCreditRoots();
        }
    }

    /**
     * InfiniBand link initialisation when a link comes back: the receiver resynchronises to the sender's blocks
     * sent (packets lost on the failed link are forgotten) and the sender gets the credit limit of what is free.
     */
    private void reinitialiseCredits(Topology.End sender, Topology.End receiver) {
        var gate = creditGate(sender);
        gate.linkUp();
        var ret = topology.isHost(receiver.node()) ? nics[receiver.node()].creditReturn()
                : switches[receiver.node() - nics.length].port(receiver.port()).creditReturn();
        for (int vl = 0; vl < InfinibandParameters.DATA_VLS; vl++) {
            ret.resynchronise(vl, gate.blocksSent(vl));
            gate.onUpdate(sim.nowPs(), vl, ret.creditLimit(vl));
        }
    }

    /** The sending side of the credit flow control of a link's end (InfiniBand). */
    private CreditGate creditGate(Topology.End end) {
        return topology.isHost(end.node()) ? nics[end.node()].creditGate()
                : switches[end.node() - nics.length].port(end.port()).creditGate();
    }

    public boolean isEdgeDown(int edgeIndex) {
        return edgeDown[edgeIndex];
    }

    /** The link carrying frames from {@code edge}'s end a to end b ({@code aToB}) or back. */
    public Link link(int edgeIndex, boolean aToB) {
        return links.get(2 * edgeIndex + (aToB ? 0 : 1));
    }

    /** Frames lost on links that were down. */
    public long linkLosses() {
        long n = 0;
        for (Link l : links) {
            n += l.lost();
        }
        return n;
    }

    /**
     * Opens a reliable connection from host {@code src} to host {@code dst}. Its UDP source port (the ECMP
     * entropy) is drawn from the QP's own random stream in 0xC000..0xFFFF, as RNICs do per QP.
     */
    public QueuePair connect(int src, int dst, MessageListener listener) {
        return connect(src, dst, listener, -1);
    }

    /** As {@link #connect(int, int, MessageListener)}, marking the QP's packets with {@code dscp} (-1: default). */
    public QueuePair connect(int src, int dst, MessageListener listener, int dscp) {
        if (deferred != null) {
            // One deferring listener per (listener, sender's partition, receiver's partition), not one per QP: it
            // only forwards the QP's id, and QPs sharing it share their constants too.
            int ps = partitionOfHost[src];
            int pd = partitionOfHost[dst];
            if (listener != deferredFor) {
                deferredFor = listener;
                deferredBetween = new MessageListener[deferred.length * deferred.length];
            }
            MessageListener between = deferredBetween[ps * deferred.length + pd];
            if (between == null) {
                between = DeferredMessages.between(listener, deferred[ps], deferred[pd]);
                deferredBetween[ps * deferred.length + pd] = between;
            }
            listener = between;
        }
        int id = queuePairs.size();
        SplittableRandom random = streams.forComponent("qp/" + id);
        int entropy = entropy(random);
        Nic source = nics[src];
        Simulator sourceSim = simOfNode[src];
        var cc = congestionControlByHost[src].create(
                new CongestionControlFactory.Context(sourceSim, source.queuePairLineRateBps(), id, random, source));
        // The sending RNIC's own settings: its DSCP, priority and transport timers.
        QueuePair qp = NetworkBuilder.newQueuePair(sourceSim, id, source, nics[dst], entropy, cc, listener,
                source.parameters(), frames, queuePairs);
        if (dscp >= 0) {
            qp.dscp(dscp);
        }
        if (planeRouting != null) {
            // QPs open here in id order, as the flow level numbers them: the same home plane at both levels.
            qp.initialPlane(planeRouting.open(id, src, dst));
        }
        if (laneOfDscp != null) {
            qp.lane(laneOfDscp[dscp >= 0 ? dscp : nicParameters.dataDscp()]);
        }
        return qp;
    }

    /**
     * The UDP source port (ECMP entropy) that {@link #connect} gives the QP with this id: the flow-level model asks,
     * so its flows hash onto the same paths as the packet level's QPs.
     */
    public int entropy(int queuePairId) {
        return entropy(streams.forComponent("qp/" + queuePairId));
    }

    private static int entropy(SplittableRandom qpStream) {
        return 0xC000 | qpStream.nextInt(0x4000);
    }

    /** Hears that the switches have new routes (a link went down or came back). */
    public interface RouteListener {
        void routesChanged(long nowPs);
    }

    private final List<RouteListener> routeListeners = new ArrayList<>();

    /** Registers a listener told after every route change (the flow-level model reroutes its flows). */
    public void routeListener(RouteListener listener) {
        routeListeners.add(listener);
    }

    public Simulator simulator() {
        return sim;
    }

    /** The packet pool (the first partition's in a partitioned run: see {@link #pools}). */
    public PacketPool pool() {
        return pool;
    }

    /** Every partition's packet pool (one when the run is not partitioned). */
    public List<PacketPool> pools() {
        return List.of(pools);
    }

    /**
     * The end of a run at {@code nowPs}: every pause still in force counts as paused time so far in the counters of
     * the switch port or RNIC it holds, and the waits behind it of the packets and QPs it still holds are told to the
     * PFC probes, switches first, then RNICs, in index order (the same order however many threads ran). Without this
     * a run that ends paused (a PFC deadlock, a pause storm, a stop time) would count none of the pause it ends in.
     */
    public void settlePauses(long nowPs) {
        for (int s = 0; s < switchCount(); s++) {
            switchAt(s).settlePauses(nowPs);
        }
        for (int h = 0; h < hostCount(); h++) {
            nic(h).settlePauses(nowPs);
        }
    }

    /**
     * Every pool's free packets that lay idle since the last look let go by half ({@link PacketPool#trimIdle}), at
     * most once per {@link #IDLE_LOOK_PS} of simulated time. The run calls it where no packet moves: between its
     * batches of events on one thread, between its windows on several. Which packet objects a run reuses is in none
     * of its outputs.
     */
    public void trimIdlePackets(long nowPs) {
        if (nowPs < nextIdleLookPs) {
            return;
        }
        nextIdleLookPs = nowPs + IDLE_LOOK_PS;
        for (PacketPool p : pools) {
            p.trimIdle();
        }
    }

    /** How often {@link #trimIdlePackets} looks: 100 us, some sixty times in the 1,024-host all-to-all. */
    static final long IDLE_LOOK_PS = 100_000_000L;
    private long nextIdleLookPs = IDLE_LOOK_PS;

    /** Every pool's free packets let go (see {@link PacketPool#dropFree}): for the end of a run. */
    public void dropFreePackets() {
        for (PacketPool p : pools) {
            p.dropFree();
        }
    }

    /** Packets acquired and not yet released, over every pool (a packet may be released into another pool). */
    public long packetsOutstanding() {
        long n = 0;
        for (PacketPool p : pools) {
            n += p.outstanding();
        }
        return n;
    }

    /**
     * From now on, the listeners of the QPs {@link #connect} opens hear their notifications through the partition
     * of the notifying RNIC's {@code deferred} buffer, after each window ({@link DeferredMessages}).
     */
    public void deferNotifications(DeferredMessages[] perPartition, int[] partitionOfHost) {
        this.deferred = perPartition.clone();
        this.deferredFor = null;
        this.partitionOfHost = partitionOfHost.clone();
    }

    /** The simulator of topology node {@code node} (hosts first, then switches). */
    public Simulator simulatorOf(int node) {
        return simOfNode[node];
    }

    /** Frames that crossed between partitions on cut links (0 when the run is not partitioned). */
    public long crossings() {
        long n = 0;
        for (Link l : links) {
            n += l.crossings();
        }
        return n;
    }

    public Topology topology() {
        return topology;
    }

    public int hostCount() {
        return nics.length;
    }

    public Nic nic(int host) {
        return nics[host];
    }

    public int switchCount() {
        return switches.length;
    }

    public Switch switchAt(int index) {
        return switches[index];
    }

    public QueuePairTable queuePairs() {
        return queuePairs;
    }

    public FrameFormat frames() {
        return frames;
    }

    /**
     * The telemetry header the congestion controls put on every data frame and ACK (HPCC's INT), the fewest bytes
     * of any RNIC's: exact when every RNIC runs the same control (a lower bound for the closed forms otherwise).
     */
    public int telemetryHeaderBytes() {
        int fewest = Integer.MAX_VALUE;
        for (int h = 0; h < nics.length; h++) {
            if (nics[h] != null && congestionControlByHost[h] != null) {
                fewest = Math.min(fewest, congestionControlByHost[h].telemetryHeaderBytes());
            }
        }
        return fewest == Integer.MAX_VALUE ? 0 : fewest;
    }

    /** InfiniBand: the service level of each DSCP (its traffic class); set by the builder. */
    void serviceLevelOfDscp(int[] map) {
        this.serviceLevelOfDscp = map.clone();
    }

    void planeRouting(PlaneRouting routing) {
        this.planeRouting = routing;
    }

    /** Which planes reach which hosts now; null on a single-plane fabric. */
    public PlaneRouting planeRouting() {
        return planeRouting;
    }

    /** Independent planes of the fabric (1: an ordinary one). */
    public int planes() {
        return topology.planes();
    }

    void managementSweep(ManagementSweep sweep) {
        this.managementSweep = sweep;
    }

    /** Subnet management packets (VL15) the switches sent; 0 without a sweep. */
    public long managementPacketsSent() {
        return managementSweep == null ? 0 : managementSweep.sent();
    }

    public int[] serviceLevelOfDscp() {
        return serviceLevelOfDscp.clone();
    }

    /** Whether this is an InfiniBand fabric (credit flow control, virtual lanes, IB packets). */
    public boolean isInfiniband() {
        return laneOfDscp != null;
    }

    /** Packets held anywhere in the fabric: on links, in switch queues and service, in RNIC transmitters. */
    public long packetsHeld() {
        long n = 0;
        for (Link l : links) {
            n += l.inFlight();
        }
        for (Nic nic : nics) {
            n += nic.packetsHeld();
        }
        for (Switch s : switches) {
            for (int p = 0; p < s.portCount(); p++) {
                n += s.port(p).packetsHeld();
            }
        }
        return n;
    }
}
