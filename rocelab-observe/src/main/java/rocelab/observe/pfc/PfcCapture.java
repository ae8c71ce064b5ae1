package rocelab.observe.pfc;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.packet.IngressLists;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.switching.Switch;
import rocelab.observe.victim.EventNotes;

/**
 * What a device sees when it sends a PFC frame or reports a wait behind a pause, noted at that moment: the frame's
 * fields and, for a switch's XOFF, the bytes its queues hold for the paused group (by egress port and by flow) and
 * whether the egress holding most of them is paused itself (or still queues the backlog a pause held back), with the
 * send time of the XOFF that paused it. The
 * {@link PfcLog} turns notes into rows ({@link PfcLog#link}): it names the parent XOFF and the root, which only needs
 * rows of frames sent at least a link's delay earlier. In one simulator the log notes and links at once; in a
 * parallel run each partition notes into its own capture, tagged with the key of the event that wrote it, and the
 * log links every partition's notes after each window in key order, which is the order one simulator writes them.
 */
final class PfcCapture implements PfcProbe {
    /** A note's fields: what it is (a frame or a wait), the parent XOFF's send time, then the row or the wait. */
    static final int TYPE = 0;
    static final int XOFF_SENT = 1;
    static final int ROW = 2;
    static final int WIDTH = ROW + PfcLog.FIELD_COUNT;
    /** A wait note's (or an in-force note's) time, after its eight fields (a frame's row has its own). */
    private static final int TIME_OF_WAIT = ROW + 8;
    /** The fields of a note that is not a frame's row: a wait, a pause in force or a watchdog drop. */
    private static final int SHORT_WIDTH = TIME_OF_WAIT + 1;
    private static final long PFC = 0;
    private static final long WAIT = 1;
    /** A note that a pause took hold of a switch egress or was lifted: node, port, priority, the XOFF's send time. */
    private static final long IN_FORCE = 2;
    /** A note that the PFC watchdog dropped a flow's packet: node, port, priority, QP, flow, the XOFF's send time. */
    private static final long WATCHDOG_DROP = 3;
    /** A wait note's priority field carries whether the packet that waited was an ACK in this bit. */
    private static final long ACK_FLAG = 1L << 32;

    private final Network network;
    private long[] egressScratch = new long[64];
    /** The walk's place in each egress port's list of the group that still has packets, and that port. */
    private Packet[] chainAt = new Packet[64];
    private int[] chainPort = new int[64];
    private long[] qpScratch = new long[64];
    private int[] touched = new int[64];
    /** The notes of a partition's window (null for the log's own capture, which notes nothing). */
    private final EventNotes notes;
    /** Each host's RNIC rate: the most its packets can come at into any port ({@link #sendersFit}). */
    private final long[] hostRateBps;
    /** Per host, the walk of {@link #sendersFit} that last counted it. */
    private final int[] hostSeen;
    private int seenMark;

    /** The notes this capture takes (null for the log's own). */
    EventNotes notes() {
        return notes;
    }

    PfcCapture(Network network, Simulator partition) {
        this.network = network;
        this.notes = partition == null ? null : new EventNotes(partition, WIDTH);
        int hosts = network.topology().hostCount();
        this.hostRateBps = new long[hosts];
        for (int h = 0; h < hosts; h++) {
            hostRateBps[h] = network.topology().hostRateBps(h);
        }
        this.hostSeen = new int[hosts];
    }

    @Override
    public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
            long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {
        int at = notes.next(nowPs);
        long[] n = notes.array();
        n[at + TYPE] = PFC;
        capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes, poolBytes,
                n, at);
    }

    @Override
    public void onPausedWait(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long fromClockPs, long toClockPs, long xoffSentPs) {
        int at = notes.next(nowPs, SHORT_WIDTH);
        long[] n = notes.array();
        n[at + TYPE] = WAIT;
        n[at + ROW] = node;
        n[at + ROW + 1] = port;
        n[at + ROW + 2] = priority | (ack ? ACK_FLAG : 0);
        n[at + ROW + 3] = queuePair;
        n[at + ROW + 4] = flowCookie;
        n[at + ROW + 5] = fromClockPs;
        n[at + ROW + 6] = toClockPs;
        n[at + ROW + 7] = xoffSentPs;
        n[at + TIME_OF_WAIT] = nowPs;
    }

    @Override
    public void onPauseInForce(long nowPs, int node, int port, int priority, long xoffSentPs, long clockPs) {
        int at = notes.next(nowPs, SHORT_WIDTH);
        long[] n = notes.array();
        n[at + TYPE] = IN_FORCE;
        n[at + ROW] = node;
        n[at + ROW + 1] = port;
        n[at + ROW + 2] = priority;
        n[at + ROW + 3] = xoffSentPs;
        n[at + ROW + 4] = clockPs;
        n[at + TIME_OF_WAIT] = nowPs;
    }

    @Override
    public void onWatchdogDrop(long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long xoffSentPs) {
        int at = notes.next(nowPs, SHORT_WIDTH);
        long[] n = notes.array();
        n[at + TYPE] = WATCHDOG_DROP;
        n[at + ROW] = node;
        n[at + ROW + 1] = port;
        n[at + ROW + 2] = priority | (ack ? ACK_FLAG : 0);
        n[at + ROW + 3] = queuePair;
        n[at + ROW + 4] = flowCookie;
        n[at + ROW + 7] = xoffSentPs;
        n[at + TIME_OF_WAIT] = nowPs;
    }

    /** Notes a PFC frame into {@code rec} at {@code at}: its fields and what this device shows of its cause. */
    void capture(long nowPs, int node, int port, int priority, int quanta, long groupBytes, long thresholdBytes,
            PfcReason reason, long poolUsedBytes, long poolBytes, long[] rec, int at) {
        capture(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes, poolBytes, rec,
                at, false);
    }

    /** As {@link #capture}, with the cause found by {@link #walkCause} when {@code walk}: the tests' oracle. */
    void capture(long nowPs, int node, int port, int priority, int quanta, long groupBytes, long thresholdBytes,
            PfcReason reason, long poolUsedBytes, long poolBytes, long[] rec, int at, boolean walk) {
        int i = at + ROW;
        Arrays.fill(rec, i, i + PfcLog.FIELD_COUNT, -1);
        rec[at + XOFF_SENT] = -1;
        rec[i + PfcLog.F_TIME] = nowPs;
        rec[i + PfcLog.F_NODE] = node;
        rec[i + PfcLog.F_PORT] = port;
        rec[i + PfcLog.F_PRIO] = priority;
        rec[i + PfcLog.F_QUANTA] = quanta;
        rec[i + PfcLog.F_BYTES] = groupBytes;
        rec[i + PfcLog.F_THRESHOLD] = thresholdBytes;
        rec[i + PfcLog.F_REASON] = reason.ordinal();
        rec[i + PfcLog.F_POOL_USED] = poolUsedBytes;
        rec[i + PfcLog.F_POOL_BYTES] = poolBytes;
        if (quanta == 0) {
            return;
        }
        if (network.topology().isHost(node)) {
            // The RNIC's receive buffer filled: the RNIC itself is where the pause starts.
            root(rec, i, node, 0);
            return;
        }
        Switch sw = network.switchAt(node - network.topology().hostCount());
        if (walk) {
            walkCause(rec, at, sw, port, priority);
        } else {
            traceCause(rec, at, sw, port, priority);
        }
    }

    private static void root(long[] rec, int i, int node, int port) {
        rec[i + PfcLog.F_ROOT_NODE] = node;
        rec[i + PfcLog.F_ROOT_PORT] = port;
        rec[i + PfcLog.F_DEPTH] = 0;
    }

    /**
     * Notes the cause from the ingress group's packets alone, through the switch's queues linked by ingress
     * ({@link Switch#linkQueuesByIngress}): the same sums as {@link #walkCause}, which visits every packet queued at
     * the paused class of every port, at a cost of the group's packets plus one list head per egress port.
     */
    private void traceCause(long[] rec, int at, Switch sw, int inPort, int priority) {
        IngressLists lists = sw.ingressLists();
        if (lists == null || !lists.tracks(priority)) {
            walkCause(rec, at, sw, inPort, priority);
            return;
        }
        int ports = sw.portCount();
        if (egressScratch.length < ports) {
            egressScratch = new long[ports];
            chainAt = new Packet[ports];
            chainPort = new int[ports];
        }
        int chains = 0;
        for (int e = 0; e < ports; e++) {
            egressScratch[e] = 0;
            Packet first = lists.first(inPort, e, priority);
            if (first != null) {
                chainAt[chains] = first;
                chainPort[chains++] = e;
            }
        }
        // The egress ports' lists are walked a packet of each in turn, not one list after the other: each packet
        // was queued long ago (a miss), and the next one's address is in it, so one list's misses come one after
        // another, while those of different lists overlap (a spine's group has packets towards up to every leaf).
        // The sums by egress port and by flow do not depend on the order.
        int distinct = 0;
        while (chains > 0) {
            for (int k = 0; k < chains;) {
                Packet p = chainAt[k];
                egressScratch[chainPort[k]] += p.frameBytes();
                distinct = countFlow(p, distinct);
                Packet next = IngressLists.next(p);
                if (next != null) {
                    chainAt[k++] = next;
                } else {
                    chains--;
                    chainAt[k] = chainAt[chains];
                    chainPort[k] = chainPort[chains];
                    chainAt[chains] = null;
                }
            }
        }
        noteCause(rec, at, sw, priority, distinct);
    }

    /**
     * Notes the cause by walking every packet queued at the paused class of every egress port of the switch for
     * those of the ingress group (port, priority): the definition {@link #traceCause} must agree with (its tests'
     * oracle), and the way when the queues are not linked by ingress.
     */
    private void walkCause(long[] rec, int at, Switch sw, int inPort, int priority) {
        int ports = sw.portCount();
        if (egressScratch.length < ports) {
            egressScratch = new long[ports];
        }
        Arrays.fill(egressScratch, 0, ports, 0);
        int distinct = 0;
        for (int e = 0; e < ports; e++) {
            EgressPort port = sw.port(e);
            for (Packet p = port.firstQueued(priority); p != null; p = port.queuedAfter(priority, p)) {
                if (p.ingressPort() != inPort) {
                    continue;
                }
                egressScratch[e] += p.frameBytes();
                distinct = countFlow(p, distinct);
            }
        }
        noteCause(rec, at, sw, priority, distinct);
    }

    /** Adds a group packet's bytes to its flow's count; returns the number of distinct flows seen. */
    private int countFlow(Packet p, int distinct) {
        // The packet's own flow, carried from its sender (not looked up in the sender's state, which
        // another partition may be changing).
        long flow = p.kind() == PacketKind.DATA ? p.cookie() : -1;
        if (flow >= 0 && flow < Integer.MAX_VALUE) {
            int q = (int) flow;
            if (q >= qpScratch.length) {
                // By half again, not twice: a million flows' scratch per partition is 8 MB, and doubling past it
                // left most of 16 unused.
                qpScratch = Arrays.copyOf(qpScratch, Math.max(q + 1, qpScratch.length + (qpScratch.length >> 1)));
            }
            if (qpScratch[q] == 0) {
                if (distinct == touched.length) {
                    // As many as the flows with packets in one paused group, not one per flow of the run.
                    touched = Arrays.copyOf(touched, 2 * distinct);
                }
                touched[distinct++] = q;
            }
            qpScratch[q] += p.frameBytes();
        }
        return distinct;
    }

    /** From the sums by egress port and by flow: the top flows, the egress holding most, and its pause. */
    private void noteCause(long[] rec, int at, Switch sw, int priority, int distinct) {
        int i = at + ROW;
        int ports = sw.portCount();
        for (int k = 0; k < PfcLog.TOP_FLOWS; k++) {
            int best = -1;
            for (int t = 0; t < distinct; t++) {
                int q = touched[t];
                if (qpScratch[q] > 0 && (best < 0 || qpScratch[q] > qpScratch[best]
                        || qpScratch[q] == qpScratch[best] && q < best)) {
                    best = q;
                }
            }
            if (best < 0) {
                break;
            }
            rec[i + PfcLog.F_TOP + 2 * k] = best;
            rec[i + PfcLog.F_TOP + 2 * k + 1] = qpScratch[best];
            qpScratch[best] = -qpScratch[best];
        }
        for (int t = 0; t < distinct; t++) {
            qpScratch[touched[t]] = 0;
        }
        int egress = -1;
        for (int e = 0; e < ports; e++) {
            if (egressScratch[e] > 0 && (egress < 0 || egressScratch[e] > egressScratch[egress])) {
                egress = e;
            }
        }
        int node = sw.nodeId();
        noteShares(rec, i, sw, priority, ports, egress);
        rec[i + PfcLog.F_EGRESS] = egress;
        if (egress < 0) {
            // Only the packet being admitted belongs to the group: this switch's buffer, no port to name.
            root(rec, i, node, -1);
            return;
        }
        rec[i + PfcLog.F_EGRESS_BYTES] = egressScratch[egress];
        EgressPort out = sw.port(egress);
        long heldBy = heldBy(out, priority);
        if (heldBy < 0) {
            root(rec, i, node, egress);
            return;
        }
        // Paused itself, or still queueing the backlog its last pause held back: the log names the XOFF that paused
        // it (sent by the peer at this time) as the parent.
        rec[at + XOFF_SENT] = heldBy;
        rec[i + PfcLog.F_EGRESS_BACKLOG] = out.isPaused(priority) ? 0 : 1;
    }

    /**
     * The send time of the XOFF that holds {@code out}'s class {@code priority}, or -1 when none does and the port is
     * the congestion point. A pause holds the port while it is in force; after it is lifted, while the port still
     * queues the backlog the pause held back ({@link EgressPort#heldBacklog}) and the hosts whose packets it queues
     * cannot together send faster than it sends ({@link #sendersFit}): then its queue is only what the pause held back
     * there and before it, released in a burst (a slow receiver's pauses leave its switch port, and the ports before
     * it, such a backlog to clear at line rate, which names none of them a congestion point). A port that more senders
     * feed than it can carry is a congestion point whenever it is not paused, backlog or not: its queue would grow
     * without the pause (an oversubscribed leaf's uplinks, which a spine also pauses for another root).
     */
    private long heldBy(EgressPort out, int priority) {
        if (out.isPaused(priority)) {
            return out.lastXoffSentPs(priority);
        }
        return out.heldBacklog(priority) && sendersFit(out) ? out.lastXoffSentPs(priority) : -1;
    }

    /**
     * Whether the hosts with packets queued at {@code out} (any class), each at its RNIC's rate, add up to no more than
     * the port's rate. A walk of the port's queue, once per XOFF whose port holds a pause's backlog (rare next to the
     * packets); it stops once they add up to more.
     */
    private boolean sendersFit(EgressPort out) {
        seenMark++;
        long sum = 0;
        for (int tc = 0; tc < out.classCount(); tc++) {
            for (Packet p = out.firstQueued(tc); p != null; p = out.queuedAfter(tc, p)) {
                int h = p.srcHost();
                if (h < 0 || h >= hostSeen.length) {
                    return false; // no host's rate bounds it: claim nothing
                }
                if (hostSeen[h] != seenMark) {
                    hostSeen[h] = seenMark;
                    sum += hostRateBps[h];
                    if (sum > out.rateBps()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Notes the group's bytes by egress port: the {@link PfcLog#SHARES} ports holding most (most first, {@code top}
     * first of equals), each with the send time of the XOFF that pauses it (-1: not paused), and how many ports held
     * any. The log resolves each paused port's XOFF to its row ({@link PfcLog#link}); a flow's wait behind this XOFF is
     * its own when a port on its way held a substantial share ({@link PfcLog#onPausedWait}). Per XOFF: a pass over
     * the ports per entry.
     */
    private void noteShares(long[] rec, int i, Switch sw, int priority, int ports, int top) {
        int held = 0;
        for (int e = 0; e < ports; e++) {
            if (egressScratch[e] > 0) {
                held++;
            }
        }
        rec[i + PfcLog.F_SHARED_PORTS] = held;
        long previous = Long.MAX_VALUE;
        int previousPort = -1;
        for (int k = 0; k < PfcLog.SHARES && k < held; k++) {
            // The top first (most bytes, lowest port of equals); then each next in (bytes descending, port ascending).
            int best = k == 0 ? top : -1;
            for (int e = 0; k > 0 && e < ports; e++) {
                long b = egressScratch[e];
                boolean after = b < previous || b == previous && e > previousPort;
                if (b > 0 && after && (best < 0 || b > egressScratch[best])) {
                    best = e;
                }
            }
            if (best < 0) {
                break;
            }
            previous = egressScratch[best];
            previousPort = best;
            EgressPort out = sw.port(best);
            rec[i + PfcLog.F_SHARE + k] = PfcLog.share(best, egressScratch[best]);
            rec[i + PfcLog.F_SHARE_PARENT + k] = heldBy(out, priority);
        }
    }

    /**
     * Hands every capture's notes to the log in the order of the events that wrote them (time, then the canonical
     * tie key, kind and argument; notes of one event stay in their order), and empties the captures.
     */
    static void replay(List<EventNotes> all, int parity, PfcLog log) {
        EventNotes.replay(all, parity, (n, at) -> {
            if (n[at + TYPE] == PFC) {
                log.link(n, at);
            } else if (n[at + TYPE] == IN_FORCE) {
                log.onPauseInForce(n[at + TIME_OF_WAIT], (int) n[at + ROW], (int) n[at + ROW + 1],
                        (int) n[at + ROW + 2], n[at + ROW + 3], n[at + ROW + 4]);
            } else if (n[at + TYPE] == WATCHDOG_DROP) {
                log.onWatchdogDrop(n[at + TIME_OF_WAIT], (int) n[at + ROW], (int) n[at + ROW + 1],
                        (int) (n[at + ROW + 2] & ~ACK_FLAG), (int) n[at + ROW + 3], n[at + ROW + 4],
                        (n[at + ROW + 2] & ACK_FLAG) != 0, n[at + ROW + 7]);
            } else {
                log.onPausedWait(n[at + TIME_OF_WAIT], (int) n[at + ROW], (int) n[at + ROW + 1],
                        (int) (n[at + ROW + 2] & ~ACK_FLAG), (int) n[at + ROW + 3], n[at + ROW + 4],
                        (n[at + ROW + 2] & ACK_FLAG) != 0, n[at + ROW + 5], n[at + ROW + 6], n[at + ROW + 7]);
            }
        });
    }
}
