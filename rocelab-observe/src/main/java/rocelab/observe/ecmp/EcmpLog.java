package rocelab.observe.ecmp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.ListedFlow;
import rocelab.observe.output.Numbers;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.victim.EventNotes;
import rocelab.observe.victim.FlowWaits;

/**
 * ECMP collisions, by identity: every packet a switch hashed onto a port among equal-cost ports and queued there
 * behind another queue pair's flow's packet while an equal-cost port towards the same destination was idle
 * (the switch decides it at that moment, {@link EcmpProbe}), and the time each such packet then waited in that queue,
 * less the time its class was held there by PFC or for credits (which the pause's or the credits' own logs count).
 *
 * <p>Per flow and hop the waits are merged as waits behind pauses are ({@link FlowWaits}: packets queued together
 * wait through the same time, and the flow waited while at least one of them did), so a flow's {@code ecmp_wait_us}
 * is the time, summed over its hops, during which at least one of its packets (or its last ACK) waited in a queue it
 * was hashed into behind a collision. Per collision port the log keeps which equal-cost ports were idle, how many
 * packets collided there, and which flows' packets were ahead of which flows' (the colliding flows). In a
 * parallel run each partition's switches note into {@link EventNotes} of their own, which {@link #replayCaptures}
 * hands to the log after each window in one simulator's order: the log is the same.
 */
public final class EcmpLog implements EcmpProbe {
    /**
     * Idle equal-cost ports kept per collision port, and (flow, flow ahead) pairs; the rest are counted. A line names
     * {@link #IDLE_NAMED} idle ports, and a fifth when it is the only one left: one more is kept than named.
     */
    static final int SIBLINGS = 5;
    static final int IDLE_NAMED = 4;
    static final int PAIRS = 16;
    private static final int COLLISION = 0;
    private static final int WAIT = 1;
    private static final int DROP = 2;
    private static final int FIELDS = 7;

    private final Topology topo;
    private final int[] portOffset;
    /** Per switch port (by {@link #portOffset}): its collision port's index, or -1. */
    private final int[] siteOf;
    /**
     * Collisions have no root (each is its own cause): the fewest root slots; and four hops per flow, where a flow
     * can collide at its leaf's uplink (its data) and at its receiver's leaf's (its last ACK), and at the
     * aggregation's uplinks as well in a three-tier fabric, so a million flows keep two hop slots each, not four.
     */
    private final FlowWaits waits = new FlowWaits((qp, kind, node, port) -> FlowWaits.Way.ON, 2, 4);
    private int sites;
    private int[] siteNode = new int[8];
    private int[] sitePort = new int[8];
    private long[] sitePackets = new long[8];
    private int[] idlePort = filled(8 * SIBLINGS);
    private long[] idlePackets = new long[8 * SIBLINGS];
    private long[] idleLeftOut = new long[8];
    private int[] pairFlow = filled(8 * PAIRS);
    private int[] pairAhead = filled(8 * PAIRS);
    private long[] pairPackets = new long[8 * PAIRS];
    private long[] pairsLeftOut = new long[8];
    /**
     * Per site (a port whose queue held the most of its switch's full shared buffer when a packet for another of its
     * ports was dropped): those drops, per (dropped port, flow); rare, so a map of small lists.
     */
    // Per site, PAIRS slots of (port, flow, packets) whose drops its queue caused by holding the full shared buffer
    // (starvedPort -1: free), and how many drops did not fit: primitive arrays, so a drop allocates nothing.
    private int[] starvedPort = grow(new int[0], 8 * PAIRS);
    private int[] starvedFlow = new int[8 * PAIRS];
    private long[] starvedPackets = new long[8 * PAIRS];
    private long[] starvedLeftOut = new long[8];
    private final List<EventNotes> captures = new ArrayList<>();
    private List<FlowRecord> collisionsOf;
    private List<Collision> collisions;

    /** Flows whose first waits the log makes room for before the run (more still fit, as the arrays grow). */
    static final int FLOWS_RESERVED = 1 << 14;

    /**
     * A log for {@code network}'s switches and a run of {@code flows} flows. It makes room before the run for every
     * port that is one of several equal-cost ports (the only ones that can collide) and for the first waits of up to
     * {@link #FLOWS_RESERVED} flows, so a warm run whose flows first collide late allocates nothing then.
     */
    public EcmpLog(Network network, int flows) {
        this.topo = network.topology();
        portOffset = new int[topo.nodeCount() + 1];
        for (int n = 0; n < topo.nodeCount(); n++) {
            portOffset[n + 1] = portOffset[n] + topo.portCount(n);
        }
        siteOf = filled(portOffset[topo.nodeCount()]);
        int candidates = 0;
        for (int s = 0; s < network.switchCount(); s++) {
            var sw = network.switchAt(s);
            boolean[] seen = new boolean[sw.portCount()];
            for (int h = 0; h < network.hostCount(); h++) {
                int[] c = sw.candidates(h);
                for (int i = 0; c.length > 1 && i < c.length; i++) {
                    if (!seen[c[i]]) {
                        seen[c[i]] = true;
                        candidates++;
                    }
                }
            }
        }
        reserveSites(candidates);
        waits.reserve(flows, Math.min(flows, FLOWS_RESERVED));
        waits.expectFlows(flows);
    }

    private void reserveSites(int n) {
        if (n <= siteNode.length) {
            return;
        }
        siteNode = Arrays.copyOf(siteNode, n);
        sitePort = Arrays.copyOf(sitePort, n);
        sitePackets = Arrays.copyOf(sitePackets, n);
        idleLeftOut = Arrays.copyOf(idleLeftOut, n);
        pairsLeftOut = Arrays.copyOf(pairsLeftOut, n);
        idlePort = grow(idlePort, n * SIBLINGS);
        idlePackets = Arrays.copyOf(idlePackets, n * SIBLINGS);
        pairFlow = grow(pairFlow, n * PAIRS);
        pairAhead = grow(pairAhead, n * PAIRS);
        pairPackets = Arrays.copyOf(pairPackets, n * PAIRS);
        starvedPort = grow(starvedPort, n * PAIRS);
        starvedFlow = Arrays.copyOf(starvedFlow, n * PAIRS);
        starvedPackets = Arrays.copyOf(starvedPackets, n * PAIRS);
        starvedLeftOut = Arrays.copyOf(starvedLeftOut, n);
    }

    /** Whether some switch of {@code network} hashes among equal-cost ports: only then can ECMP collide. */
    public static boolean hashes(Network network) {
        for (int s = 0; s < network.switchCount(); s++) {
            if (network.switchAt(s).hashesAmongEqualCostPorts()) {
                return true;
            }
        }
        return false;
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    @Override
    public void onCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idle, long idlePs) {
        collision(node, port, packet.cookie(), ahead.cookie(), idle);
    }

    @Override
    public void onCollisionWait(long nowPs, int node, int port, int tc, Packet packet, long fromPs, long toPs) {
        waits.addUnrooted(packet.cookie(), node, port, packet.kind() != PacketKind.DATA, fromPs, toPs);
    }

    @Override
    public void onBufferFullDrop(long nowPs, int node, int port, long flowCookie, boolean ack, int holderPort,
            int holderTc, long holderBytes) {
        starved(node, port, flowCookie, holderPort);
    }

    /**
     * A packet of flow {@code flow} headed for (node, port) was dropped for a full shared buffer while (node,
     * holderPort)'s queue held the most of it: kept at the holder when that is another port (a queue starving its
     * neighbours of buffer, not its own tail drop).
     */
    private void starved(int node, int port, long flow, int holderPort) {
        if (holderPort < 0 || holderPort == port || flow < 0 || flow > Integer.MAX_VALUE) {
            return;
        }
        int s = site(node, holderPort);
        int b = s * PAIRS;
        for (int i = b; i < b + PAIRS; i++) {
            if (starvedPort[i] < 0) {
                starvedPort[i] = port;
                starvedFlow[i] = (int) flow;
            }
            if (starvedPort[i] == port && starvedFlow[i] == flow) {
                starvedPackets[i]++;
                return;
            }
        }
        starvedLeftOut[s]++;
    }

    /** A packet of flow {@code flow} collided at (node, port) behind flow {@code ahead}'s, {@code idle} idle. */
    private void collision(int node, int port, long flow, long ahead, int idle) {
        int s = site(node, port);
        sitePackets[s]++;
        int b = s * SIBLINGS;
        int i = 0;
        while (i < SIBLINGS && idlePort[b + i] >= 0 && idlePort[b + i] != idle) {
            i++;
        }
        if (i == SIBLINGS) {
            idleLeftOut[s]++;
        } else {
            idlePort[b + i] = idle;
            idlePackets[b + i]++;
        }
        int f = flow > Integer.MAX_VALUE ? -1 : (int) flow;
        int a = ahead > Integer.MAX_VALUE ? -1 : (int) ahead;
        b = s * PAIRS;
        i = 0;
        while (i < PAIRS && pairFlow[b + i] >= 0 && (pairFlow[b + i] != f || pairAhead[b + i] != a)) {
            i++;
        }
        if (i == PAIRS || f < 0 || a < 0) {
            pairsLeftOut[s]++;
        } else {
            pairFlow[b + i] = f;
            pairAhead[b + i] = a;
            pairPackets[b + i]++;
        }
    }

    private int site(int node, int port) {
        int k = portOffset[node] + port;
        if (siteOf[k] >= 0) {
            return siteOf[k];
        }
        int s = sites++;
        if (s == siteNode.length) {
            // A port that became one of several equal-cost ports after a link event.
            reserveSites(2 * s);
        }
        siteNode[s] = node;
        sitePort[s] = port;
        siteOf[k] = s;
        return s;
    }

    private static int[] grow(int[] a, int n) {
        int old = a.length;
        a = Arrays.copyOf(a, n);
        Arrays.fill(a, old, n, -1);
        return a;
    }

    /** The partitions' notes all replayed (the run is over): their arrays let go, for the outputs. */
    public void trimNotes() {
        EventNotes.trim(captures);
    }

    /** A probe for the switches of one partition of a parallel run: its notes join the log after each window. */
    public EcmpProbe forPartition(Simulator partition) {
        EventNotes notes = new EventNotes(partition, FIELDS);
        captures.add(notes);
        return new EcmpProbe() {
            @Override
            public void onCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet,
                    Packet ahead, boolean directly, int idle, long idlePs) {
                note(nowPs, COLLISION, node, port, packet.cookie(), ahead.cookie(), idle, 0);
            }

            @Override
            public void onCollisionWait(long nowPs, int node, int port, int tc, Packet packet, long fromPs,
                    long toPs) {
                note(nowPs, WAIT, node, port, packet.cookie(), fromPs, toPs, packet.kind() != PacketKind.DATA ? 1 : 0);
            }

            @Override
            public void onBufferFullDrop(long nowPs, int node, int port, long flowCookie, boolean ack,
                    int holderPort, int holderTc, long holderBytes) {
                note(nowPs, DROP, node, port, flowCookie, holderPort, 0, 0);
            }

            private void note(long nowPs, int type, int node, int port, long flow, long a, long b, long c) {
                int at = notes.next(nowPs);
                long[] n = notes.array();
                n[at] = type;
                n[at + 1] = node;
                n[at + 2] = port;
                n[at + 3] = flow;
                n[at + 4] = a;
                n[at + 5] = b;
                n[at + 6] = c;
            }
        };
    }

    /** Takes every partition's notes of the window of {@code parity}, in one simulator's order, and empties them. */
    public void replayCaptures(int parity) {
        EventNotes.replay(captures, parity, (n, at) -> {
            if (n[at] == COLLISION) {
                collision((int) n[at + 1], (int) n[at + 2], n[at + 3], n[at + 4], (int) n[at + 5]);
            } else if (n[at] == DROP) {
                starved((int) n[at + 1], (int) n[at + 2], n[at + 3], (int) n[at + 4]);
            } else {
                waits.addUnrooted(n[at + 3], (int) n[at + 1], (int) n[at + 2], n[at + 6] != 0, n[at + 4], n[at + 5]);
            }
        });
    }

    // ---------------------------------------------------------------- per flow

    /** Sum over its hops of the time the flow's packets waited behind ECMP collisions (see the class comment). */
    public long waitPs(int flow) {
        return waits.waitPs(flow);
    }

    /** The flow's waits behind ECMP collisions at each hop, in the order first seen. */
    public List<FlowWaits.Hop> waits(int flow) {
        return waits.waits(flow);
    }

    /** The flows whose packets were ahead of {@code flow}'s collided packets at (node, port), most first. */
    public List<Integer> behind(int flow, int node, int port) {
        int s = siteOf[portOffset[node] + port];
        List<long[]> found = new ArrayList<>();
        for (int i = 0; s >= 0 && i < PAIRS && pairFlow[s * PAIRS + i] >= 0; i++) {
            if (pairFlow[s * PAIRS + i] == flow) {
                found.add(new long[] {pairAhead[s * PAIRS + i], pairPackets[s * PAIRS + i]});
            }
        }
        found.sort(Comparator.<long[]>comparingLong(x -> -x[1]).thenComparingLong(x -> x[0]));
        List<Integer> out = new ArrayList<>();
        for (long[] x : found) {
            out.add((int) x[0]);
        }
        return out;
    }

    /** The equal-cost ports found idle when packets collided at (node, port), most often first. */
    public List<Idle> idlePorts(int node, int port) {
        int s = siteOf[portOffset[node] + port];
        List<Idle> out = new ArrayList<>();
        for (int i = 0; s >= 0 && i < SIBLINGS && idlePort[s * SIBLINGS + i] >= 0; i++) {
            out.add(new Idle(idlePort[s * SIBLINGS + i], idlePackets[s * SIBLINGS + i]));
        }
        out.sort(Comparator.comparingLong(Idle::packets).reversed().thenComparingInt(Idle::port));
        return out;
    }

    /** The collisions at (node, port) that found an idle equal-cost port not among {@link #idlePorts} (not kept). */
    public long idleLeftOut(int node, int port) {
        int s = siteOf[portOffset[node] + port];
        return s < 0 ? 0 : idleLeftOut[s];
    }

    /**
     * How many of {@code kept} idle ports (most often first) a line names when {@code leftOut} collisions found one
     * not kept: all of them when none was left out, else {@link #IDLE_NAMED}, the rest told as {@code another} (two
     * or more ports: the last one kept and one left out at least).
     */
    public static int idleNamed(int kept, long leftOut) {
        return leftOut > 0 ? Math.min(IDLE_NAMED, kept) : kept;
    }

    // ---------------------------------------------------------------- per collision port

    /** An equal-cost port found idle at {@code packets} collisions. */
    public record Idle(int port, long packets) {}

    /**
     * A flow that waited behind collisions at a port, and how long (its hops there: data and last ACK), of which
     * {@code lastAckWaitPs} its last ACK (on its way back: the switch hashed the ACK there, not the data).
     */
    public static final class FlowAt extends ListedFlow {
        private final long waitPs;
        private final long lastAckWaitPs;

        /** Flow {@code flows.get(index)} waited {@code waitPs} at the port, {@code lastAckWaitPs} of it its last ACK. */
        public FlowAt(List<FlowRecord> flows, int index, long waitPs, long lastAckWaitPs) {
            super(flows, index);
            this.waitPs = waitPs;
            this.lastAckWaitPs = lastAckWaitPs;
        }

        public long waitPs() {
            return waitPs;
        }

        public long lastAckWaitPs() {
            return lastAckWaitPs;
        }

        /** Only the flow's last ACK waited at this port: its data never went this way. */
        public boolean lastAckOnly() {
            return lastAckWaitPs == waitPs;
        }

        /** What of the flow waited here: {@code data}, {@code last_ack} or {@code data_and_last_ack}. */
        public String packets() {
            return lastAckWaitPs == 0 ? "data" : lastAckOnly() ? "last_ack" : "data_and_last_ack";
        }
    }

    /** Flow {@code flow}'s packets were queued behind flow {@code ahead}'s at {@code packets} collisions. */
    public record Pair(int flow, int ahead, long packets) {}

    /**
     * A port where flows collided: switch {@code node}'s port {@code port}, the {@code packets} that joined its queue
     * behind a collision, the flows that waited there ({@code flows}, most first) and their waits summed
     * ({@code waitPs}), the equal-cost ports found idle ({@code idlePorts}; {@code idleLeftOut} collisions found one
     * not kept), and which flows' packets were ahead of which ({@code pairs}; {@code pairsLeftOut} not kept).
     */
    public record Collision(int node, int port, long packets, long waitPs, List<FlowAt> flows, List<Idle> idlePorts,
            long idleLeftOut, List<Pair> pairs, long pairsLeftOut, List<Starved> starved, long starvedLeftOut) {
        /** Packets of flows dropped at the switch's other ports for a full buffer while this queue held the most. */
        public long starvedPackets() {
            long n = starvedLeftOut;
            for (Starved x : starved) {
                n += x.packets();
            }
            return n;
        }
    }

    /**
     * {@code packets} of flow {@code flow} headed for the switch's port {@code port} were dropped because its shared
     * buffer was full while the collision port's queue held the most of it (as the switch counted it at each drop).
     */
    public record Starved(int port, int flow, long packets) {}

    private List<Starved> starved(int s) {
        List<Starved> out = new ArrayList<>();
        for (int i = s * PAIRS; i < (s + 1) * PAIRS && starvedPort[i] >= 0; i++) {
            out.add(new Starved(starvedPort[i], starvedFlow[i], starvedPackets[i]));
        }
        out.sort(Comparator.comparingLong(Starved::packets).reversed().thenComparingInt(Starved::port)
                .thenComparingInt(Starved::flow));
        return List.copyOf(out);
    }

    /**
     * Share of its FCT a flow must have waited at a collision port, at least, for the port to be told: as for PFC and
     * IB victims, a wait under it is packet-level noise (a perfectly even hash still queues a packet behind another
     * now and then), not a cost worth a line.
     */
    public static final double TOLD_SHARE = 0.05;

    /** Which collision ports a run tells, in words for its count: {@code at least one for 5 % of its FCT or more}. */
    public static final String TOLD_WORDS = "at least one of them for " + Math.round(TOLD_SHARE * 100)
            + " % of its FCT or more";

    /**
     * Whether some flow waited at the port at least {@link #TOLD_SHARE} of its FCT; an unfinished flow's time in the
     * run is not known here, and its wait counts.
     */
    private static boolean material(List<FlowAt> waited) {
        for (FlowAt f : waited) {
            long fct = f.flow().fctPs();
            if (fct < 0 || f.waitPs() >= TOLD_SHARE * fct) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every port where flows waited behind collisions, at least one of them {@link #TOLD_SHARE} of its FCT (the ports
     * told; flows.csv {@code ecmp_wait_us} keeps every flow's waits, told or not), most waited first ({@code flows}:
     * the run's records, by id), made once and shared: summary.json, the report and the printed summary ask for them.
     * Unmodifiable.
     */
    public synchronized List<Collision> collisions(List<FlowRecord> flows) {
        if (collisions != null && collisionsOf == flows) {
            return collisions;
        }
        List<Collision> told = new ArrayList<>();
        for (Collision c : allCollisions(flows)) {
            if (material(c.flows())) {
                told.add(c);
            }
        }
        collisions = Collections.unmodifiableList(told);
        collisionsOf = flows;
        return collisions;
    }

    /** Every port where flows waited behind collisions, however briefly, most waited first; not kept. */
    public synchronized List<Collision> allCollisions(List<FlowRecord> flows) {
        List<List<FlowAt>> at = new ArrayList<>();
        long[] wait = new long[sites];
        for (int s = 0; s < sites; s++) {
            at.add(new ArrayList<>());
        }
        for (int index = 0; index < flows.size(); index++) {
            FlowRecord f = flows.get(index);
            if (waits.waitPs(f.id()) <= 0) {
                continue;
            }
            // A flow's data and its last ACK are hops of their own: one entry per port, their waits summed (a
            // flow has a few hops: a list of its ports, not an array over every collision port per flow).
            List<FlowWaits.Hop> hops = waits.waits(f.id());
            int[] site = new int[hops.size()];
            long[] sum = new long[hops.size()];
            long[] ackSum = new long[hops.size()];
            int n = 0;
            for (FlowWaits.Hop h : hops) {
                int s = h.port() < 0 ? -1 : siteOf[portOffset[h.node()] + h.port()];
                if (s < 0) {
                    continue;
                }
                int i = 0;
                while (i < n && site[i] != s) {
                    i++;
                }
                if (i == n) {
                    site[n++] = s;
                }
                sum[i] += h.waitPs();
                if (h.acks()) {
                    ackSum[i] += h.waitPs();
                }
            }
            for (int i = 0; i < n; i++) {
                if (sum[i] > 0) {
                    at.get(site[i]).add(new FlowAt(flows, index, sum[i], ackSum[i]));
                    wait[site[i]] += sum[i];
                }
            }
        }
        List<Collision> out = new ArrayList<>();
        for (int s = 0; s < sites; s++) {
            if (wait[s] <= 0) {
                continue;
            }
            List<FlowAt> fs = at.get(s);
            fs.sort(Comparator.comparingLong(FlowAt::waitPs).reversed().thenComparingInt(FlowAt::id));
            List<Pair> pairs = new ArrayList<>();
            for (int i = 0; i < PAIRS && pairFlow[s * PAIRS + i] >= 0; i++) {
                pairs.add(new Pair(pairFlow[s * PAIRS + i], pairAhead[s * PAIRS + i], pairPackets[s * PAIRS + i]));
            }
            out.add(new Collision(siteNode[s], sitePort[s], sitePackets[s], wait[s], List.copyOf(fs),
                    idlePorts(siteNode[s], sitePort[s]), idleLeftOut[s], List.copyOf(pairs), pairsLeftOut[s],
                    starved(s), starvedLeftOut[s]));
        }
        out.sort(Comparator.comparingLong(Collision::waitPs).reversed().thenComparingInt(Collision::node)
                .thenComparingInt(Collision::port));
        return out;
    }

    // ---------------------------------------------------------------- words

    /** {@code leaf0 port 2 (towards spine0)}. */
    public String portName(int node, int port) {
        return topo.nodeName(node) + " port " + port + " (towards " + topo.nodeName(topo.peer(node, port).node())
                + ")";
    }

    /** {@code flow 3 (h0->h4)}, from the run's records when it has the flow. */
    static String flowName(Topology topo, List<FlowRecord> flows, int id) {
        return "flow " + flowLabel(topo, flows, id);
    }

    /** {@code 3 (h0->h4)}: a flow's id and its ends. */
    static String flowLabel(Topology topo, List<FlowRecord> flows, int id) {
        if (id >= 0 && id < flows.size() && flows.get(id).id() == id) {
            FlowRecord f = flows.get(id);
            return id + " (" + topo.nodeName(f.src()) + "->" + topo.nodeName(f.dst()) + ")";
        }
        return Integer.toString(id);
    }

    /**
     * The idle ports of a collision in words: {@code port 3 (towards spine1)}, or several with {@code or}. Every port
     * kept is named when none was left out; else the first {@link #IDLE_NAMED} and {@code another} for the two or more
     * not named (the last one kept and those left out), so that no single port hides behind the word.
     */
    private String idleWords(int node, List<Idle> idle, long leftOut) {
        List<String> names = new ArrayList<>();
        for (Idle i : idle.subList(0, idleNamed(idle.size(), leftOut))) {
            names.add("port " + i.port() + " (towards " + topo.nodeName(topo.peer(node, i.port()).node()) + ")");
        }
        if (leftOut > 0) {
            names.add("another");
        }
        return names.size() == 1 ? "its equal-cost " + names.get(0) + " was idle"
                : "one of its equal-cost ports was idle (" + join(names, "or") + ")";
    }

    private static String join(List<String> items, String last) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " " + last + " " + items.get(items.size() - 1);
    }

    /** Flows named one by one in a line; the rest are counted, unless only one is left: it is named too. */
    static final int FLOWS_NAMED = 3;

    /** How many of {@code n} flows a line names: all of them when at most one more than {@link #FLOWS_NAMED}. */
    public static int named(int n, int names) {
        return Numbers.shown(n, names);
    }

    /**
     * One collision in words, every clause from what the switch recorded: {@code leaf0 hashed flows 0 (h0->h2) and 1
     * (h1->h3) onto its port 2 (towards spine0) while its equal-cost port 3 (towards spine1) was idle: their packets
     * waited in that queue for 60.000 us (flow 0) and 59.000 us (flow 1), each behind packets of the other} (a flow
     * waited while at least one of its packets did). A flow whose only packet there was its last ACK, on its way back,
     * is named as that ({@code the last ACK of flow 13 (h13->h7)}): the switch hashed the ACK, not the data.
     */
    public String describe(Collision c, List<FlowRecord> flows) {
        List<String> named = new ArrayList<>();
        List<String> waited = new ArrayList<>();
        Set<Integer> waiting = new HashSet<>();
        boolean acks = false;
        for (FlowAt f : c.flows()) {
            waiting.add(f.id());
        }
        int shown = named(c.flows().size(), FLOWS_NAMED);
        for (int i = 0; i < shown; i++) {
            acks |= c.flows().get(i).lastAckWaitPs() > 0;
        }
        for (int i = 0; i < shown; i++) {
            FlowAt f = c.flows().get(i);
            int id = f.id();
            String label = flowLabel(topo, flows, id);
            if (f.lastAckOnly()) {
                named.add("the last ACK of flow " + label);
                waited.add(us(f.waitPs()) + " us (flow " + id + "'s last ACK)");
            } else if (f.lastAckWaitPs() > 0) {
                named.add("flow " + label + " (data and last ACK)");
                waited.add(us(f.waitPs()) + " us (flow " + id + ", data and last ACK)");
            } else {
                // Among ACKs every item says what it is ("flow 7 (h7->h15)"); among flows alone the list reads
                // "flows 0 (h0->h2) and 1 (h1->h3)".
                named.add(acks ? "flow " + label : label);
                waited.add(us(f.waitPs()) + " us (flow " + id + ")");
            }
        }
        int more = c.flows().size() - named.size();
        if (more > 0) {
            long rest = 0;
            for (int i = named.size(); i < c.flows().size(); i++) {
                rest += c.flows().get(i).waitPs();
            }
            named.add(more + (acks ? " more flows" : " more"));
            waited.add(String.format(Locale.ROOT, "%s us (the %d more, summed)", us(rest), more));
        }
        // Whose packets were ahead: every collided packet was behind another flow's, by the rule.
        Set<Integer> aheadOf = new TreeSet<>();
        for (Pair p : c.pairs()) {
            aheadOf.add(p.ahead());
        }
        String behind;
        if (c.pairsLeftOut() == 0 && waiting.size() == 2 && waiting.containsAll(aheadOf)) {
            behind = "each behind packets of the other";
        } else if (c.pairsLeftOut() == 0 && waiting.containsAll(aheadOf)) {
            behind = "each behind packets of another of them";
        } else if (c.pairsLeftOut() == 0) {
            List<String> names = new ArrayList<>();
            int aheadShown = named(aheadOf.size(), FLOWS_NAMED);
            for (int id : aheadOf) {
                if (names.size() == aheadShown) {
                    names.add((aheadOf.size() - aheadShown) + " more");
                    break;
                }
                names.add(flowLabel(topo, flows, id));
            }
            behind = "behind packets of " + (aheadOf.size() == 1 ? "flow " : "flows ") + join(names, "and");
        } else {
            behind = "each behind packets of another flow";
        }
        boolean one = c.flows().size() == 1;
        String what = acks ? join(named, "and") : (one ? "flow " : "flows ") + join(named, "and");
        String whose = one && c.flows().get(0).lastAckOnly() ? "it" : one ? "its packets" : "their packets";
        return String.format(Locale.ROOT, "%s hashed %s onto its port %d (towards %s) while %s: %s waited"
                + " in that queue for %s, %s", topo.nodeName(c.node()), what,
                c.port(), topo.nodeName(topo.peer(c.node(), c.port()).node()), idleWords(c.node(), c.idlePorts(),
                        c.idleLeftOut()), whose, join(waited, "and"), behind) + starvedWords(c, flows);
    }

    /**
     * The drops at the switch's other ports for lack of the buffer this queue held, as each drop carried it (the
     * queue holding the most of the full shared buffer at that moment): {@code ; while that queue held the most of
     * leaf1's full shared buffer, leaf1 dropped 107 packets of flow 2 (h6->h0) headed for its port 5 (towards spine1)
     * for lack of room (buffer_full)}; empty when none.
     */
    private String starvedWords(Collision c, List<FlowRecord> flows) {
        if (c.starved().isEmpty() && c.starvedLeftOut() == 0) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        int shown = named(c.starved().size(), FLOWS_NAMED);
        long rest = c.starvedLeftOut();
        for (int i = 0; i < c.starved().size(); i++) {
            Starved x = c.starved().get(i);
            if (i >= shown) {
                rest += x.packets();
                continue;
            }
            parts.add(String.format(Locale.ROOT, "%,d packet%s of %s headed for its port %d (towards %s)", x.packets(),
                    x.packets() == 1 ? "" : "s", flowName(topo, flows, x.flow()), x.port(),
                    topo.nodeName(topo.peer(c.node(), x.port()).node())));
        }
        if (rest > 0) {
            parts.add(String.format(Locale.ROOT, "%,d more of other flows or ports", rest));
        }
        String sw = topo.nodeName(c.node());
        return String.format(Locale.ROOT, "; while that queue held the most of %s's full shared buffer, %s dropped %s"
                + " for lack of room (buffer_full)", sw, sw, join(parts, "and"));
    }

    /** {@link #oneReceiverNote}, and when a listed queue starved other ports of buffer, that it did. */
    public static String oneReceiverNote(Collection<String> receivers, boolean starvedOthers) {
        String note = oneReceiverNote(receivers);
        return !starvedOthers ? note : note.replace(" (load-balancing.md)", ", though here the queue also filled its"
                + " switch's shared buffer, and packets of other flows headed for other ports were dropped for lack of it"
                + " (summary.json buffer_full_drops_elsewhere; load-balancing.md)");
    }

    /**
     * Share of its capacity the switch port towards a receiver carried, at least, while the flows that collided were
     * sending, for that port to be called their bottleneck.
     */
    public static final double BOTTLENECK_UTILISATION = 0.9;

    /**
     * The host every flow that waited at collision port {@code c} sent its data to, when that host's port was their
     * bottleneck, measured: the switch port towards it carried at least {@link #BOTTLENECK_UTILISATION} of its
     * capacity over the sampled time from the first of those flows' start to the last one's delivery (links.csv's
     * byte counter at the two sample times). Then spreading the flows over the idle equal-cost ports would not have
     * removed their queue, only moved it to that port. -1 otherwise: the flows went to several hosts, a last ACK
     * waited there (an ACK's queue is not its receiver's port: spreading it would remove its wait), the port had
     * room, or nothing was sampled.
     */
    public static int bottleneckReceiver(Collision c, Topology topo, TimeSeriesSampler series) {
        int to = -1;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (FlowAt f : c.flows()) {
            FlowRecord r = f.flow();
            if (f.lastAckWaitPs() > 0 || to >= 0 && r.dst() != to || r.startPs() < 0) {
                return -1;
            }
            to = r.dst();
            first = Math.min(first, r.startPs());
            last = Math.max(last, r.deliveredPs() >= 0 ? r.deliveredPs() : r.finishPs());
        }
        if (to < 0 || series == null || series.lastSamplePs() < 0 || topo.portCount(to) != 1
                || topo.isHost(topo.peer(to, 0).node())) {
            return -1;
        }
        long interval = series.intervalPs();
        long from = (first + interval - 1) / interval * interval;
        long until = Math.min(last < 0 ? series.lastSamplePs() : last, series.lastSamplePs()) / interval * interval;
        if (until <= from) {
            return -1;
        }
        Topology.End sw = topo.peer(to, 0);
        int s = sw.node() - topo.hostCount();
        long[] tx = series.txBytesAt(new int[] {s, s}, new int[] {sw.port(), sw.port()}, new long[] {from, until});
        long rate = topo.edgeAt(sw.node(), sw.port()).parameters().rateBps();
        double used = (tx[1] - tx[0]) * 8.0 / (rate * ((until - from) / 1e12));
        return used >= BOTTLENECK_UTILISATION ? to : -1;
    }

    /**
     * Said under the collisions when every collision port's flows sent their data to one receiver whose port was their
     * bottleneck ({@link #bottleneckReceiver}; the hosts' names, each once): the ECMP-versus-spraying sentence would
     * otherwise point at a remedy that does not help an incast.
     */
    public static String oneReceiverNote(Collection<String> receivers) {
        return "the data at each of these ports went to one receiver (" + String.join(", ", receivers) + ") whose"
                + " port carried at least " + Math.round(BOTTLENECK_UTILISATION * 100) + " % of its capacity while"
                + " they were sending (links.csv): its port stays their bottleneck, so spreading them over the idle"
                + " ports would move their queue there, not remove it (load-balancing.md)";
    }

    /** What ECMP does and what the other modes do instead, said once under the collisions. */
    public static final String MODES = "ECMP keeps every packet of a flow on its hashed port whatever the queues; spray"
            + " and adaptive choose per packet (adaptive the least-loaded port), flowlet per flowlet (load-balancing.md)";

    static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
