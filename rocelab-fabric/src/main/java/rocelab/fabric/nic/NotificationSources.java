package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * Where the marks behind a QP's congestion notifications were made: each CNP (or flagged ACK) carries the switch and
 * egress port that first marked the data packet it answers, and whether a PFC pause held that packet at that port;
 * the QP's {@link CongestionNotice} counts them by port, with room for {@link #SLOTS} ports (a QP's packets take one
 * path, and its marks come from a few of its hops): notifications from further ports are counted together as
 * {@link #OTHER}. Kept in the notice, which a QP gets at its first CE-marked packet (before any notification): no
 * object of its own (a million QPs of a 1,024-host all-to-all made 63 MB of them), and nothing allocated in a warm
 * run whatever its marks do.
 */
public final class NotificationSources {
    /** The node of the notifications whose port is not told: more ports than {@link #SLOTS}, or no mark carried. */
    public static final int OTHER = -1;
    /**
     * The node of a flow's notifications not told by port: its QP carried other messages that heard notifications too,
     * and the QP's counts are of them all.
     */
    public static final int NOT_APART = -2;
    /** Ports a QP keeps apart. */
    static final int SLOTS = 2;
    /** Longs per source in {@link #bySource}'s answer: node, port, count, held. */
    public static final int FIELDS = 4;

    private NotificationSources() {}

    /**
     * The next notification of the QP answers a packet first marked at {@code node}'s egress {@code port}, which a
     * PFC pause held at that port if {@code held}.
     */
    static void record(CongestionNotice n, int node, int port, boolean held) {
        int h = held ? 1 : 0;
        if (node >= 0) {
            if (n.markCount0 == 0 || n.markNode0 == node && n.markPort0 == port) {
                n.markNode0 = node;
                n.markPort0 = port;
                n.markCount0++;
                n.markHeld0 += h;
                return;
            }
            if (n.markCount1 == 0 || n.markNode1 == node && n.markPort1 == port) {
                n.markNode1 = node;
                n.markPort1 = port;
                n.markCount1++;
                n.markHeld1 += h;
                return;
            }
        }
        n.markOther++;
    }

    /**
     * Every notification recorded in {@code n}, by source: (node, port, count, held) quadruplets ({@link #FIELDS}
     * longs each; {@code held}: those whose packet a pause held at that port), most first, then by node and port; a
     * node of {@link #OTHER} counts those whose port is not told.
     */
    static long[] bySource(CongestionNotice n) {
        long[][] all = {
            {n.markNode0, n.markPort0, n.markCount0, n.markHeld0},
            {n.markNode1, n.markPort1, n.markCount1, n.markHeld1},
            {OTHER, 0, n.markOther, 0}};
        long[][] found = Arrays.stream(all).filter(s -> s[2] > 0).toArray(long[][]::new);
        Arrays.sort(found, (a, b) -> a[2] != b[2] ? Long.compare(b[2], a[2])
                : a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long[] out = new long[FIELDS * found.length];
        for (int i = 0; i < found.length; i++) {
            System.arraycopy(found[i], 0, out, FIELDS * i, FIELDS);
        }
        return out;
    }
}
