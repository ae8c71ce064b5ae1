package rocelab.observe.pfc;

import rocelab.observe.flow.FlowRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.topology.Topology;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;

/**
 * Records every PFC frame sent (XOFF, refresh, XON) in primitive arrays, with what caused each XOFF, and every wait
 * of a flow's packets behind a pause; writes pfc.csv.
 *
 * <p><b>The cause of an XOFF</b>, found when it is sent (XOFFs are rare, so walking the switch's queues then is
 * cheap): the ingress priority group that crossed its threshold (switch, ingress port, priority), its bytes and the
 * threshold, the flows whose packets it held (the three with the most bytes), and the egress port where most of
 * those bytes were queued. If that egress was itself paused, the XOFF's parent is the XOFF that paused it (named by
 * its send time, which the paused port kept) and its root is the parent's root, one hop further; otherwise that
 * egress is the root: the congestion point the pause started from. An RNIC's own XOFF (a slow receive pipeline) is
 * rooted at that RNIC. This is the pause tree, by identity.
 *
 * <p><b>Waits behind pauses</b>: a switch egress queue reports each data packet that sat in it while its class was
 * paused, an RNIC each QP that had data ready during a pause, both as an interval on that transmitter's paused-time
 * clock. Per flow and hop the intervals are merged (a flow's packets wait in FIFO order, so their intervals on one
 * clock only need a high-water mark): the flow's wait at a hop is the paused time during which at least one of its
 * packets (at an RNIC: its next packet) was held there. Each wait is attributed to the root of the XOFF that last
 * paused the transmitter, and split by whether that root is on the flow's own way (the flow's packets leave by the
 * root port, or the root is its receiver's RNIC).
 */
public final class PfcLog implements PfcProbe {
    private static final int TIME = 0;
    private static final int NODE = 1;
    private static final int PORT = 2;
    private static final int PRIO = 3;
    private static final int QUANTA = 4;
    private static final int BYTES = 5;
    private static final int THRESHOLD = 6;
    private static final int EGRESS = 7;
    private static final int EGRESS_BYTES = 8;
    private static final int PARENT = 9;
    private static final int ROOT_NODE = 10;
    private static final int ROOT_PORT = 11;
    private static final int DEPTH = 12;
    private static final int PREVIOUS = 13;
    private static final int TOP = 14;
    /** Flows named per XOFF (the ones with the most bytes in the priority group), by flow id. */
    public static final int TOP_FLOWS = 3;
    private static final int FIELDS = TOP + 2 * TOP_FLOWS;

    /** Hops kept per flow, and roots kept per flow; a flow with more merges the rest into the last one. */
    private static final int SLOTS = 8;
    private static final int ROOTS = 4;
    /**
     * A flow's hop slots come in chunks of this many: the first in its record, the second (a record of its own, of
     * which only the slots serve) at its fifth hop. A leaf-spine flow has at most four (its RNIC, two leaves, a
     * spine), so a 1,024-host all-to-all's million flows keep four slots each instead of eight.
     */
    private static final int CHUNK = SLOTS / 2;
    /*
     * A flow's record: everything a wait of the flow updates lies in these longs side by side, a few cache lines,
     * since a wait is reported for a flow at random among a million (at every pause end of an RNIC, one for each of
     * its ready QPs: 49 M in the first 3 ms of the 1,024-host all-to-all). Root keys first (searched at every wait),
     * then the first chunk's slots (key, clock, wait, off-path wait each), the roots' waits, their depth and
     * on-path flag (depth << 1 | onPath), and the record of the second chunk (-1 until needed).
     */
    private static final int R_ROOT_KEY = 0;
    private static final int R_SLOTS = R_ROOT_KEY + ROOTS;
    private static final int SLOT_WIDTH = 4;
    private static final int S_KEY = 0;
    private static final int S_CLOCK = 1;
    private static final int S_WAIT = 2;
    private static final int S_OFF_PATH = 3;
    private static final int R_ROOT_WAIT = R_SLOTS + CHUNK * SLOT_WIDTH;
    private static final int R_ROOT_META = R_ROOT_WAIT + ROOTS;
    private static final int R_SECOND = R_ROOT_META + ROOTS;
    private static final int REC = R_SECOND + 1;
    /** Records come in pages of this many, so the store grows without copying (a million flows: 232 MB). */
    private static final int PAGE_SHIFT = 12;
    private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;

    private final Network network;
    private final Topology topo;
    private long[] rows = new long[FIELDS * 1024];
    private int count;
    /** Per (node, port, priority): the group's latest XOFF row, -1 if none. */
    private final int[] lastXoff;
    private final int[] portOffset;
    private final int[] peerNode;
    private final int[] peerPort;
    // Scratch for the walk at an XOFF.
    /** The capture of this log's own probe (one simulator) and its record. */
    private final PfcCapture own;
    private final long[] ownRecord = new long[PfcCapture.WIDTH];
    private final List<PfcCapture> captures = new ArrayList<>();

    // Per-flow waits (by message cookie: the flow id): flowBase[flow] = its record, or -1 before its first wait.
    private int[] flowBase = new int[64];
    private long[][] pages = new long[16][];
    private int records;

    public PfcLog(Network network) {
        this.network = network;
        this.topo = network.topology();
        portOffset = new int[topo.nodeCount() + 1];
        for (int n = 0; n < topo.nodeCount(); n++) {
            portOffset[n + 1] = portOffset[n] + topo.portCount(n);
        }
        int ports = portOffset[topo.nodeCount()];
        lastXoff = new int[ports * 8];
        Arrays.fill(lastXoff, -1);
        peerNode = new int[ports];
        peerPort = new int[ports];
        for (int n = 0; n < topo.nodeCount(); n++) {
            for (int p = 0; p < topo.portCount(n); p++) {
                Topology.End far = topo.peer(n, p);
                peerNode[portOffset[n] + p] = far.node();
                peerPort[portOffset[n] + p] = far.port();
            }
        }
        this.own = new PfcCapture(network, null);
        // The causes of XOFFs visit the pausing group's packets only (a no-op on lossy fabrics).
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).linkQueuesByIngress();
        }
        Arrays.fill(flowBase, -1);
    }

    private int group(int node, int port, int priority) {
        return (portOffset[node] + port) * 8 + priority;
    }

    @Override
    public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
            long thresholdBytes) {
        own.capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, ownRecord, 0);
        link(ownRecord, 0);
    }

    /**
     * A probe for the devices of one partition of a parallel run: it notes, at the moment, what it can see of its
     * own devices (the queues behind an XOFF), and the log links the notes into rows after each window
     * ({@link #replayCaptures}), in the order of the events that wrote them, which is one simulator's order.
     */
    public PfcProbe forPartition(rocelab.engine.Simulator partition) {
        PfcCapture c = new PfcCapture(network, partition);
        captures.add(c);
        return c;
    }

    /** Links every partition's notes of the window into rows, in one simulator's order, and empties them. */
    public void replayCaptures() {
        PfcCapture.replay(captures, this);
    }

    /** Adds the row a capture describes ({@link PfcCapture#capture}) and finds its parent and root. */
    void link(long[] rec, int at) {
        if ((count + 1) * FIELDS > rows.length) {
            rows = Arrays.copyOf(rows, rows.length * 2);
        }
        int r = count++;
        int i = r * FIELDS;
        System.arraycopy(rec, at + PfcCapture.ROW, rows, i, FIELDS);
        if (rows[i + QUANTA] == 0) {
            return;
        }
        int node = (int) rows[i + NODE];
        int priority = (int) rows[i + PRIO];
        int g = group(node, (int) rows[i + PORT], priority);
        rows[i + PREVIOUS] = lastXoff[g];
        lastXoff[g] = r;
        if (rows[i + ROOT_NODE] >= 0) {
            return; // the capture found the root at its own device
        }
        int egress = (int) rows[i + EGRESS];
        int pp = portOffset[node] + egress;
        int parent = find(peerNode[pp], peerPort[pp], priority, rec[at + PfcCapture.XOFF_SENT]);
        if (parent >= 0) {
            rows[i + PARENT] = parent;
            rows[i + ROOT_NODE] = rows[parent * FIELDS + ROOT_NODE];
            rows[i + ROOT_PORT] = rows[parent * FIELDS + ROOT_PORT];
            rows[i + DEPTH] = rows[parent * FIELDS + DEPTH] + 1;
        } else {
            // Paused by a frame no log saw (an RNIC's pause storm): the pausing device is the root.
            rows[i + ROOT_NODE] = peerNode[pp];
            rows[i + ROOT_PORT] = topo.isHost(peerNode[pp]) ? 0 : -1;
            rows[i + DEPTH] = 1;
        }
    }

    static final int FIELD_COUNT = FIELDS;
    static final int F_TIME = TIME;
    static final int F_NODE = NODE;
    static final int F_PORT = PORT;
    static final int F_PRIO = PRIO;
    static final int F_QUANTA = QUANTA;
    static final int F_BYTES = BYTES;
    static final int F_THRESHOLD = THRESHOLD;
    static final int F_EGRESS = EGRESS;
    static final int F_EGRESS_BYTES = EGRESS_BYTES;
    static final int F_ROOT_NODE = ROOT_NODE;
    static final int F_ROOT_PORT = ROOT_PORT;
    static final int F_DEPTH = DEPTH;
    static final int F_TOP = TOP;

    /** The row of the XOFF that (node, port) sent for {@code priority} at {@code sentPs}, or -1. */
    private int find(int node, int port, int priority, long sentPs) {
        if (sentPs < 0) {
            return -1;
        }
        int r = lastXoff[group(node, port, priority)];
        while (r >= 0 && rows[r * FIELDS + TIME] > sentPs) {
            r = (int) rows[r * FIELDS + PREVIOUS];
        }
        return r >= 0 && rows[r * FIELDS + TIME] == sentPs ? r : -1;
    }

    @Override
    public void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            long fromClockPs, long toClockPs, long xoffSentPs) {
        long flow = flowCookie;
        if (flow < 0 || flow > Integer.MAX_VALUE) {
            return; // a duplicate of a packet already acknowledged: no flow waits for it any more
        }
        int rec = record((int) flow);
        long[] page = pages[rec >>> PAGE_SHIFT];
        int b = (rec & PAGE_MASK) * REC;
        long key = key(node, port);
        // The hop's slot: the first with its key or empty, in the first chunk, then the second.
        long[] sp = page;
        int s = b + R_SLOTS;
        for (int j = 0; j < SLOTS - 1 && sp[s + S_KEY] != key && sp[s + S_KEY] != -1; j++) {
            if (j + 1 == CHUNK) { // the flow's fifth hop: its second chunk, empty until now
                int second = (int) page[b + R_SECOND];
                if (second < 0) {
                    second = newRecord();
                    page = pages[rec >>> PAGE_SHIFT]; // (the page table may have grown, the page has not moved)
                    page[b + R_SECOND] = second;
                }
                sp = pages[second >>> PAGE_SHIFT];
                s = (second & PAGE_MASK) * REC + R_SLOTS;
            } else {
                s += SLOT_WIDTH;
            }
        }
        if (sp[s + S_KEY] != key) {
            if (sp[s + S_KEY] == -1) {
                sp[s + S_KEY] = key;
            } else {
                // More hops than slots: the last slot takes the rest, on a fresh clock.
                sp[s + S_CLOCK] = Long.MIN_VALUE;
            }
        }
        long added = toClockPs - Math.max(fromClockPs, sp[s + S_CLOCK]);
        if (added <= 0) {
            return;
        }
        sp[s + S_CLOCK] = Math.max(sp[s + S_CLOCK], toClockPs);
        sp[s + S_WAIT] += added;
        int pp = portOffset[node] + port;
        int pauser = find(peerNode[pp], peerPort[pp], priority, xoffSentPs);
        long root;
        int depth;
        if (pauser >= 0) {
            root = key((int) rows[pauser * FIELDS + ROOT_NODE], (int) rows[pauser * FIELDS + ROOT_PORT]);
            depth = (int) rows[pauser * FIELDS + DEPTH] + 1;
        } else {
            root = key(peerNode[pp], topo.isHost(peerNode[pp]) ? 0 : -1);
            depth = 1;
        }
        int r = 0;
        while (r < ROOTS - 1 && page[b + R_ROOT_KEY + r] != root && page[b + R_ROOT_KEY + r] != Long.MIN_VALUE) {
            r++;
        }
        if (page[b + R_ROOT_KEY + r] != root) {
            page[b + R_ROOT_KEY + r] = root;
            page[b + R_ROOT_META + r] = (long) depth << 1 | (onPath(queuePair, root) ? 1 : 0);
        }
        page[b + R_ROOT_WAIT + r] += added;
        if ((page[b + R_ROOT_META + r] & 1) == 0) {
            sp[s + S_OFF_PATH] += added;
        }
    }

    private static long key(int node, int port) {
        return (long) node << 20 | (port & 0xFFFFF);
    }

    private static int keyNode(long key) {
        return (int) (key >> 20);
    }

    private static int keyPort(long key) {
        int p = (int) (key & 0xFFFFF);
        return p == 0xFFFFF ? -1 : p;
    }

    /** Whether the congestion point {@code root} is on the flow's own way: it leaves by that port, or it is its receiver. */
    private boolean onPath(int queuePair, long root) {
        QueuePair qp = network.queuePairs().get(queuePair);
        int node = keyNode(root);
        int port = keyPort(root);
        if (topo.isHost(node)) {
            return qp.destinationHost() == node;
        }
        if (port < 0) {
            return true; // no port to tell: do not call the flow a victim of it
        }
        return network.switchAt(node - topo.hostCount()).forwardsThrough(qp.sourceHost(), qp.destinationHost(),
                qp.entropy(), port);
    }

    /** The record of {@code flow}'s waits, made at its first wait. */
    private int record(int flow) {
        if (flow >= flowBase.length) {
            int old = flowBase.length;
            flowBase = Arrays.copyOf(flowBase, Math.max(flow + 1, 2 * old));
            Arrays.fill(flowBase, old, flowBase.length, -1);
        }
        int rec = flowBase[flow];
        if (rec < 0) {
            rec = newRecord();
            flowBase[flow] = rec;
        }
        return rec;
    }

    /** An empty record: no root, no hop (keys -1, fresh clocks), no second chunk. */
    private int newRecord() {
        int rec = records++;
        int p = rec >>> PAGE_SHIFT;
        if (p == pages.length) {
            pages = Arrays.copyOf(pages, 2 * p);
        }
        if (pages[p] == null) {
            pages[p] = new long[REC << PAGE_SHIFT];
        }
        long[] page = pages[p];
        int b = (rec & PAGE_MASK) * REC;
        Arrays.fill(page, b + R_ROOT_KEY, b + R_ROOT_KEY + ROOTS, Long.MIN_VALUE);
        for (int j = 0; j < CHUNK; j++) {
            page[b + R_SLOTS + j * SLOT_WIDTH + S_KEY] = -1;
            page[b + R_SLOTS + j * SLOT_WIDTH + S_CLOCK] = Long.MIN_VALUE;
        }
        page[b + R_SECOND] = -1;
        return rec;
    }

    /**
     * Calls {@code visit} with the page and offset of each of the flow's hop slots in use, in the order first seen;
     * returns the sum of what it returns.
     */
    private long overHops(int flow, SlotVisit visit) {
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return 0;
        }
        long sum = 0;
        int rec = flowBase[flow];
        for (int chunk = 0; chunk < SLOTS / CHUNK && rec >= 0; chunk++) {
            long[] page = pages[rec >>> PAGE_SHIFT];
            int b = (rec & PAGE_MASK) * REC;
            for (int j = 0; j < CHUNK; j++) {
                int s = b + R_SLOTS + j * SLOT_WIDTH;
                if (page[s + S_KEY] == -1) {
                    return sum;
                }
                sum += visit.at(page, s);
            }
            rec = (int) page[b + R_SECOND];
        }
        return sum;
    }

    private interface SlotVisit {
        long at(long[] page, int slot);
    }

    public int frames() {
        return count;
    }

    /**
     * Field f of frame i, for the report built from memory: 0 time (ps), 1 node, 2 port, 3 priority, 4 quanta (0:
     * XON), 5 priority-group bytes, 6 the XOFF threshold in force when it was sent (bytes).
     */
    public long field(int i, int f) {
        if (f < TIME || f > THRESHOLD) {
            throw new IllegalArgumentException("field " + f + " is not one of 0.." + THRESHOLD);
        }
        return rows[i * FIELDS + f];
    }

    // ---------------------------------------------------------------- what a flow waited behind

    /** Where a flow waited behind pauses: a transmitter (switch egress port, or the sending RNIC with port 0). */
    public record Hop(int node, int port, long waitPs, long offPathWaitPs) {}

    /**
     * A congestion point that pauses a flow waited behind were rooted at: a switch egress port (port -1: the
     * switch's buffer, no single port) or an RNIC's receive buffer (port 0); {@code hops} is how many pauses away
     * from it the flow waited; {@code onPath}: the flow's own packets leave by that port, or it is their receiver.
     */
    public record Root(int node, int port, int hops, long waitPs, boolean onPath) {}

    /**
     * The flow's waits at each hop, in the order first seen. Flows are the cookies of the QP messages (the workload
     * driver posts flow i with cookie i, so these are flow ids).
     */
    public List<Hop> waits(int flow) {
        List<Hop> out = new ArrayList<>();
        overHops(flow, (page, s) -> {
            out.add(new Hop(keyNode(page[s + S_KEY]), keyPort(page[s + S_KEY]), page[s + S_WAIT],
                    page[s + S_OFF_PATH]));
            return 0;
        });
        return out;
    }

    /** The roots of the pauses the flow waited behind, most waited first. */
    public List<Root> roots(int flow) {
        List<Root> out = new ArrayList<>();
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return out;
        }
        int rec = flowBase[flow];
        long[] page = pages[rec >>> PAGE_SHIFT];
        int b = (rec & PAGE_MASK) * REC;
        for (int r = 0; r < ROOTS && page[b + R_ROOT_KEY + r] != Long.MIN_VALUE; r++) {
            long k = page[b + R_ROOT_KEY + r];
            long meta = page[b + R_ROOT_META + r];
            out.add(new Root(keyNode(k), keyPort(k), (int) (meta >> 1), page[b + R_ROOT_WAIT + r], (meta & 1) != 0));
        }
        out.sort(java.util.Comparator.comparingLong(Root::waitPs).reversed());
        return out;
    }

    /** Sum over its hops of the time the flow's packets waited behind pauses (see the class comment). */
    public long pausedWaitPs(int flow) {
        return sumOverHops(flow, false);
    }

    /** The part of {@link #pausedWaitPs} behind pauses rooted off the flow's own way. */
    public long offPathWaitPs(int flow) {
        return sumOverHops(flow, true);
    }

    /**
     * The flow's waits at its hops summed, as {@link #waits} lists them, without making the list: flows.csv and the
     * victims ask this of every flow (a million at 1,024 hosts).
     */
    private long sumOverHops(int flow, boolean offPathOnly) {
        return overHops(flow, offPathOnly ? WAIT_OFF_PATH : WAIT);
    }

    private static final SlotVisit WAIT = (page, s) -> page[s + S_WAIT];
    private static final SlotVisit WAIT_OFF_PATH = (page, s) -> page[s + S_OFF_PATH];

    private List<FlowRecord> victimsOf;
    private long victimsEndPs;
    private List<PfcVictims.Victim> victims;

    /**
     * {@link PfcVictims#find} for these flows and this end, made once and shared: flows.csv, summary.json, the report
     * and the printed summary all ask for them, the first three at the same time on three threads, and at a million
     * flows each list (a record and its hops per victim) is hundreds of megabytes. Unmodifiable.
     */
    public synchronized List<PfcVictims.Victim> victims(List<FlowRecord> flows, long endPs) {
        if (victims == null || victimsOf != flows || victimsEndPs != endPs) {
            victims = java.util.Collections.unmodifiableList(PfcVictims.find(this, flows, endPs));
            victimsOf = flows;
            victimsEndPs = endPs;
        }
        return victims;
    }

    // ---------------------------------------------------------------- the XOFFs and their causes

    /** One XOFF (or refresh) and its recorded cause; the flows (ids) with the most bytes in the group, and those bytes. */
    public record Xoff(long timePs, int node, int port, int priority, long groupBytes, long thresholdBytes,
            int egressPort, long egressBytes, int rootNode, int rootPort, int depth, int[] topFlows, long[] topBytes) {}

    /** The XOFF (node, port) sent for {@code priority} at {@code sentPs}, or null: identity, not time proximity. */
    public Xoff xoff(int node, int port, int priority, long sentPs) {
        int r = find(node, port, priority, sentPs);
        return r < 0 ? null : xoffAt(r);
    }

    private Xoff xoffAt(int r) {
        int i = r * FIELDS;
        int n = 0;
        while (n < TOP_FLOWS && rows[i + TOP + 2 * n] >= 0) {
            n++;
        }
        int[] qps = new int[n];
        long[] bytes = new long[n];
        for (int k = 0; k < n; k++) {
            qps[k] = (int) rows[i + TOP + 2 * k];
            bytes[k] = rows[i + TOP + 2 * k + 1];
        }
        return new Xoff(rows[i + TIME], (int) rows[i + NODE], (int) rows[i + PORT], (int) rows[i + PRIO],
                rows[i + BYTES], rows[i + THRESHOLD], (int) rows[i + EGRESS], rows[i + EGRESS_BYTES],
                (int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT], (int) rows[i + DEPTH], qps, bytes);
    }

    /** The words for a congestion point: {@code leaf0 port 2 (towards h0)}, {@code h0's receive buffer}. */
    public String rootName(int node, int port) {
        if (topo.isHost(node)) {
            return topo.nodeName(node) + "'s receive buffer";
        }
        if (port < 0) {
            return topo.nodeName(node) + "'s buffer";
        }
        return topo.nodeName(node) + " port " + port + " (towards " + topo.nodeName(topo.peer(node, port).node())
                + ")";
    }

    /** One link of the pause propagation tree: {@code device} first paused {@code peer} at a time. */
    public record PauseEdge(long firstXoffPs, int device, int port, int peer, int priority, int hop, long pausedPs,
            int rootNode, int rootPort) {}

    /**
     * The pause propagation tree: for every (device, port, priority) that sent XOFF, the first time it did, how many
     * pause hops its first XOFF was from the congestion point it was rooted at (0: the device's own egress was
     * congested; n+1: that egress was paused by an XOFF n hops from its root), that root, and how long the paused
     * peer stayed paused in all. Ordered by time.
     */
    public List<PauseEdge> propagation(long nowPs) {
        List<PauseEdge> out = new ArrayList<>();
        boolean[] seen = new boolean[lastXoff.length];
        for (int r = 0; r < count; r++) {
            int i = r * FIELDS;
            if (rows[i + QUANTA] == 0) {
                continue;
            }
            int node = (int) rows[i + NODE];
            int port = (int) rows[i + PORT];
            int prio = (int) rows[i + PRIO];
            int g = group(node, port, prio);
            if (seen[g]) {
                continue;
            }
            seen[g] = true;
            var far = topo.peer(node, port);
            long paused = topo.isHost(far.node())
                    ? network.nic(far.node()).counter(NicCounter.RX_PAUSE_DURATION_PS)
                    : network.switchAt(far.node() - topo.hostCount()).port(far.port()).pausedPs(prio, nowPs);
            out.add(new PauseEdge(rows[i + TIME], node, port, far.node(), prio, (int) rows[i + DEPTH], paused,
                    (int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT]));
        }
        out.sort(java.util.Comparator.comparingLong(PauseEdge::firstXoffPs).thenComparingInt(PauseEdge::device)
                .thenComparingInt(PauseEdge::port));
        return out;
    }

    /**
     * {@code time_us,device,port,peer,priority,kind,quanta,pause_us,ingress_bytes,threshold_bytes,egress_port,
     * root,root_hops,top_flows}: for an XOFF, the threshold the group crossed, the port where most of its bytes
     * were queued, the congestion point it is rooted at, and the flows with the most bytes in it
     * ({@code flow_id:bytes}).
     */
    public String csv() {
        CsvTable t = new CsvTable(List.of("time_us", "device", "port", "peer", "priority", "kind", "quanta",
                "pause_us", "ingress_bytes", "threshold_bytes", "egress_port", "root", "root_hops", "top_flows"));
        for (int r = 0; r < count; r++) {
            int i = r * FIELDS;
            int node = (int) rows[i + NODE];
            int port = (int) rows[i + PORT];
            int quanta = (int) rows[i + QUANTA];
            long rate = topo.edgeAt(node, port).parameters().rateBps();
            boolean xoff = quanta != 0;
            StringBuilder top = new StringBuilder();
            for (int k = 0; xoff && k < TOP_FLOWS && rows[i + TOP + 2 * k] >= 0; k++) {
                top.append(k == 0 ? "" : " ").append(rows[i + TOP + 2 * k]).append(':').append(rows[i + TOP + 2 * k + 1]);
            }
            t.row(Numbers.micros(rows[i]), topo.nodeName(node), port, topo.nodeName(topo.peer(node, port).node()),
                    rows[i + PRIO], xoff ? "XOFF" : "XON", quanta,
                    Numbers.micros(Headroom.pauseDurationPs(quanta, rate)), rows[i + BYTES], rows[i + THRESHOLD],
                    xoff && rows[i + EGRESS] >= 0 ? Long.toString(rows[i + EGRESS]) : "",
                    xoff ? rootName((int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT]) : "",
                    xoff ? Long.toString(rows[i + DEPTH]) : "", top.toString());
        }
        return t.toString();
    }
}
