package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.List;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.congestion.EcnMarkingFactory;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.QueuePairFactory;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.DwrrScheduler;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.port.SchedulerKind;
import rocelab.fabric.port.StrictPriorityScheduler;
import rocelab.fabric.port.TransmitScheduler;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;

/** Wires RNICs, switches and links from a topology and the device parameters. Runs once, at assembly. */
public final class NetworkBuilder {
    private final Simulator sim;
    private final RandomStreams streams;
    private NicParameters nicParameters = NicParameters.defaults(1000);
    private SwitchParameters switchParameters = SwitchParameters.defaults();
    private FrameFormat frames = new FrameFormat(false);
    private CongestionControlFactory congestionControl;
    private EcnMarkingFactory marking = EcnMarkingFactory.NONE;
    private NotificationPointParameters notification = NotificationPointParameters.defaults();
    private PfcParameters pfc = PfcParameters.off();
    private ReceiveParameters receive = ReceiveParameters.unlimited();
    private int initialPoolSize = 4096;
    private rocelab.fabric.flowcontrol.credit.InfinibandParameters infiniband;
    private long managementSweepPs;

    public NetworkBuilder(Simulator sim, RandomStreams streams) {
        this.sim = sim;
        this.streams = streams;
    }

    public NetworkBuilder nic(NicParameters p) {
        this.nicParameters = p;
        return this;
    }

    public NetworkBuilder switches(SwitchParameters p) {
        this.switchParameters = p;
        return this;
    }

    public NetworkBuilder frames(FrameFormat f) {
        this.frames = f;
        return this;
    }

    public NetworkBuilder congestionControl(CongestionControlFactory f) {
        this.congestionControl = f;
        return this;
    }

    /** ECN marking of the switch egress queues. */
    public NetworkBuilder ecnMarking(EcnMarkingFactory factory) {
        this.marking = factory;
        return this;
    }

    /** Priority flow control of the switches (off: every priority is lossy). */
    public NetworkBuilder pfc(PfcParameters p) {
        this.pfc = p;
        return this;
    }

    /** The RNICs' receive pipeline (rate, buffer, PFC thresholds). */
    public NetworkBuilder receive(ReceiveParameters r) {
        this.receive = r;
        return this;
    }

    /** How receiving RNICs send congestion notifications. */
    public NetworkBuilder notificationPoint(NotificationPointParameters p) {
        this.notification = p;
        return this;
    }

    /**
     * An InfiniBand fabric instead of Ethernet: native IB packets, credit-based flow control per virtual lane on
     * every link, VL arbitration at switch ports, and each packet's lane from its service level (the traffic class
     * its DSCP maps to, then the SL to VL table).
     */
    public NetworkBuilder infiniband(rocelab.fabric.flowcontrol.credit.InfinibandParameters p) {
        this.infiniband = p;
        return this;
    }

    /** InfiniBand: every switch port sends a subnet management packet on VL15 every {@code ps} (0: none). */
    public NetworkBuilder managementSweep(long ps) {
        this.managementSweepPs = ps;
        return this;
    }

    public NetworkBuilder initialPoolSize(int packets) {
        this.initialPoolSize = packets;
        return this;
    }

    public Network build(Topology topology) {
        if (congestionControl == null) {
            throw new IllegalStateException("a congestion control factory is required");
        }
        int[] serviceLevels = switchParameters.dscpToTc();
        int[] lanes = null;
        if (infiniband != null) {
            frames = FrameFormat.infiniband();
            lanes = laneOfDscp(serviceLevels);
            switchParameters = new SwitchParameters(switchParameters.bufferBytes(),
                    switchParameters.forwardingLatencyPs(), lanes, switchParameters.scheduler(),
                    switchParameters.dwrrWeights(), switchParameters.strictClasses(), switchParameters.loadBalancing(),
                    switchParameters.ecmpHash(), switchParameters.ecmpSeed());
            notification = new NotificationPointParameters(notification.mode(), notification.cnpIntervalPs(),
                    notification.cnpDscp(), lanes[notification.cnpDscp()]);
        }
        PacketPool pool = new PacketPool(initialPoolSize, frames.framingBytes());
        QueuePairTable queuePairs = new QueuePairTable();
        int hosts = topology.hostCount();
        Nic[] nics = new Nic[hosts];
        for (int h = 0; h < hosts; h++) {
            if (topology.portCount(h) != 1) {
                throw new IllegalArgumentException("host h" + h + " is not connected to any switch");
            }
            long rate = topology.edgeAt(h, 0).parameters().rateBps();
            nics[h] = new Nic(sim, h, rate, nicParameters, frames, pool, queuePairs, notification);
            nics[h].receivePipeline(receive, pfc.isLossless(nicParameters.dataPriority()));
        }
        int[][][] routes = topology.shortestPathPorts();
        Switch[] switches = new Switch[topology.switchCount()];
        for (int s = 0; s < switches.length; s++) {
            switches[s] = newSwitch(topology, hosts + s, routes[s], pool);
        }
        List<Link> links = new ArrayList<>();
        for (Topology.Edge e : topology.edges()) {
            links.add(wire(topology, e.a(), e.b(), e.parameters(), nics, switches));
            links.add(wire(topology, e.b(), e.a(), e.parameters(), nics, switches));
        }
        rocelab.fabric.flowcontrol.credit.ManagementSweep sweep = null;
        if (infiniband != null) {
            attachCredits(topology, nics, switches, pool);
            if (managementSweepPs > 0) {
                sweep = new rocelab.fabric.flowcontrol.credit.ManagementSweep(sim, managementSweepPs, switches, pool,
                        frames);
            }
        }
        Network network = new Network(sim, pool, topology, nics, switches, links, queuePairs, nicParameters, frames,
                congestionControl, streams, lanes);
        network.serviceLevelOfDscp(serviceLevels);
        network.managementSweep(sweep);
        return network;
    }

    /** The virtual lane of each DSCP: its traffic class is the service level, and SL to VL gives the lane. */
    private int[] laneOfDscp(int[] sl) {
        int[] slToVl = infiniband.slToVl();
        int[] lanes = new int[sl.length];
        for (int d = 0; d < lanes.length; d++) {
            lanes[d] = slToVl[sl[d]];
        }
        return lanes;
    }

    /**
     * Gives every port (switch port or HCA) the sending side of credit flow control toward its peer's buffer and
     * the receiving side for its own; a switch returns credits as packets leave its buffer, an HCA as it consumes
     * them.
     */
    private void attachCredits(Topology topology, Nic[] nics, Switch[] switches, PacketPool pool) {
        int hosts = topology.hostCount();
        for (int node = 0; node < topology.nodeCount(); node++) {
            for (int port = 0; port < topology.portCount(node); port++) {
                Topology.End peer = topology.peer(node, port);
                long peerBuffer = topology.isHost(peer.node()) ? infiniband.hcaBufferBytes()
                        : infiniband.vlBufferBytes();
                long ownBuffer = topology.isHost(node) ? infiniband.hcaBufferBytes() : infiniband.vlBufferBytes();
                if (topology.isHost(node)) {
                    Nic nic = nics[node];
                    var gate = new rocelab.fabric.flowcontrol.credit.CreditGate(peerBuffer, nic::wakeTransmitter);
                    var ret = new rocelab.fabric.flowcontrol.credit.CreditReturn(ownBuffer, pool, frames,
                            nic::wakeTransmitter);
                    ret.ownGate(gate);
                    nic.credits(gate, ret);
                } else {
                    EgressPort egress = switches[node - hosts].port(port);
                    var gate = new rocelab.fabric.flowcontrol.credit.CreditGate(peerBuffer, egress::wakeTransmitter);
                    var ret = new rocelab.fabric.flowcontrol.credit.CreditReturn(ownBuffer, pool, frames,
                            egress::wakeTransmitter);
                    ret.ownGate(gate);
                    egress.credits(gate, ret);
                }
            }
        }
        for (Switch sw : switches) {
            sw.buffer().releaseListener((nowPs, inPort, vl, bytes) -> sw.port(inPort).creditReturn()
                    .onFreed(nowPs, vl, bytes));
        }
    }

    private Switch newSwitch(Topology topology, int node, int[][] routes, PacketPool pool) {
        int ports = topology.portCount(node);
        String name = topology.nodeName(node);
        long[] headroom = headroomPerPort(topology, node, pfc, frames, nicParameters.mtuBytes());
        // InfiniBand: the buffer is the input buffers of every port and lane, which credits never overfill.
        long capacity = infiniband == null ? switchParameters.bufferBytes()
                : (long) ports * SwitchParameters.TRAFFIC_CLASSES * infiniband.vlBufferBytes() + 1;
        SharedBuffer buffer = new SharedBuffer(capacity, ports, SwitchParameters.TRAFFIC_CLASSES, pfc, headroom);
        EgressPort[] egress = new EgressPort[ports];
        for (int p = 0; p < ports; p++) {
            long rate = topology.edgeAt(node, p).parameters().rateBps();
            EcnMarking[] perClass = new EcnMarking[SwitchParameters.TRAFFIC_CLASSES];
            for (int tc = 0; tc < perClass.length; tc++) {
                perClass[tc] = marking.forQueue(name, p, rate, tc, streams);
            }
            egress[p] = new EgressPort(sim, p, rate, SwitchParameters.TRAFFIC_CLASSES, scheduler(), perClass,
                    marking.marksAtEnqueue(), buffer);
        }
        Long seed = switchParameters.ecmpSeed();
        long hashSeed = seed != null ? seed : streams.derive("switch/" + name + "/ecmp-seed");
        return new Switch(sim, node, name, egress, routes, buffer, switchParameters, pfc, frames, hashSeed,
                streams.forComponent("switch/" + name + "/spray"), pool);
    }

    /**
     * The headroom each ingress port of switch {@code node} reserves per lossless priority: the configured value,
     * or (auto) the one computed from the port's link rate, cable length (from its delay) and largest frame.
     */
    public static long[] headroomPerPort(Topology topology, int node, PfcParameters pfc, FrameFormat frames,
            int mtuBytes) {
        int ports = topology.portCount(node);
        long[] headroom = new long[ports];
        if (pfc.enabled()) {
            int largestFrame = frames.dataFrameBytes(mtuBytes, true);
            for (int p = 0; p < ports; p++) {
                LinkParameters l = topology.edgeAt(node, p).parameters();
                headroom[p] = pfc.headroomBytes() >= 0 ? pfc.headroomBytes()
                        : Headroom.bytes(l.rateBps(), Headroom.cableMeters(l.delayPs()), largestFrame);
            }
        }
        return headroom;
    }

    private TransmitScheduler scheduler() {
        if (infiniband != null) {
            return new rocelab.fabric.flowcontrol.credit.VlArbiter(infiniband);
        }
        return switchParameters.scheduler() == SchedulerKind.STRICT
                ? new StrictPriorityScheduler()
                : new DwrrScheduler(switchParameters.dwrrWeights(), switchParameters.strictClasses());
    }

    /** One direction of a link, from {@code from} to {@code to}; a switch's forwarding latency rides on it. */
    private Link wire(Topology topology, Topology.End from, Topology.End to, LinkParameters params, Nic[] nics,
            Switch[] switches) {
        int hosts = topology.hostCount();
        PacketSink receiver;
        long delay = params.delayPs();
        if (topology.isHost(to.node())) {
            receiver = nics[to.node()];
        } else {
            receiver = switches[to.node() - hosts].ingress(to.port());
            delay += switchParameters.forwardingLatencyPs();
        }
        Link link = new Link(sim, delay, receiver);
        if (topology.isHost(from.node())) {
            nics[from.node()].connect(link);
        } else {
            switches[from.node() - hosts].port(from.port()).connect(link);
        }
        return link;
    }

    static QueuePair newQueuePair(Simulator sim, int id, Nic source, Nic destination, int entropy,
            CongestionControl cc, MessageListener listener, NicParameters params, FrameFormat frames,
            QueuePairTable table) {
        return QueuePairFactory.create(sim, id, source, destination, entropy, cc, listener, params, frames, table);
    }
}
