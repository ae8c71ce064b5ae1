package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.engine.RandomStreams;
import rocelab.fabric.network.LinkEvent;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.FabricMode;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.StreamedRun;
import rocelab.scenario.device.Devices;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.TrafficSpec;

/**
 * What the rules look at: the resolved devices, and every path the scenario's traffic can take. Paths are the
 * shortest paths the switches route on, every ECMP branch, in the initial topology and after each link event;
 * each flow's data goes source to destination with its DSCP, its ACKs and CNPs come back the other way.
 */
public final class LintContext {
    /** Paths kept in all; beyond it the rules see a sample (and an info finding says so). */
    static final int MAX_PATHS = 200_000;

    /** One switch on a path: the port the frame came in on and the one it leaves by. */
    public record Hop(int switchIndex, int node, int inPort, int outPort) {}

    /** One way through the fabric for frames of {@code dscp} from host {@code src} to host {@code dst}. */
    public record Path(int src, int dst, int dscp, List<Hop> hops) {}

    private final ScenarioConfig config;
    private final Topology topology;
    private final List<Path> dataPaths = new ArrayList<>();
    private final List<Path> cnpPaths = new ArrayList<>();
    private final List<Path> ackPaths = new ArrayList<>();
    private final List<int[]> flows = new ArrayList<>();
    private boolean truncated;
    private final List<int[][][]> routeStates;
    private final Map<Long, Hop> hopCache = new HashMap<>();
    private boolean cnpWalked;
    private boolean ackWalked;
    private Set<Queues.Queue> egress;
    private Set<Queues.Queue> ingress;

    public LintContext(ScenarioConfig config) {
        this.config = config;
        this.topology = config.topology().build();
        // Every transfer the workload puts on the fabric: traffic items, the steps of collectives and jobs, and the
        // transfers of inference services (NVLink transfers inside a server never touch it). Many transfers share
        // (source, destination, DSCP); each triple is kept once, in the order first seen, through a primitive set
        // (a set of boxed triples would cost more than the flows themselves).
        LongSet seen = new LongSet();
        if (StreamedRun.chosen(config, Simulation.Model.FLOW)) {
            // A workload too large to hold (a flow-level run streams it): walked a part at a time, the same way.
            StreamedRun.forEachFlow(config, topology, (src, dst, d) -> {
                allFlows++;
                int dscp = d >= 0 ? d : devices().nic(src).parameters().dataDscp();
                if (seen.add(((long) src << 28 | dst) << 7 | dscp)) {
                    flows.add(new int[] {src, dst, dscp});
                }
            });
        } else {
            for (FlowSpec f : Simulation.workloadGraph(config, topology).flows()) {
                allFlows++;
                int dscp = f.dscp() >= 0 ? f.dscp() : devices().nic(f.src()).parameters().dataDscp();
                if (seen.add(((long) f.src() << 28 | f.dst()) << 7 | dscp)) {
                    flows.add(new int[] {f.src(), f.dst(), dscp});
                }
            }
        }
        this.routeStates = routeStates();
        for (int[][][] routes : routeStates) {
            for (int[] f : flows) {
                walk(routes, f[0], f[1], f[2], dataPaths);
            }
        }
    }

    /** The return paths of CNPs ({@code cnp}) or ACKs, walked the first time a rule asks for them. */
    private void walkReturnPaths(boolean cnp) {
        if (cnp ? cnpWalked : ackWalked) {
            return;
        }
        if (cnp) {
            cnpWalked = true;
        } else {
            ackWalked = true;
        }
        for (int[][][] routes : routeStates) {
            for (int[] f : flows) {
                // ACKs leave the responder (f[1]) in their QP's class, or in its own ACK class (nic.ack).
                var responder = devices().nic(f[1]);
                int ackDscp = responder.parameters().ownAckQos() ? responder.parameters().ackDscp() : f[2];
                walk(routes, f[1], f[0], cnp ? responder.cnpDscp() : ackDscp, cnp ? cnpPaths : ackPaths);
            }
        }
    }

    /** The routes before any link event and after each one (events applied in time order). */
    private List<int[][][]> routeStates() {
        List<int[][][]> states = new ArrayList<>();
        states.add(topology.shortestPathPorts());
        List<LinkEvent> events = new ArrayList<>(config.linkEvents());
        events.sort(Comparator.comparingLong(LinkEvent::atPs));
        boolean[] down = new boolean[topology.edges().size()];
        for (LinkEvent e : events) {
            down[e.edgeIndex()] = !e.up();
            states.add(topology.shortestPathPorts(down.clone()));
        }
        return states;
    }

    private void walk(int[][][] routes, int src, int dst, int dscp, List<Path> out) {
        if (src == dst) {
            return;
        }
        // A multi-plane RNIC may send by any of its ports: the paths of every plane (one plane's alone otherwise).
        for (int plane = 0; plane < topology.planes(); plane++) {
            Topology.End first = topology.peer(src, plane);
            walk(routes, src, dst, dscp, first.node(), first.port(), new ArrayList<>(), out, 0);
        }
    }

    private void walk(int[][][] routes, int src, int dst, int dscp, int node, int inPort, List<Hop> hops,
            List<Path> out, int depth) {
        if (dataPaths.size() + cnpPaths.size() + ackPaths.size() >= MAX_PATHS || depth > topology.nodeCount()) {
            truncated = true;
            return;
        }
        int s = node - topology.hostCount();
        for (int outPort : routes[s][dst]) {
            hops.add(hop(s, node, inPort, outPort));
            Topology.End next = topology.peer(node, outPort);
            if (topology.isHost(next.node())) {
                out.add(new Path(src, dst, dscp, List.copyOf(hops)));
            } else {
                walk(routes, src, dst, dscp, next.node(), next.port(), hops, out, depth + 1);
            }
            hops.remove(hops.size() - 1);
        }
    }

    /** One shared Hop per (switch, in, out): paths of many flows hold the same hops, and big traffic has many. */
    private Hop hop(int s, int node, int inPort, int outPort) {
        long key = ((long) s << 40) | ((long) inPort << 20) | outPort;
        return hopCache.computeIfAbsent(key, k -> new Hop(s, node, inPort, outPort));
    }

    public ScenarioConfig config() {
        return config;
    }

    public Topology topology() {
        return topology;
    }

    public Devices devices() {
        return config.devices();
    }

    public SwitchConfig switchAt(int index) {
        return config.devices().switchAt(index);
    }

    public NicConfig nic(int host) {
        return config.devices().nic(host);
    }

    public boolean lossless() {
        return config.mode() == FabricMode.ROCE_LOSSLESS;
    }

    /** InfiniBand: every data lane is lossless by credits, and a packet's queue is its virtual lane. */
    public boolean infiniband() {
        return config.mode() == FabricMode.INFINIBAND;
    }

    /** InfiniBand: the virtual lane of service level {@code sl} (the traffic class its DSCP maps to). */
    public int lane(int sl) {
        return config.infiniband().fabric().slToVl()[sl];
    }

    public FrameFormat frames() {
        return new FrameFormat(config.vlanTagged());
    }

    /** Distinct (source, destination, DSCP) of the data flows. */
    public List<int[]> flows() {
        return flows;
    }

    /** Every path RoCE data (and its ACKs' mirror image) takes. */
    public List<Path> dataPaths() {
        return dataPaths;
    }

    /** Every path the CNPs of the flows take (receiver back to sender, with the receiver's CNP DSCP). */
    public List<Path> cnpPaths() {
        walkReturnPaths(true);
        return cnpPaths;
    }

    /** Every path the ACKs of the flows take (receiver back to sender, on the flow's DSCP). */
    /** Every flow of the workload ({@link #flows()} keeps those distinct by source, destination and DSCP). */
    public long allFlows() {
        return allFlows;
    }

    private long allFlows;

    public List<Path> ackPaths() {
        walkReturnPaths(false);
        return ackPaths;
    }

    /** The egress queues (switch, port, class) the data paths use. */
    Set<Queues.Queue> egressQueues() {
        if (egress == null) {
            egress = Collections.unmodifiableSet(Queues.computeEgress(this));
        }
        return egress;
    }

    /** The ingress priority groups (switch, port, class) the data paths use. */
    Set<Queues.Queue> ingressQueues() {
        if (ingress == null) {
            ingress = Collections.unmodifiableSet(Queues.computeIngress(this));
        }
        return ingress;
    }

    public boolean truncated() {
        return truncated;
    }

    public String name(int node) {
        return topology.nodeName(node);
    }

    /** {@code leaf0 port 4 (to spine0)}. */
    public String port(int node, int port) {
        return name(node) + " port " + port + " (to " + name(topology.peer(node, port).node()) + ")";
    }

    /** The device a switch port faces. */
    public int peer(int node, int port) {
        return topology.peer(node, port).node();
    }

    /** A set of longs by open addressing (no boxing); only {@link #add}. */
    static final class LongSet {
        private long[] keys = new long[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        /** Adds {@code key}; false when it was there already. */
        boolean add(long key) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int i = (int) (mix(key) & mask);
            while (used[i]) {
                if (keys[i] == key) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = key;
            size++;
            return true;
        }

        private void grow() {
            long[] oldKeys = keys;
            boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldUsed[i]) {
                    add(oldKeys[i]);
                }
            }
        }

        private static long mix(long x) {
            x ^= x >>> 33;
            x *= 0xff51afd7ed558ccdL;
            x ^= x >>> 33;
            return x;
        }
    }
}
