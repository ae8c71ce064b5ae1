package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * Where the marks behind a QP's congestion notifications were made: each CNP (or flagged ACK) carries the switch and
 * egress port that first marked the data packet it answers, and whether a PFC pause held that packet at that port;
 * this counts them by port. Made at a QP's first notification, with room for {@link #SLOTS} ports (a QP's packets
 * take one path; its marks come from a few of its hops): notifications from further ports are counted together as
 * {@link #OTHER}. It never grows, so a warm run allocates nothing for it whatever its marks do.
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
    static final int SLOTS = 3;
    /** Longs per source in {@link #bySource}'s answer: node, port, count, held. */
    public static final int FIELDS = 4;

    /** Per slot: node, port, count, held (by a pause at that port); a slot is used when its count is positive. */
    private final int[] slots = new int[4 * SLOTS];
    private int other;

    NotificationSources() {}

    /**
     * The next notification of the QP answers a packet first marked at {@code node}'s egress {@code port}, which a
     * PFC pause held at that port if {@code held}.
     */
    void record(int node, int port, boolean held) {
        if (node >= 0) {
            for (int i = 0; i < slots.length; i += 4) {
                if (slots[i + 2] == 0) {
                    slots[i] = node;
                    slots[i + 1] = port;
                }
                if (slots[i] == node && slots[i + 1] == port) {
                    slots[i + 2]++;
                    slots[i + 3] += held ? 1 : 0;
                    return;
                }
            }
        }
        other++;
    }

    /**
     * Every notification recorded, by source: (node, port, count, held) quadruplets ({@link #FIELDS} longs each;
     * {@code held}: those whose packet a pause held at that port), most first, then by node and port; a node of
     * {@link #OTHER} counts those whose port is not told.
     */
    public long[] bySource() {
        int n = other > 0 ? 1 : 0;
        for (int i = 0; i < slots.length; i += 4) {
            n += slots[i + 2] > 0 ? 1 : 0;
        }
        long[][] found = new long[n][];
        int k = 0;
        for (int i = 0; i < slots.length; i += 4) {
            if (slots[i + 2] > 0) {
                found[k++] = new long[] {slots[i], slots[i + 1], slots[i + 2], slots[i + 3]};
            }
        }
        if (other > 0) {
            found[k] = new long[] {OTHER, 0, other, 0};
        }
        Arrays.sort(found, (a, b) -> a[2] != b[2] ? Long.compare(b[2], a[2])
                : a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long[] out = new long[FIELDS * found.length];
        for (int i = 0; i < found.length; i++) {
            System.arraycopy(found[i], 0, out, FIELDS * i, FIELDS);
        }
        return out;
    }
}
