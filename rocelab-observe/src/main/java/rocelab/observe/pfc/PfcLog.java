package rocelab.observe.pfc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.switching.Forwarding;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.CsvTable;
import rocelab.observe.output.Numbers;
import rocelab.observe.victim.EventNotes;
import rocelab.observe.victim.FlowPaths;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

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
 * <p><b>Cycles of pauses</b>: every transmitter reports when a pause takes hold of it and when it is lifted
 * ({@link #onPauseInForce}), so the log knows which XOFF holds which transmitter. Following the pauses in force from a
 * group (its egress, the group whose XOFF holds that egress, that group's egress, ...) back to a group already passed
 * is a cycle: an XOFF whose walk meets one is rooted at it ({@link #ROOT_PAUSE_CYCLE}), and an XOFF rooted at a
 * congestion point that a cycle comes to hold keeps its root while the waits behind it from then on go to the cycle.
 * The log keeps when each cycle held ({@link #cycleSpells}).
 *
 * <p><b>Waits behind pauses</b>: a switch egress queue reports each data packet that sat in it while its class was
 * paused, an RNIC each QP that had data ready during a pause, both as an interval on that transmitter's paused-time
 * clock. The ACK of a message's last packet is reported too (at a switch egress and in the receiver's RNIC), for
 * that packet's flow: its sender sees the flow complete only when that ACK arrives. (An earlier ACK delays the sender
 * only when its window is full, which is not followed, so it is not counted.) The hops of its way back are hops of
 * their own ({@link Hop#acks}). Per flow and hop the intervals are merged (a flow's packets wait in FIFO
 * order, so their intervals on one clock only need a high-water mark): the flow's wait at a hop is the paused time
 * during which at least one of its packets (at an RNIC: its next packet) was held there. Each wait is attributed to
 * the root of the XOFF that last paused the transmitter, unless the flow's own port at that switch held at least half
 * as many of the group's bytes as the port holding most: then to that port, or along the flow's way through the XOFF
 * that paused it ({@link #ownCause}); and split by whether that root is on the flow's own round
 * trip (its data or its ACKs leave by the root port, or the root is its receiver's or its sender's RNIC); a pause
 * rooted anywhere else makes the flow a victim.
 */
public final class PfcLog implements PfcProbe {
    /**
     * Roots kept per flow by its waits ({@link FlowWaits}; the last slot takes the waits behind the roots beyond the
     * others, named by none): eight, or four in a run of more than {@link #MANY_FLOWS} flows. The flows of a
     * 1,024-host all-to-all (a million) meet eight and more roots each, and eight slots were 96 MB more of its heap
     * than four.
     */
    public static final int ROOTS_PER_FLOW = 8;
    public static final int ROOTS_PER_FLOW_OF_MANY = 4;
    public static final int MANY_FLOWS = 1 << 16;
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
    /** Why the device sent the frame ({@link PfcReason} ordinal), and its shared pool's use and size then (-1: RNIC). */
    private static final int REASON = 14;
    private static final int POOL_USED = 15;
    private static final int POOL_BYTES = 16;
    private static final int TOP = 17;
    /** Flows named per XOFF (the ones with the most bytes in the priority group), by flow id. */
    public static final int TOP_FLOWS = 3;
    /** What the root is ({@link #ROOT_CONGESTION_POINT} or {@link #ROOT_PAUSE_CYCLE}). */
    private static final int ROOT_KIND = TOP + 2 * TOP_FLOWS;
    /** When the XOFF took hold of the transmitter it paused (-1: not yet), and that transmitter's paused clock then. */
    private static final int HELD_AT = ROOT_KIND + 1;
    private static final int HELD_CLOCK = HELD_AT + 1;
    /**
     * For an XOFF rooted at a congestion point that was still in force when a cycle of pauses formed which its group
     * waits on: when (-1: never), the cycle, and how many pause hops from it the group is (0: on it). Waits behind it
     * from then on are the cycle's.
     */
    private static final int CYCLE_SINCE = HELD_CLOCK + 1;
    private static final int CYCLE_ID = CYCLE_SINCE + 1;
    private static final int CYCLE_DEPTH = CYCLE_ID + 1;
    /**
     * The group's bytes by egress port ({@link PfcCapture}): how many ports held any, then the {@link #SHARES} holding
     * most (most first; {@link #share} packs port and bytes, -1: none), and per entry the row of the XOFF that paused
     * that port when this one was sent ({@link #UNPAUSED}: none; {@link #PAUSED_UNSEEN}: a frame no log saw).
     */
    private static final int SHARED_PORTS = CYCLE_DEPTH + 1;
    private static final int SHARE = SHARED_PORTS + 1;
    /** Egress ports kept per XOFF with their bytes, most first. */
    public static final int SHARES = 8;
    private static final int SHARE_PARENT = SHARE + SHARES;
    /**
     * 1 when the egress holding most was not paused when this XOFF was sent but still queued the backlog its last
     * pause held back, so that pause is the parent ({@link PfcCapture}); otherwise -1.
     */
    private static final int EGRESS_BACKLOG = SHARE_PARENT + SHARES;
    private static final int FIELDS = EGRESS_BACKLOG + 1;
    private static final long UNPAUSED = -1;
    private static final long PAUSED_UNSEEN = -2;
    /**
     * A flow's wait behind an XOFF is its own when a port on its way held at least this share of what the port holding
     * most held: 1/2 (see {@link #onPausedWait}).
     */
    public static final int OWN_SHARE_DIVISOR = 2;
    /**
     * Root kinds: a congestion point (a switch egress, an RNIC's receive buffer or pause storm, named by node and
     * port), or a cycle of pauses (named by its index in {@link #cycles}, port -1): the pauses in force, followed from
     * the group's egress to the group that paused it, that group's egress and on, came back to a group already passed.
     */
    public static final int ROOT_CONGESTION_POINT = 0;
    public static final int ROOT_PAUSE_CYCLE = 1;

    private final Network network;
    /**
     * Each switch's choice of port, read by the waits' walks ({@link #ownShare}) apart from the switch objects, which
     * the partitions write at every frame while this log replays a window on a thread of its own. A route change
     * (a link event) makes a new array, so that the ones before it stay as they were.
     */
    private Forwarding[] forwarding;
    /**
     * Every {@link #forwarding} the run had, and from when (the first from the start): a wait told after the run
     * ({@link #waitCause}) is walked along the routes that stood when it ended, not those the run ended with.
     */
    private final List<Forwarding[]> routes = new ArrayList<>();
    private long[] routesSincePs = new long[2];
    private final Topology topo;
    /**
     * The XOFFs' rows, {@link #FIELDS} longs each, numbered in the order sent (the rows the causes, roots and waits
     * name), in blocks of {@link #BLOCK_ROWS} made as they fill and never copied: one array doubled (or grown by a
     * quarter) needed the old rows and the new at once, and a 1,024-host all-to-all's 305,000 frames (105 MB) ran out
     * of heap there, twice, with the run's live objects beside them.
     */
    private long[][] blocks = new long[8][];
    private static final int BLOCK_SHIFT = 10;
    private static final int BLOCK_ROWS = 1 << BLOCK_SHIFT;
    private static final int BLOCK_MASK = BLOCK_ROWS - 1;
    /** XOFF rows. */
    private int count;
    /**
     * Every frame sent, XON or XOFF, in the order sent: its fields {@link #TIME} to {@link #THRESHOLD}, then its
     * reason with its XOFF row (-1 for an XON) in one long ({@link #FRAME_WIDTH} longs, in blocks as the rows). An XON
     * has nothing else to keep: half of a large all-to-all's frames are XONs, and a full row each (43 longs) was 60 MB
     * of the 1,024-host run's heap.
     */
    private long[][] frameBlocks = new long[8][];
    private static final int FRAME_REASON = THRESHOLD + 1;
    private static final int FRAME_WIDTH = FRAME_REASON + 1;
    private int frames;
    /** Per (node, port, priority): the group's latest XOFF row, -1 if none. */
    private final int[] lastXoff;
    /**
     * Per group, the XOFF {@link #find} found last (-1: none): the packets queued behind one pause each ask for it as
     * they leave, and a walk back through the group's refreshes to it was a cache miss a step (a 1,024-host
     * all-to-all spent 4.7 % of its loop there). Forgotten when the group sends another XOFF, which could be found
     * instead for the same send time. One int, checked against the row's own time: readers of a finished run's log on
     * several threads may each write it.
     */
    private final int[] foundRow;
    private final int[] portOffset;
    private final int[] peerNode;
    private final int[] peerPort;
    // Scratch for the walk at an XOFF.
    /** The capture of this log's own probe (one simulator) and its record. */
    private final PfcCapture own;
    private final long[] ownRecord = new long[PfcCapture.WIDTH];
    /** The notes of every partition's capture, linked after each window. */
    private final List<EventNotes> captures = new ArrayList<>();
    /** Every flow's waits behind pauses, each at the root of the XOFF that paused the transmitter. */
    private final FlowWaits flowWaits;
    /**
     * The cycles of pauses found, each as its egress ports in the order each waits on the next ({@code node, port}
     * pairs, starting at the lowest node and port) and its priority last; and each one's index by that list.
     */
    private final List<int[]> cycles = new ArrayList<>();
    private final Map<List<Integer>, Integer> cycleIndex = new HashMap<>();
    /**
     * Per cycle: since when it holds (all its ports paused, found closed: {@link #markCycle}), -1 while it does not,
     * and the spells it held before, {@code from, to} pairs: a spell ends when a pause on one of its ports is lifted.
     */
    private final List<long[]> cycleSpells = new ArrayList<>();
    private long[] cycleClosedSincePs = new long[0];
    /**
     * Per (node, port, priority) of a transmitter (a switch egress, an RNIC port): the send time of the XOFF that
     * holds it now, -1 if none.
     */
    private final long[] inForce;
    // Scratch for the walk of the pauses in force: per group, the walk that last saw it and where; the ports passed.
    private final int[] seenAt;
    private final int[] seenPos;
    private int walk;
    private final int[] walkNode = new int[256];
    private final int[] walkEgress = new int[256];

    /** A log for a run of few flows (eight roots kept per flow). */
    public PfcLog(Network network) {
        this(network, 0);
    }

    /** A log for a run of {@code flows} flows: more than {@link #MANY_FLOWS} keep four roots each, not eight. */
    public PfcLog(Network network, int flows) {
        this.network = network;
        this.topo = network.topology();
        portOffset = new int[topo.nodeCount() + 1];
        for (int n = 0; n < topo.nodeCount(); n++) {
            portOffset[n + 1] = portOffset[n] + topo.portCount(n);
        }
        int ports = portOffset[topo.nodeCount()];
        lastXoff = new int[ports * 8];
        Arrays.fill(lastXoff, -1);
        foundRow = new int[ports * 8];
        Arrays.fill(foundRow, -1);
        inForce = new long[ports * 8];
        Arrays.fill(inForce, -1);
        seenAt = new int[ports * 8];
        seenPos = new int[ports * 8];
        peerNode = new int[ports];
        peerPort = new int[ports];
        for (int n = 0; n < topo.nodeCount(); n++) {
            for (int p = 0; p < topo.portCount(n); p++) {
                Topology.End far = topo.peer(n, p);
                peerNode[portOffset[n] + p] = far.node();
                peerPort[portOffset[n] + p] = far.port();
            }
        }
        readForwarding(Long.MIN_VALUE);
        network.routeListener(this::readForwarding);
        this.own = new PfcCapture(network, null);
        // The causes of XOFFs visit the pausing group's packets only (a no-op on lossy fabrics), linked from a switch's
        // first XOFF on.
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).linkQueuesByIngressAtFirstXoff();
        }
        FlowPaths paths = new FlowPaths(network);
        this.flowWaits = new FlowWaits((qp, kind, node, port) -> FlowWaits.Way.of(kind == ROOT_PAUSE_CYCLE
                ? cycleOnRoundTrip(paths, qp, node) : paths.onRoundTrip(qp, node, port)),
                flows > MANY_FLOWS ? ROOTS_PER_FLOW_OF_MANY : ROOTS_PER_FLOW);
        flowWaits.expectFlows(flows);
        network.routeListener(nowPs -> flowWaits.routesChanged());
    }

    private int group(int node, int port, int priority) {
        return (portOffset[node] + port) * 8 + priority;
    }

    @Override
    public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
            long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {
        own.capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes, poolBytes,
                ownRecord, 0);
        link(ownRecord, 0);
    }

    /** The partitions' notes all replayed (the run is over): their arrays let go, for the outputs. */
    public void trimNotes() {
        EventNotes.trim(captures);
    }

    /**
     * A probe for the devices of one partition of a parallel run: it notes, at the moment, what it can see of its
     * own devices (the queues behind an XOFF), and the log links the notes into rows after each window
     * ({@link #replayCaptures}), in the order of the events that wrote them, which is one simulator's order.
     */
    public PfcProbe forPartition(Simulator partition) {
        PfcCapture c = new PfcCapture(network, partition);
        captures.add(c.notes());
        return c;
    }

    /**
     * Links every partition's notes of the window of {@code parity} (the one that ended) into rows, in one
     * simulator's order, and empties them. In a parallel run on a thread of its own, while the next window runs.
     */
    public void replayCaptures(int parity) {
        PfcCapture.replay(captures, parity, this);
    }

    /** Adds the row a capture describes ({@link PfcCapture#capture}) and finds its parent and root. */
    void link(long[] rec, int at) {
        int f = frames++;
        frameBlocks = withBlock(frameBlocks, f >>> BLOCK_SHIFT, FRAME_WIDTH);
        long[] frame = frameBlocks[f >>> BLOCK_SHIFT];
        int fi = (f & BLOCK_MASK) * FRAME_WIDTH;
        System.arraycopy(rec, at + PfcCapture.ROW, frame, fi, THRESHOLD + 1);
        boolean xon = rec[at + PfcCapture.ROW + QUANTA] == 0;
        frame[fi + FRAME_REASON] = rec[at + PfcCapture.ROW + REASON] | (long) (xon ? -1 : count) << 32;
        if (xon) {
            return;
        }
        int r = count++;
        blocks = withBlock(blocks, r >>> BLOCK_SHIFT, FIELDS);
        long[] rows = blocks[r >>> BLOCK_SHIFT];
        int i = offset(r);
        System.arraycopy(rec, at + PfcCapture.ROW, rows, i, FIELDS);
        rows[i + ROOT_KIND] = ROOT_CONGESTION_POINT;
        int node = (int) rows[i + NODE];
        int priority = (int) rows[i + PRIO];
        for (int k = 0; k < SHARES && rows[i + SHARE + k] >= 0; k++) {
            // The capture noted when the XOFF pausing that port was sent: its row, by identity.
            long sent = rows[i + SHARE_PARENT + k];
            if (sent >= 0) {
                int sp = portOffset[node] + sharePort(rows[i + SHARE + k]);
                int parent = find(peerNode[sp], peerPort[sp], priority, sent);
                rows[i + SHARE_PARENT + k] = parent >= 0 ? parent : PAUSED_UNSEEN;
            }
        }
        int g = group(node, (int) rows[i + PORT], priority);
        rows[i + PREVIOUS] = lastXoff[g];
        lastXoff[g] = r;
        foundRow[g] = -1;
        if (rows[i + ROOT_NODE] >= 0) {
            // The capture found the root at its own device (its egress is not held by a pause, or it is an RNIC).
            return;
        }
        int egress = (int) rows[i + EGRESS];
        int pp = portOffset[node] + egress;
        int parent = find(peerNode[pp], peerPort[pp], priority, rec[at + PfcCapture.XOFF_SENT]);
        if (parent < 0) {
            // Paused by a frame no log saw (an RNIC's pause storm): the pausing device is the root. An RNIC's root is
            // named by port -1, its storm: its receive buffer (port 0) sends frames the log records.
            rows[i + ROOT_NODE] = peerNode[pp];
            rows[i + ROOT_PORT] = -1;
            rows[i + DEPTH] = 1;
            return;
        }
        rows[i + PARENT] = parent;
        long[] parentRows = block(parent);
        int p = offset(parent);
        if (walkPausesInForce(g)) {
            // The pauses in force now lead from this group's egress back to a group already passed: a cycle of
            // buffers, each waiting on the next. That cycle, not the congestion point the first pause of it started
            // from, holds the group now; and every pause still in force that waits on it is held by it from now on.
            rows[i + ROOT_KIND] = ROOT_PAUSE_CYCLE;
            rows[i + ROOT_NODE] = foundCycle;
            rows[i + ROOT_PORT] = -1;
            rows[i + DEPTH] = foundDepth;
            // The cycle closed now only if this XOFF moved the group's bytes to another egress or its previous XOFF
            // was not the cycle's (a refresh of a cycle that holds changes nothing): then mark what it holds.
            int previous = (int) rows[i + PREVIOUS];
            if (previous < 0 || get(previous, EGRESS) != egress
                    || get(previous, ROOT_KIND) != ROOT_PAUSE_CYCLE
                    || get(previous, ROOT_NODE) != foundCycle) {
                markCycle(foundCycle, rows[i + TIME]);
            }
            return;
        }
        rows[i + ROOT_KIND] = parentRows[p + ROOT_KIND];
        rows[i + ROOT_NODE] = parentRows[p + ROOT_NODE];
        rows[i + ROOT_PORT] = parentRows[p + ROOT_PORT];
        rows[i + DEPTH] = parentRows[p + DEPTH] + 1;
    }

    /**
     * A transmitter acted on a pause, or it was lifted ({@code xoffSentPs} -1): see {@link PfcProbe#onPauseInForce}.
     * A pause that takes hold can close a cycle of pauses; a lifted one cannot.
     */
    @Override
    public void onPauseInForce(long nowPs, int node, int port, int priority, long xoffSentPs, long clockPs) {
        int x = group(node, port, priority);
        boolean wasPaused = inForce[x] >= 0;
        inForce[x] = xoffSentPs;
        if (xoffSentPs < 0) {
            // A lifted pause opens every cycle that held with this port on it.
            for (int c = 0; c < cycles.size(); c++) {
                if (cycleClosedSincePs[c] >= 0 && onCycle(c, node, port) && cycles.get(c)[cycles.get(c).length - 1]
                        == priority) {
                    addSpell(c, cycleClosedSincePs[c], nowPs);
                    cycleClosedSincePs[c] = -1;
                }
            }
            return;
        }
        int pp = portOffset[node] + port;
        int pauser = find(peerNode[pp], peerPort[pp], priority, xoffSentPs);
        if (pauser < 0) {
            return;
        }
        long[] rows = block(pauser);
        int i = offset(pauser);
        rows[i + HELD_AT] = nowPs;
        rows[i + HELD_CLOCK] = clockPs;
        if (!walkPausesInForce(group(peerNode[pp], peerPort[pp], priority))) {
            return;
        }
        int cycle = foundCycle;
        int depth = foundDepth;
        if (rows[i + ROOT_KIND] == ROOT_CONGESTION_POINT && rows[i + CYCLE_SINCE] < 0) {
            // Sent while no cycle held its group (so rooted at a congestion point), it takes hold while one does: the
            // waits behind it are the cycle's from now on.
            rows[i + CYCLE_SINCE] = nowPs;
            rows[i + CYCLE_ID] = cycle;
            rows[i + CYCLE_DEPTH] = depth;
        }
        // Only a transmitter that was not paused can close a cycle (a refresh changes which XOFF holds it, not whether
        // it is held): then the walk from its pauser comes back to that pauser, on the cycle, and what else the cycle
        // holds is marked.
        if (!wasPaused && !topo.isHost(node) && depth == 0) {
            markCycle(cycle, nowPs);
        }
    }

    /** What {@link #walkPausesInForce} found: the cycle's index and how many pause hops from it the group is. */
    private int foundCycle;
    private int foundDepth;

    /**
     * Whether the pauses in force now, followed from group {@code g}, come back to a group already passed: the egress
     * where the group's latest XOFF found most of its bytes queued; if a recorded XOFF holds that egress now (as the
     * port itself reported, {@link #onPauseInForce}), the group that sent it, its egress, and so on. The walk ends at an
     * egress no recorded pause holds (a tree) or at a group seen before: a cycle of pauses, which {@code g} is on
     * (depth 0) or waits on from that many groups off it. Sets {@link #foundCycle} and {@link #foundDepth}.
     */
    private boolean walkPausesInForce(int g) {
        walk++;
        int next = g;
        for (int k = 0; k < walkNode.length; k++) {
            if (seenAt[next] == walk) {
                int from = seenPos[next];
                foundCycle = cycleOf(from, k, next % 8);
                foundDepth = from;
                return true;
            }
            int latest = lastXoff[next];
            if (latest < 0) {
                return false;
            }
            long[] rows = block(latest);
            int li = offset(latest);
            int atNode = (int) rows[li + NODE];
            int atEgress = (int) rows[li + EGRESS];
            int priority = (int) rows[li + PRIO];
            if (atEgress < 0 || topo.isHost(atNode)) {
                return false;
            }
            long sent = inForce[group(atNode, atEgress, priority)];
            int pp = portOffset[atNode] + atEgress;
            if (sent < 0 || find(peerNode[pp], peerPort[pp], priority, sent) < 0) {
                return false; // not paused, or by a frame no log saw (an RNIC's pause storm): a tree's root
            }
            seenAt[next] = walk;
            seenPos[next] = k;
            walkNode[k] = atNode;
            walkEgress[k] = atEgress;
            next = group(peerNode[pp], peerPort[pp], priority);
        }
        return false;
    }

    /**
     * Cycle {@code c} holds from {@code nowPs} on: every XOFF in force at a transmitter, rooted at a congestion point
     * and not yet marked, whose group waits on the cycle (on it or off it, through pauses in force) is marked, so that
     * the waits behind it from now on go to the cycle ({@link #onPausedWait}). Rare: once per cycle that forms.
     */
    private void markCycle(int c, long nowPs) {
        if (cycleClosedSincePs[c] < 0) {
            cycleClosedSincePs[c] = nowPs;
        }
        for (int x = 0; x < inForce.length; x++) {
            long sent = inForce[x];
            if (sent < 0) {
                continue;
            }
            int pp = x / 8;
            int priority = x % 8;
            int pauser = find(peerNode[pp], peerPort[pp], priority, sent);
            if (pauser < 0) {
                continue;
            }
            long[] rows = block(pauser);
            int i = offset(pauser);
            if (rows[i + ROOT_KIND] != ROOT_CONGESTION_POINT || rows[i + CYCLE_SINCE] >= 0) {
                continue;
            }
            if (walkPausesInForce(group(peerNode[pp], peerPort[pp], priority)) && foundCycle == c) {
                rows[i + CYCLE_SINCE] = nowPs;
                rows[i + CYCLE_ID] = c;
                rows[i + CYCLE_DEPTH] = foundDepth;
            }
        }
    }

    /**
     * The index of the cycle of the walk's egress ports {@code from} to {@code to - 1} ({@link #walkNode},
     * {@link #walkEgress}), each paused by the group behind the next one's, at {@code priority}: the same cycle found
     * from any of its ports has one index.
     */
    private int cycleOf(int from, int to, int priority) {
        int length = to - from;
        int start = from;
        for (int k = from; k < to; k++) {
            if (walkNode[k] < walkNode[start] || walkNode[k] == walkNode[start] && walkEgress[k] < walkEgress[start]) {
                start = k;
            }
        }
        List<Integer> key = new ArrayList<>(2 * length + 1);
        for (int k = 0; k < length; k++) {
            int at = from + (start - from + k) % length;
            key.add(walkNode[at]);
            key.add(walkEgress[at]);
        }
        key.add(priority);
        Integer known = cycleIndex.get(key);
        if (known != null) {
            return known;
        }
        int[] cycle = new int[key.size()];
        for (int k = 0; k < cycle.length; k++) {
            cycle[k] = key.get(k);
        }
        cycles.add(cycle);
        cycleIndex.put(key, cycles.size() - 1);
        cycleSpells.add(new long[0]);
        cycleClosedSincePs = Arrays.copyOf(cycleClosedSincePs, cycles.size());
        cycleClosedSincePs[cycles.size() - 1] = -1;
        return cycles.size() - 1;
    }

    private void addSpell(int c, long fromPs, long toPs) {
        long[] spells = Arrays.copyOf(cycleSpells.get(c), cycleSpells.get(c).length + 2);
        spells[spells.length - 2] = fromPs;
        spells[spells.length - 1] = toPs;
        cycleSpells.set(c, spells);
    }

    /** Whether egress {@code port} of {@code node} is one of cycle {@code c}'s. */
    private boolean onCycle(int c, int node, int port) {
        int[] cycle = cycles.get(c);
        for (int k = 0; k + 1 < cycle.length; k += 2) {
            if (cycle[k] == node && cycle[k + 1] == port) {
                return true;
            }
        }
        return false;
    }

    /**
     * When cycle {@code c} held: {@code from, to} pairs in time order, each a spell from when the log found it closed
     * (every port paused, each by the group behind the next one's) to when a pause on one of its ports was lifted; a
     * spell still going at the end has {@code to} -1.
     */
    public long[] cycleSpells(int c) {
        long[] done = cycleSpells.get(c);
        if (cycleClosedSincePs[c] < 0) {
            return done.clone();
        }
        long[] all = Arrays.copyOf(done, done.length + 2);
        all[done.length] = cycleClosedSincePs[c];
        all[done.length + 1] = -1;
        return all;
    }

    /** Cycle {@code c}'s queues in the deadlock detector's words, {@code s0/p1->s1 prio 3}, in order. */
    public List<String> cycleQueues(int c) {
        int[] cycle = cycles.get(c);
        List<String> out = new ArrayList<>();
        for (int k = 0; k + 1 < cycle.length; k += 2) {
            out.add(topo.nodeName(cycle[k]) + "/p" + cycle[k + 1] + "->" + topo.nodeName(topo.peer(cycle[k],
                    cycle[k + 1]).node()) + " prio " + cycle[cycle.length - 1]);
        }
        return out;
    }

    /** A cycle is on a flow's way when its data or its ACKs leave by one of its ports. */
    private boolean cycleOnRoundTrip(FlowPaths paths, int queuePair, int c) {
        int[] cycle = cycles.get(c);
        for (int k = 0; k + 1 < cycle.length; k += 2) {
            if (paths.onRoundTrip(queuePair, cycle[k], cycle[k + 1])) {
                return true;
            }
        }
        return false;
    }

    /** How many cycles of pauses were found. */
    public int cycleCount() {
        return cycles.size();
    }

    /** The cycles of pauses found: each one's egress ports ({@code node, port} pairs) in order, its priority last. */
    public List<int[]> cycles() {
        List<int[]> out = new ArrayList<>();
        for (int[] c : cycles) {
            out.add(c.clone());
        }
        return out;
    }

    static final int FIELD_COUNT = FIELDS;
    static final int F_TIME = TIME;
    static final int F_NODE = NODE;
    static final int F_PORT = PORT;
    static final int F_PRIO = PRIO;
    static final int F_QUANTA = QUANTA;
    static final int F_BYTES = BYTES;
    static final int F_THRESHOLD = THRESHOLD;
    static final int F_REASON = REASON;
    static final int F_POOL_USED = POOL_USED;
    static final int F_POOL_BYTES = POOL_BYTES;
    static final int F_EGRESS = EGRESS;
    static final int F_EGRESS_BYTES = EGRESS_BYTES;
    static final int F_ROOT_NODE = ROOT_NODE;
    static final int F_ROOT_PORT = ROOT_PORT;
    static final int F_DEPTH = DEPTH;
    static final int F_TOP = TOP;
    static final int F_SHARED_PORTS = SHARED_PORTS;
    static final int F_SHARE = SHARE;
    static final int F_SHARE_PARENT = SHARE_PARENT;
    static final int F_EGRESS_BACKLOG = EGRESS_BACKLOG;

    /** {@code blocks}, with block {@code b} made (of {@code width} longs per row) if it was not. */
    private static long[][] withBlock(long[][] blocks, int b, int width) {
        long[][] out = b == blocks.length ? Arrays.copyOf(blocks, 2 * b) : blocks;
        if (out[b] == null) {
            out[b] = new long[BLOCK_ROWS * width];
        }
        return out;
    }

    /** The block holding row {@code r}, and the offset of its fields there. */
    private long[] block(int r) {
        return blocks[r >>> BLOCK_SHIFT];
    }

    private static int offset(int r) {
        return (r & BLOCK_MASK) * FIELDS;
    }

    /** Field {@code f} of row {@code r}. */
    private long get(int r, int f) {
        return blocks[r >>> BLOCK_SHIFT][(r & BLOCK_MASK) * FIELDS + f];
    }

    /** The row of the XOFF that (node, port) sent for {@code priority} at {@code sentPs}, or -1. */
    private int find(int node, int port, int priority, long sentPs) {
        if (sentPs < 0) {
            return -1;
        }
        int g = group(node, port, priority);
        int found = foundRow[g];
        if (found >= 0 && get(found, TIME) == sentPs) {
            return found;
        }
        int r = lastXoff[g];
        while (r >= 0 && get(r, TIME) > sentPs) {
            r = (int) get(r, PREVIOUS);
        }
        if (r >= 0 && get(r, TIME) == sentPs) {
            foundRow[g] = r;
            return r;
        }
        return -1;
    }

    @Override
    public void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long fromClockPs, long toClockPs, long xoffSentPs) {
        // The XOFF's row is looked up only for a part of the wait that earlier packets' waits at this hop did not
        // cover (a FIFO's packets wait through the same pauses, and each reports its whole wait).
        long added = flowWaits.claim(flowCookie, node, port, ack, fromClockPs, toClockPs);
        if (added <= 0) {
            return;
        }
        int pp = portOffset[node] + port;
        int pauser = find(peerNode[pp], peerPort[pp], priority, xoffSentPs);
        if (pauser < 0) {
            // No recorded frame paused it: from an RNIC that is its pause storm (its receive buffer's frames are
            // recorded), named by port -1; a switch's, its buffer.
            flowWaits.credit(queuePair, added, ROOT_CONGESTION_POINT, peerNode[pp], -1, 1);
            return;
        }
        long[] rows = block(pauser);
        int i = offset(pauser);
        long inCycle = 0;
        if (rows[i + CYCLE_SINCE] >= 0 && rows[i + HELD_AT] >= 0) {
            // The XOFF held the transmitter from HELD_AT on, so its paused clock ran with time since then: the part of
            // the wait after the cycle formed is the cycle's (the new part is the wait's last `added` picoseconds).
            long cut = rows[i + HELD_CLOCK] + Math.max(0, rows[i + CYCLE_SINCE] - rows[i + HELD_AT]);
            inCycle = Math.min(added, Math.max(0, toClockPs - cut));
        }
        if (added > inCycle) {
            ownCause(pauser, queuePair, ack, forwarding);
            flowWaits.credit(queuePair, added - inCycle, causeKind, causeNode, causePort, causeDepth);
        }
        if (inCycle > 0) {
            flowWaits.credit(queuePair, inCycle, ROOT_PAUSE_CYCLE, (int) rows[i + CYCLE_ID], -1,
                    (int) rows[i + CYCLE_DEPTH] + 1);
        }
    }

    /** What {@link #ownCause} found: the root a wait goes to, and how many pause hops from it the wait was. */
    private int causeKind;
    private int causeNode;
    private int causePort;
    private int causeDepth;
    /** Whether it was found by the flow's own way (a port of it held a substantial share at every XOFF walked). */
    private boolean causeOwn;

    /** Takes every switch's choice of port as its routes stand from {@code sincePs} on (the start, each change). */
    private void readForwarding(long sincePs) {
        forwarding = new Forwarding[network.switchCount()];
        for (int s = 0; s < forwarding.length; s++) {
            forwarding[s] = network.switchAt(s).forwarding();
        }
        if (routes.size() == routesSincePs.length) {
            routesSincePs = Arrays.copyOf(routesSincePs, 2 * routesSincePs.length);
        }
        routesSincePs[routes.size()] = sincePs;
        routes.add(forwarding);
    }

    /**
     * The routes a wait that ended at {@code atPs} was credited under: those of the last change before it. A wait that
     * ends at a link event's instant ended before its reroute (a port forgets the pauses on its dead link first).
     */
    private Forwarding[] routesAt(long atPs) {
        int k = routes.size() - 1;
        while (k > 0 && routesSincePs[k] >= atPs) {
            k--;
        }
        return routes.get(k);
    }

    /**
     * The root a wait of {@code queuePair}'s packets (its last ACK when {@code ack}) behind XOFF {@code row} goes to.
     * The XOFF's cause is its group's bytes by egress port. Where the flow's own packets leave that switch by a port
     * that held at least 1/{@link #OWN_SHARE_DIVISOR} of what the port holding most held, the pause is of its own way's
     * making: if that port was not paused it is the root (a congestion point on the flow's way); if it was, the XOFF
     * that paused it is asked the same, one switch further along the flow's way. Where its port held less (or the
     * walk meets a cycle, or an RNIC), the wait goes to the XOFF's root, as the log names it. So a pause that two
     * congested ports made together is not called a victim's by a few KB of difference between them. Per new part of
     * a wait (not per packet): a hash per kept egress and switch walked.
     */
    private void ownCause(int row, int queuePair, boolean ack, Forwarding[] routes) {
        QueuePairTable qps = network.queuePairs();
        int from = ack ? qps.destinationHost(queuePair) : qps.sourceHost(queuePair);
        int to = ack ? qps.sourceHost(queuePair) : qps.destinationHost(queuePair);
        int entropy = qps.entropy(queuePair);
        int r = row;
        for (int hops = 1; hops <= walkNode.length; hops++) {
            long[] rows = block(r);
            int i = offset(r);
            int node = (int) rows[i + NODE];
            int own = rows[i + ROOT_KIND] == ROOT_CONGESTION_POINT && !topo.isHost(node) ? ownShare(rows, i, from, to,
                    entropy, routes) : -1;
            if (own < 0) {
                causeOwn = false;
                causeKind = (int) rows[i + ROOT_KIND];
                causeNode = (int) rows[i + ROOT_NODE];
                causePort = (int) rows[i + ROOT_PORT];
                causeDepth = (int) rows[i + DEPTH] + hops;
                return;
            }
            long parent = rows[i + SHARE_PARENT + own];
            int port = sharePort(rows[i + SHARE + own]);
            if (parent == UNPAUSED || parent == PAUSED_UNSEEN) {
                causeOwn = true;
                int pp = portOffset[node] + port;
                causeKind = ROOT_CONGESTION_POINT;
                causeNode = parent == UNPAUSED ? node : peerNode[pp];
                causePort = parent == UNPAUSED ? port : -1;
                // Its own egress is the root (0 hops from this XOFF), or an RNIC's storm paused it (1 hop).
                causeDepth = parent == UNPAUSED ? hops : hops + 1;
                return;
            }
            r = (int) parent;
        }
        long[] rows = block(row);
        int i = offset(row);
        causeOwn = false;
        causeKind = (int) rows[i + ROOT_KIND];
        causeNode = (int) rows[i + ROOT_NODE];
        causePort = (int) rows[i + ROOT_PORT];
        causeDepth = (int) rows[i + DEPTH] + 1;
    }

    /**
     * The entry of the XOFF at offset {@code i} of {@code rows} (its block) for the port by which packets from
     * {@code from} to {@code to} leave its switch, when that port held at least 1/{@link #OWN_SHARE_DIVISOR} of the
     * top port's bytes (the most such, where the switch spreads them), else -1, the switch forwarding as
     * {@code routes} say.
     */
    private int ownShare(long[] rows, int i, int from, int to, int entropy, Forwarding[] routes) {
        if (rows[i + SHARE] < 0) {
            return -1;
        }
        long top = shareBytes(rows[i + SHARE]);
        Forwarding sw = routes[(int) rows[i + NODE] - topo.hostCount()];
        // A hashing switch's one port for the flow, hashed once (-1: it spreads them, or has no route).
        int one = sw.port(from, to, entropy);
        for (int k = 0; k < SHARES && rows[i + SHARE + k] >= 0; k++) {
            long b = shareBytes(rows[i + SHARE + k]);
            if (b * OWN_SHARE_DIVISOR < top) {
                return -1; // most first: no later port holds enough
            }
            int port = sharePort(rows[i + SHARE + k]);
            if (one >= 0 ? one == port : sw.through(from, to, entropy, port)) {
                return k;
            }
        }
        return -1;
    }

    /** An egress port and the bytes of a group it held, in one long. */
    static long share(int port, long bytes) {
        return (long) port << 48 | bytes;
    }

    static int sharePort(long share) {
        return (int) (share >>> 48);
    }

    static long shareBytes(long share) {
        return share & ((1L << 48) - 1);
    }

    /**
     * Per flow, the PFC watchdog's drops of its packets, per (switch, port, root of the pause that held that queue):
     * rare (a watchdog drops only in a pause storm), so a map of small lists.
     */
    private final Map<Long, List<WatchdogDrops>> watchdogDrops = new HashMap<>();

    /**
     * The PFC watchdog of switch {@code node} dropped {@code packets} of a flow's packets from (or arriving for) its
     * output {@code port}'s queue, which it had found stuck in a pause storm, held paused by pauses rooted at the root
     * ({@code rootKind}, {@code rootNode}, {@code rootPort}; as {@link FlowWaits.Root}) {@code hops} pause hops away:
     * the root of the XOFF that last paused that queue, by its identity (its sender and send time).
     */
    public record WatchdogDrops(int node, int port, long packets, int rootKind, int rootNode, int rootPort, int hops) {}

    @Override
    public void onWatchdogDrop(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long xoffSentPs) {
        int pp = portOffset[node] + port;
        int pauser = find(peerNode[pp], peerPort[pp], priority, xoffSentPs);
        // As for a wait: no recorded frame paused it means an RNIC's pause storm (port -1), or a switch's buffer.
        int kind = pauser < 0 ? ROOT_CONGESTION_POINT : (int) get(pauser, ROOT_KIND);
        int rootNode = pauser < 0 ? peerNode[pp] : (int) get(pauser, ROOT_NODE);
        int rootPort = pauser < 0 ? -1 : (int) get(pauser, ROOT_PORT);
        int hops = pauser < 0 ? 1 : (int) get(pauser, DEPTH) + 1;
        List<WatchdogDrops> of = watchdogDrops.computeIfAbsent(flowCookie, k -> new ArrayList<>(1));
        for (int i = 0; i < of.size(); i++) {
            WatchdogDrops d = of.get(i);
            if (d.node() == node && d.port() == port && d.rootKind() == kind && d.rootNode() == rootNode
                    && d.rootPort() == rootPort) {
                of.set(i, new WatchdogDrops(node, port, d.packets() + 1, kind, rootNode, rootPort,
                        Math.min(d.hops(), hops)));
                return;
            }
        }
        of.add(new WatchdogDrops(node, port, 1, kind, rootNode, rootPort, hops));
    }

    /** The fabric's topology, for the words of what the log holds. */
    public Topology topology() {
        return topo;
    }

    /** The PFC watchdog's drops of flow {@code flow}'s packets, per port and root, most first; empty if none. */
    public List<WatchdogDrops> watchdogDrops(int flow) {
        List<WatchdogDrops> of = new ArrayList<>(watchdogDrops.getOrDefault((long) flow, List.of()));
        of.sort(Comparator.comparingLong(WatchdogDrops::packets).reversed());
        return of;
    }

    /** Frames sent, XON and XOFF. */
    public int frames() {
        return frames;
    }

    /** Why frame {@code i} was sent, as the device decided it. */
    public PfcReason reason(int i) {
        return PfcReason.values()[(int) (frameField(i, FRAME_REASON) & 0xFFFF_FFFFL)];
    }

    /** Field {@code f} of frame {@code i} (the XON or XOFF sent {@code i}-th). */
    private long frameField(int i, int f) {
        return frameBlocks[i >>> BLOCK_SHIFT][(i & BLOCK_MASK) * FRAME_WIDTH + f];
    }

    /** The XOFF row of frame {@code i}, -1 for an XON. */
    private int xoffRowOf(int i) {
        return (int) (frameField(i, FRAME_REASON) >> 32);
    }

    /**
     * Field f of frame i, for the report built from memory: 0 time (ps), 1 node, 2 port, 3 priority, 4 quanta (0:
     * XON), 5 priority-group bytes, 6 the XOFF threshold in force when it was sent (bytes).
     */
    public long field(int i, int f) {
        if (f < TIME || f > THRESHOLD) {
            throw new IllegalArgumentException("field " + f + " is not one of 0.." + THRESHOLD);
        }
        return frameField(i, f);
    }

    // ---------------------------------------------------------------- what a flow waited behind

    /** Every flow's waits behind pauses (at the root of the XOFF that paused the transmitter), for the victims. */
    public FlowWaits flowWaits() {
        return flowWaits;
    }

    /** The flow's waits behind pauses at each hop, in the order first seen (flows are the QP messages' cookies). */
    public List<FlowWaits.Hop> waits(int flow) {
        return flowWaits.waits(flow);
    }

    /** The roots of the pauses the flow waited behind, most waited first ({@code kind} 0: a PFC congestion point). */
    public List<FlowWaits.Root> roots(int flow) {
        return flowWaits.roots(flow);
    }

    /** Sum over its hops of the time the flow's packets waited behind pauses (see the class comment). */
    public long pausedWaitPs(int flow) {
        return flowWaits.waitPs(flow);
    }

    /** The part of {@link #pausedWaitPs} behind pauses rooted off the flow's own way. */
    public long offPathWaitPs(int flow) {
        return flowWaits.offPathWaitPs(flow);
    }

    private List<FlowRecord> victimsOf;
    private long victimsEndPs;
    private List<Victims.Victim> victims;

    /**
     * {@link Victims#find} for these flows and this end, made once and shared: flows.csv, summary.json, the report
     * and the printed summary all ask for them, the first three at the same time on three threads, and at a million
     * flows each list (a record and its hops per victim) is hundreds of megabytes. Unmodifiable.
     */
    public synchronized List<Victims.Victim> victims(List<FlowRecord> flows, long endPs) {
        if (victims == null || victimsOf != flows || victimsEndPs != endPs) {
            victims = Collections.unmodifiableList(Victims.find(flowWaits, flows, endPs));
            victimsOf = flows;
            victimsEndPs = endPs;
        }
        return victims;
    }

    // ---------------------------------------------------------------- the XOFFs and their causes

    /**
     * One XOFF (or refresh) and its recorded cause; the flows (ids) with the most bytes in the group, and those bytes;
     * why the device sent it ({@code reason}, as it decided), and its shared pool's use and size then (-1: an RNIC).
     * When it was rooted at a congestion point and a cycle of pauses that its group waits on formed while it was in
     * force: from when ({@code cycleSincePs}, else -1) and which ({@code cycle}, a root of kind
     * {@link #ROOT_PAUSE_CYCLE}). {@code egressBacklog}: its egress port was not paused then, but still queued the
     * backlog its last pause held back, which roots this XOFF where that pause was rooted.
     */
    public record Xoff(long timePs, int node, int port, int priority, long groupBytes, long thresholdBytes,
            int egressPort, long egressBytes, int rootKind, int rootNode, int rootPort, int depth, int[] topFlows,
            long[] topBytes, PfcReason reason, long poolUsedBytes, long poolBytes, long cycleSincePs, int cycle,
            int[] sharePorts, long[] shareBytes, int sharedPorts, boolean egressBacklog) {
        /** The group's bytes queued towards egress {@code port} when it was sent, or -1 when not kept. */
        public long bytesTowards(int port) {
            for (int k = 0; k < sharePorts.length; k++) {
                if (sharePorts[k] == port) {
                    return shareBytes[k];
                }
            }
            return -1;
        }
    }

    /**
     * Where a flow's wait behind an XOFF goes (see {@link #ownCause}): a root of {@code kind}, {@code depth} pause hops
     * from the wait, and whether the flow's own way's port held a substantial share of the XOFF's group.
     */
    public record WaitCause(int kind, int node, int port, int depth, boolean ownWay) {}

    /**
     * The root a wait of {@code queuePair}'s packets (its last ACK: {@code ack}) behind the XOFF (node, port) sent for
     * {@code priority} at {@code sentPs} goes to, or null when no such XOFF was recorded: the same as its wait was
     * credited to, but for the part after a pause cycle formed (told apart by the XOFF's {@code cycleSincePs}). The
     * flow's way is the one of the routes that stood when the wait ended, {@code endedPs}: a link event may have moved
     * the flow since.
     */
    public WaitCause waitCause(int node, int port, int priority, long sentPs, int queuePair, boolean ack,
            long endedPs) {
        int r = find(node, port, priority, sentPs);
        if (r < 0) {
            return null;
        }
        ownCause(r, queuePair, ack, routesAt(endedPs));
        return new WaitCause(causeKind, causeNode, causePort, causeDepth, causeOwn);
    }

    /** The XOFF (node, port) sent for {@code priority} at {@code sentPs}, or null: identity, not time proximity. */
    public Xoff xoff(int node, int port, int priority, long sentPs) {
        int r = find(node, port, priority, sentPs);
        return r < 0 ? null : xoffAt(r);
    }

    private Xoff xoffAt(int r) {
        long[] rows = block(r);
        int i = offset(r);
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
        int kept = 0;
        while (kept < SHARES && rows[i + SHARE + kept] >= 0) {
            kept++;
        }
        int[] sharePorts = new int[kept];
        long[] shareBytes = new long[kept];
        for (int k = 0; k < kept; k++) {
            sharePorts[k] = sharePort(rows[i + SHARE + k]);
            shareBytes[k] = shareBytes(rows[i + SHARE + k]);
        }
        return new Xoff(rows[i + TIME], (int) rows[i + NODE], (int) rows[i + PORT], (int) rows[i + PRIO],
                rows[i + BYTES], rows[i + THRESHOLD], (int) rows[i + EGRESS], rows[i + EGRESS_BYTES],
                (int) rows[i + ROOT_KIND], (int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT], (int) rows[i + DEPTH], qps, bytes,
                PfcReason.values()[(int) rows[i + REASON]], rows[i + POOL_USED], rows[i + POOL_BYTES],
                rows[i + CYCLE_SINCE], (int) rows[i + CYCLE_ID], sharePorts, shareBytes,
                (int) Math.max(0, rows[i + SHARED_PORTS]), rows[i + EGRESS_BACKLOG] == 1);
    }

    /**
     * The words for a root of {@code kind}: a congestion point ({@code leaf0 port 2 (towards h0)}, {@code h0's
     * receive buffer}) or a cycle of pauses ({@code the pause cycle s0/p1->s1 -> s1/p2->s0 (priority 3)}).
     */
    public String rootName(int kind, int node, int port) {
        if (kind == ROOT_PAUSE_CYCLE) {
            int[] cycle = cycles.get(node);
            StringBuilder b = new StringBuilder("the pause cycle ");
            for (int k = 0; k + 1 < cycle.length; k += 2) {
                b.append(k == 0 ? "" : " -> ").append(topo.nodeName(cycle[k])).append("/p").append(cycle[k + 1])
                        .append("->").append(topo.nodeName(topo.peer(cycle[k], cycle[k + 1]).node()));
            }
            return b.append(" (priority ").append(cycle[cycle.length - 1]).append(')').toString();
        }
        return rootName(node, port);
    }

    /** The words for a congestion point: {@code leaf0 port 2 (towards h0)}, {@code h0's receive buffer}. */
    public String rootName(int node, int port) {
        if (topo.isHost(node)) {
            return topo.nodeName(node) + (port < 0 ? "'s pause storm"
                    : "'s receive buffer");
        }
        if (port < 0) {
            return topo.nodeName(node) + "'s buffer";
        }
        return topo.nodeName(node) + " port " + port + " (towards " + topo.nodeName(topo.peer(node, port).node())
                + ")";
    }

    /** One link of the pause propagation tree: {@code device} first paused {@code peer} at a time. */
    public record PauseEdge(long firstXoffPs, int device, int port, int peer, int priority, int hop, long pausedPs,
            int rootKind, int rootNode, int rootPort) {}

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
            long[] rows = block(r);
            int i = offset(r);
            int node = (int) rows[i + NODE];
            int port = (int) rows[i + PORT];
            int prio = (int) rows[i + PRIO];
            int g = group(node, port, prio);
            if (seen[g]) {
                continue;
            }
            seen[g] = true;
            var far = topo.peer(node, port);
            // The paused peer's own port and priority: an RNIC of several planes has a port on each, paused apart.
            long paused = topo.isHost(far.node())
                    ? network.nic(far.node()).pausedPs(far.port(), prio, nowPs)
                    : network.switchAt(far.node() - topo.hostCount()).port(far.port()).pausedPs(prio, nowPs);
            out.add(new PauseEdge(rows[i + TIME], node, port, far.node(), prio, (int) rows[i + DEPTH], paused,
                    (int) rows[i + ROOT_KIND], (int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT]));
        }
        // An RNIC's pause storm: its frames are not recorded (no buffer sent them), but the switch port it pauses is
        // part of the spread, as its root (the waits behind it are rooted at the storm, port -1).
        for (int h = 0; h < topo.hostCount(); h++) {
            var nic = network.nic(h);
            long start = nic.pauseStormStartPs();
            if (start < 0) {
                continue;
            }
            int prio = nic.pauseStormPriority();
            for (int port = 0; port < nic.planes(); port++) {
                if (seen[group(h, port, prio)]) {
                    continue; // its receive buffer paused that port too: that edge is there, its paused time the storm's too
                }
                var far = topo.peer(h, port);
                long paused = network.switchAt(far.node() - topo.hostCount()).port(far.port()).pausedPs(prio, nowPs);
                out.add(new PauseEdge(start, h, port, far.node(), prio, 0, paused, ROOT_CONGESTION_POINT, h, -1));
            }
        }
        out.sort(Comparator.comparingLong(PauseEdge::firstXoffPs).thenComparingInt(PauseEdge::device)
                .thenComparingInt(PauseEdge::port));
        return out;
    }

    /**
     * {@code time_us,device,port,peer,priority,kind,quanta,pause_us,ingress_bytes,threshold_bytes,egress_port,
     * root,root_hops,top_flows,reason,egress_bytes}: for an XOFF, the threshold the group crossed, the port where most of its bytes
     * were queued, the congestion point it is rooted at, and the flows with the most bytes in it
     * ({@code flow_id:bytes}).
     */
    public String csv() {
        CsvTable t = new CsvTable(CSV_HEADER);
        csvRows(t);
        return t.toString();
    }

    /** pfc.csv's text ({@link #csv}) into {@code out} as it is made, in UTF-8 (the caller closes the stream). */
    public void writeCsv(OutputStream out) throws IOException {
        CsvTable t = CsvTable.streamedTo(new OutputStreamWriter(out, StandardCharsets.UTF_8), CSV_HEADER);
        try {
            csvRows(t);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        t.finish();
    }

    private static final List<String> CSV_HEADER = List.of("time_us", "device", "port", "peer", "priority", "kind",
            "quanta", "pause_us", "ingress_bytes", "threshold_bytes", "egress_port", "root", "root_hops", "top_flows",
            "reason", "egress_bytes");

    private void csvRows(CsvTable t) {
        for (int f = 0; f < frames; f++) {
            int r = xoffRowOf(f);
            boolean xoff = r >= 0;
            // An XON's fields are in its frame's entry alone; the ones only an XOFF has are not read for it.
            long[] rows = xoff ? block(r) : frameBlocks[f >>> BLOCK_SHIFT];
            int i = xoff ? offset(r) : (f & BLOCK_MASK) * FRAME_WIDTH;
            int node = (int) rows[i + NODE];
            int port = (int) rows[i + PORT];
            int quanta = (int) rows[i + QUANTA];
            long rate = topo.edgeAt(node, port).parameters().rateBps();
            StringBuilder shares = new StringBuilder();
            for (int k = 0; xoff && k < SHARES && rows[i + SHARE + k] >= 0; k++) {
                shares.append(k == 0 ? "" : " ").append(sharePort(rows[i + SHARE + k])).append(':')
                        .append(shareBytes(rows[i + SHARE + k]));
            }
            if (xoff && rows[i + SHARED_PORTS] > SHARES) {
                shares.append(" +").append(rows[i + SHARED_PORTS] - SHARES).append(" ports");
            }
            StringBuilder top = new StringBuilder();
            for (int k = 0; xoff && k < TOP_FLOWS && rows[i + TOP + 2 * k] >= 0; k++) {
                top.append(k == 0 ? "" : " ").append(rows[i + TOP + 2 * k]).append(':').append(rows[i + TOP + 2 * k + 1]);
            }
            t.row(Numbers.micros(rows[i]), topo.nodeName(node), port, topo.nodeName(topo.peer(node, port).node()),
                    rows[i + PRIO], xoff ? "XOFF" : "XON", quanta,
                    Numbers.micros(Headroom.pauseDurationPs(quanta, rate)), rows[i + BYTES], rows[i + THRESHOLD],
                    xoff && rows[i + EGRESS] >= 0 ? Long.toString(rows[i + EGRESS]) : "",
                    xoff ? rootName((int) rows[i + ROOT_KIND], (int) rows[i + ROOT_NODE], (int) rows[i + ROOT_PORT])
                            : "",
                    xoff ? Long.toString(rows[i + DEPTH]) : "", top.toString(),
                    reason(f).name().toLowerCase(Locale.ROOT), shares.toString());
        }
    }
}
