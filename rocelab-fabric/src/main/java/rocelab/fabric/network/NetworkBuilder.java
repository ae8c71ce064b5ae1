package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import rocelab.engine.PartitionedSimulator;
import rocelab.engine.RandomStreams;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.congestion.EcnMarkingFactory;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.flowcontrol.credit.ManagementSweep;
import rocelab.fabric.flowcontrol.credit.VlArbiter;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.nic.PlaneRouting;
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
    private DevicePlan plan;
    private InfinibandParameters infiniband;
    private long managementSweepPs;
    private PauseLoop pauseLoop;
    /** InfiniBand: the virtual lane of each DSCP (null on Ethernet). */
    private int[] lanes;
    /** A partitioned run (null: every device on {@link #sim}) and the partition of each topology node. */
    private PartitionedSimulator parallel;
    private int[] partitionOfNode;
    private PacketPool[] pools;

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

    /** Settings that differ per device; without a plan every device gets the uniform settings above. */
    public NetworkBuilder devices(DevicePlan p) {
        this.plan = p;
        return this;
    }

    /**
     * An InfiniBand fabric instead of Ethernet: native IB packets, credit-based flow control per virtual lane on
     * every link, VL arbitration at switch ports, and each packet's lane from its service level (the traffic class
     * its DSCP maps to, then the SL to VL table).
     */
    public NetworkBuilder infiniband(InfinibandParameters p) {
        this.infiniband = p;
        return this;
    }

    /** InfiniBand: every switch port sends a subnet management packet on VL15 every {@code ps} (0: none). */
    public NetworkBuilder managementSweep(long ps) {
        this.managementSweepPs = ps;
        return this;
    }

    /**
     * Response times of the transmitters to PFC frames (and the forwarding latency, which must equal every
     * switch's); without it: the switches' forwarding latency and IEEE 802.3 response times.
     */
    public NetworkBuilder pauseLoop(PauseLoop p) {
        this.pauseLoop = p;
        return this;
    }

    /** The delays between ports and their peers this builder wires (see {@link PauseLoop}). */
    public PauseLoop pauseLoop() {
        return pauseLoop != null ? pauseLoop : new PauseLoop(switchParameters.forwardingLatencyPs(), -1, -1);
    }

    /**
     * Splits the fabric over the partitions of {@code run}: node n (hosts first, then switches, as the topology
     * numbers them) is simulated by partition {@code partitionOfNode[n]} with a packet pool of its own; a link
     * between partitions is cut ({@link Link#crossFrom}). The builder's simulator must be {@code run.serial()}: the
     * network's own handlers (a sampler, the workload driver) touch every partition.
     */
    public NetworkBuilder partitioned(PartitionedSimulator run, int[] partitionOfNode) {
        if (run.serial() != sim) {
            throw new IllegalArgumentException("the builder's simulator must be the partitioned run's serial one");
        }
        this.parallel = run;
        this.partitionOfNode = partitionOfNode.clone();
        return this;
    }

    private Simulator simOf(int node) {
        return parallel == null ? sim : parallel.partition(partitionOfNode[node]);
    }

    private PacketPool poolOf(int node) {
        return pools[parallel == null ? 0 : partitionOfNode[node]];
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
        if (infiniband != null) {
            frames = FrameFormat.infiniband();
            lanes = laneOfDscp(serviceLevels);
            notification = onLanes(notification);
        }
        DevicePlan devices = plan != null ? plan : uniformPlan(topology);
        PauseLoop loop = pauseLoop();
        pools = new PacketPool[parallel == null ? 1 : parallel.partitions()];
        for (int i = 0; i < pools.length; i++) {
            pools[i] = new PacketPool(initialPoolSize, frames.framingBytes());
        }
        if (parallel != null && partitionOfNode.length != topology.nodeCount()) {
            throw new IllegalArgumentException("a partition for each of the " + topology.nodeCount() + " nodes");
        }
        QueuePairTable queuePairs = new QueuePairTable();
        if (parallel != null) {
            queuePairs.partitions(parallel.partitions());
        }
        int hosts = topology.hostCount();
        Nic[] nics = new Nic[hosts];
        CongestionControlFactory[] ccByHost = new CongestionControlFactory[hosts];
        if (topology.planes() > 1 && infiniband != null) {
            throw new IllegalArgumentException("multi-plane fabrics are Ethernet (RoCEv2) only");
        }
        PlaneRouting planes = topology.planes() > 1 ? new PlaneRouting(topology)
                : null;
        for (int h = 0; h < hosts; h++) {
            if (topology.portCount(h) != topology.planes()) {
                throw new IllegalArgumentException("host h" + h + " is not connected to any switch"
                        + (topology.planes() > 1 ? " on every plane" : ""));
            }
            DevicePlan.NicSetup setup = devices.forNic(h);
            long rate = topology.hostRateBps(h);
            long portRate = topology.edgeAt(h, 0).parameters().rateBps();
            nics[h] = new Nic(simOf(h), h, rate, setup.parameters(), frames, poolOf(h), queuePairs,
                    infiniband == null ? setup.notification() : onLanes(setup.notification()), planes);
            nics[h].priorityFlowControl(setup.pfcMask(), setup.receivePriority());
            nics[h].receivePipeline(setup.receive(), (setup.pfcMask() & 1 << setup.receivePriority()) != 0);
            nics[h].pauseResponse(infiniband == null ? loop.responsePs(false, portRate) : 0);
            ccByHost[h] = setup.congestionControl();
        }
        int[][][] routes = topology.shortestPathPorts();
        Switch[] switches = new Switch[topology.switchCount()];
        for (int s = 0; s < switches.length; s++) {
            DevicePlan.SwitchSetup setup = devices.forSwitch(s);
            if (setup.parameters().forwardingLatencyPs() != loop.forwardingLatencyPs()) {
                throw new IllegalArgumentException("every switch needs the same forwarding latency ("
                        + loop.forwardingLatencyPs() + " ps), " + topology.nodeName(hosts + s) + " has "
                        + setup.parameters().forwardingLatencyPs());
            }
            switches[s] = newSwitch(topology, hosts + s, routes[s], poolOf(hosts + s), setup, loop);
        }
        List<Link> links = new ArrayList<>();
        for (Topology.Edge e : topology.edges()) {
            links.add(wire(topology, e.a(), e.b(), e.parameters(), nics, switches, loop));
            links.add(wire(topology, e.b(), e.a(), e.parameters(), nics, switches, loop));
        }
        ManagementSweep sweep = null;
        if (infiniband != null) {
            attachCredits(topology, nics, switches);
            if (managementSweepPs > 0 && parallel != null) {
                throw new IllegalArgumentException("the management sweep touches every switch: one partition only");
            }
            if (managementSweepPs > 0) {
                PacketPool pool = pools[0];
                sweep = new ManagementSweep(sim, managementSweepPs, switches, pool,
                        frames);
            }
        }
        Simulator[] simOfNode = new Simulator[topology.nodeCount()];
        for (int n = 0; n < simOfNode.length; n++) {
            simOfNode[n] = simOf(n);
        }
        Network network = new Network(sim, pools, simOfNode, topology, nics, switches, links, queuePairs, nicParameters, frames,
                ccByHost, streams, lanes);
        network.planeRouting(planes);
        network.serviceLevelOfDscp(serviceLevels);
        network.managementSweep(sweep);
        return network;
    }

    /** InfiniBand: CNPs (BECNs) travel on the lane of their DSCP. */
    private NotificationPointParameters onLanes(NotificationPointParameters n) {
        return new NotificationPointParameters(n.mode(), n.cnpIntervalPs(), n.cnpDscp(), lanes[n.cnpDscp()],
                n.intervalPerPort());
    }

    /** InfiniBand: the switch classifies each DSCP straight onto its virtual lane. */
    private SwitchParameters onLanes(SwitchParameters p) {
        return new SwitchParameters(p.bufferBytes(), p.forwardingLatencyPs(), lanes, p.scheduler(), p.dwrrWeights(),
                p.strictClasses(), p.loadBalancing(), p.ecmpHash(), p.ecmpSeed(), p.adaptive());
    }

    /** The virtual lane of each DSCP: its traffic class is the service level, and SL to VL gives the lane. */
    private int[] laneOfDscp(int[] sl) {
        int[] slToVl = infiniband.slToVl();
        int[] out = new int[sl.length];
        for (int d = 0; d < out.length; d++) {
            out[d] = slToVl[sl[d]];
        }
        return out;
    }

    /**
     * Gives every port (switch port or HCA) the sending side of credit flow control toward its peer's buffer and
     * the receiving side for its own; a switch returns credits as packets leave its buffer, an HCA as it consumes
     * them.
     */
    private void attachCredits(Topology topology, Nic[] nics, Switch[] switches) {
        int hosts = topology.hostCount();
        for (int node = 0; node < topology.nodeCount(); node++) {
            PacketPool pool = poolOf(node);
            for (int port = 0; port < topology.portCount(node); port++) {
                Topology.End peer = topology.peer(node, port);
                long peerBuffer = topology.isHost(peer.node()) ? infiniband.hcaBufferBytes()
                        : infiniband.vlBufferBytes();
                long ownBuffer = topology.isHost(node) ? infiniband.hcaBufferBytes() : infiniband.vlBufferBytes();
                if (topology.isHost(node)) {
                    Nic nic = nics[node];
                    var gate = new CreditGate(peerBuffer, nic::wakeTransmitter);
                    gate.owner(node, port);
                    var ret = new CreditReturn(ownBuffer, pool, frames,
                            nic::wakeTransmitter);
                    ret.ownGate(gate);
                    nic.credits(gate, ret);
                } else {
                    EgressPort egress = switches[node - hosts].port(port);
                    var gate = new CreditGate(peerBuffer, egress::wakeTransmitter);
                    gate.owner(node, port);
                    var ret = new CreditReturn(ownBuffer, pool, frames,
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

    /** Every switch and RNIC with the builder's uniform settings. */
    private DevicePlan uniformPlan(Topology topology) {
        DevicePlan.NicSetup nic = new DevicePlan.NicSetup(nicParameters, pfc.losslessMask(),
                nicParameters.dataPriority(),
                notification, congestionControl, receive);
        return new DevicePlan() {
            @Override
            public DevicePlan.SwitchSetup forSwitch(int switchIndex) {
                int ports = topology.portCount(topology.hostCount() + switchIndex);
                EcnMarkingFactory[] marks = new EcnMarkingFactory[ports];
                Arrays.fill(marks, marking);
                long[] headroom = new long[ports];
                Arrays.fill(headroom, -1);
                int[] maxFrame = new int[ports];
                Arrays.fill(maxFrame, Integer.MAX_VALUE);
                return new DevicePlan.SwitchSetup(switchParameters, pfc, marks, headroom, maxFrame);
            }

            @Override
            public DevicePlan.NicSetup forNic(int host) {
                return nic;
            }
        };
    }

    private Switch newSwitch(Topology topology, int node, int[][] routes, PacketPool pool,
            DevicePlan.SwitchSetup setup, PauseLoop loop) {
        int ports = topology.portCount(node);
        String name = topology.nodeName(node);
        SwitchParameters params = infiniband == null ? setup.parameters() : onLanes(setup.parameters());
        PfcParameters switchPfc = setup.pfc();
        long[] headroom = headroomPerPort(topology, node, switchPfc, frames, nicParameters.mtuBytes(), loop,
                setup.headroomByPort());
        // InfiniBand: the buffer is the input buffers of every port and lane, which credits never overfill.
        long capacity = infiniband == null ? params.bufferBytes()
                : (long) ports * SwitchParameters.TRAFFIC_CLASSES * infiniband.vlBufferBytes() + 1;
        SharedBuffer buffer = new SharedBuffer(capacity, ports, SwitchParameters.TRAFFIC_CLASSES, switchPfc,
                headroom);
        EgressPort[] egress = new EgressPort[ports];
        for (int p = 0; p < ports; p++) {
            long rate = topology.edgeAt(node, p).parameters().rateBps();
            // InfiniBand: the fabric's FECN marking, whatever the Ethernet settings of the device say.
            EcnMarkingFactory portMarking = infiniband != null ? marking : setup.markingByPort()[p];
            EcnMarking[] perClass = new EcnMarking[SwitchParameters.TRAFFIC_CLASSES];
            for (int tc = 0; tc < perClass.length; tc++) {
                perClass[tc] = portMarking.forQueue(name, p, rate, tc, streams);
            }
            egress[p] = new EgressPort(simOf(node), p, rate, SwitchParameters.TRAFFIC_CLASSES, scheduler(params), perClass,
                    portMarking.marksAtEnqueue(), buffer);
            egress[p].pauseResponse(infiniband == null ? loop.responsePs(true, rate) : 0);
            // 802.1Qbb: a port acts on PFC frames only for the priorities PFC is enabled on.
            for (int prio = 0; prio < SwitchParameters.TRAFFIC_CLASSES; prio++) {
                if (!switchPfc.isLossless(prio)) {
                    egress[p].ignorePause(0, prio, true);
                }
            }
        }
        Long seed = params.ecmpSeed();
        long hashSeed = seed != null ? seed : streams.derive("switch/" + name + "/ecmp-seed");
        Switch sw = new Switch(simOf(node), node, name, egress, routes, buffer, params, switchPfc, frames, hashSeed,
                streams.forComponent("switch/" + name + "/spray"), pool);
        if (setup.maxPayload()) {
            sw.maxPayloadBytes(setup.maxFrameByPort());
        } else {
            sw.maxFrameBytes(setup.maxFrameByPort());
        }
        return sw;
    }

    /**
     * The headroom each ingress port of switch {@code node} reserves per lossless priority: the configured value,
     * or (auto) the one {@link PauseLoop#headroomBytes} computes from the port's link, the delays the simulator
     * applies on it and the largest frame.
     */
    public static long[] headroomPerPort(Topology topology, int node, PfcParameters pfc, FrameFormat frames,
            int mtuBytes, PauseLoop loop) {
        return headroomPerPort(topology, node, pfc, frames, mtuBytes, loop, null);
    }

    /** As above, with per-port values ({@code byPort[p] >= 0}) taking precedence; {@code byPort} may be null. */
    public static long[] headroomPerPort(Topology topology, int node, PfcParameters pfc, FrameFormat frames,
            int mtuBytes, PauseLoop loop, long[] byPort) {
        int ports = topology.portCount(node);
        long[] headroom = new long[ports];
        if (pfc.enabled()) {
            for (int p = 0; p < ports; p++) {
                headroom[p] = byPort != null && byPort[p] >= 0 ? byPort[p]
                        : pfc.headroomBytes() >= 0 ? pfc.headroomBytes()
                        : loop.headroomBytes(topology, node, p, frames, mtuBytes);
            }
        }
        return headroom;
    }


    private TransmitScheduler scheduler(SwitchParameters params) {
        if (infiniband != null) {
            return new VlArbiter(infiniband);
        }
        return params.scheduler() == SchedulerKind.STRICT
                ? new StrictPriorityScheduler()
                : new DwrrScheduler(params.dwrrWeights(), params.strictClasses());
    }

    /** One direction of a link, from {@code from} to {@code to}; a switch's forwarding latency rides on it. */
    private Link wire(Topology topology, Topology.End from, Topology.End to, LinkParameters params, Nic[] nics,
            Switch[] switches, PauseLoop loop) {
        int hosts = topology.hostCount();
        boolean toSwitch = !topology.isHost(to.node());
        PacketSink receiver = toSwitch ? switches[to.node() - hosts].ingress(to.port())
                : nics[to.node()].port(to.port());
        Link link = new Link(simOf(to.node()), loop.oneWayPs(params.delayPs(), toSwitch), receiver);
        if (parallel != null && partitionOfNode[from.node()] != partitionOfNode[to.node()]) {
            link.crossFrom(simOf(from.node()));
            parallel.addInbox(partitionOfNode[to.node()], link);
        }
        if (topology.isHost(from.node())) {
            nics[from.node()].connect(from.port(), link);
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
