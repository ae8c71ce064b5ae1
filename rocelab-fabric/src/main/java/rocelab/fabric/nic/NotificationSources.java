package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * Where the marks behind a QP's congestion notifications were made, in the order its sender received them: each CNP
 * (or flagged ACK) carries the switch and egress port that first marked the data packet it answers, and whether a PFC
 * pause held that packet at that port. This keeps them as runs of one source, so that a flow's notifications (a range
 * of its QP's, by number) can be told by the port whose marks caused them. Made at a QP's first notification; a QP
 * whose notifications keep coming from one port keeps one run. A QP whose sources alternate more than
 * {@link #MAX_RUNS} times keeps the rest as one run of {@link #UNKNOWN} (its count stays true; which port is no longer
 * told).
 */
public final class NotificationSources {
    /** The node of a source not known: a notification with no mark carried, or one past {@link #MAX_RUNS}. */
    public static final int UNKNOWN = -1;
    /** Runs kept per QP: a bound on what a QP whose marks alternate between ports holds. */
    static final int MAX_RUNS = 4096;
    /** Ints per run: node, port, held by a pause (0 or 1), count. */
    private static final int RUN = 4;
    /** Ints per source in {@link #bySource}'s answer (as longs): node, port, count, held. */
    public static final int FIELDS = 4;

    /** Runs as (node, port, held, count), oldest first. */
    private int[] runs = new int[RUN * 2];
    private int size;

    NotificationSources() {}

    /**
     * The next notification of the QP answers a packet first marked at {@code node}'s egress {@code port}, which a
     * PFC pause held at that port if {@code held}.
     */
    void record(int node, int port, boolean held) {
        int h = held ? 1 : 0;
        if (node < 0 || size >= MAX_RUNS - 1) {
            // Unknown, or past the runs kept: the last run is then the unknown one, and counts on.
            node = UNKNOWN;
            port = 0;
            h = 0;
        }
        int last = RUN * (size - 1);
        if (size > 0 && runs[last] == node && runs[last + 1] == port && runs[last + 2] == h) {
            runs[last + 3]++;
            return;
        }
        if (RUN * size + RUN > runs.length) {
            runs = Arrays.copyOf(runs, Math.min(RUN * MAX_RUNS, 2 * runs.length));
        }
        runs[RUN * size] = node;
        runs[RUN * size + 1] = port;
        runs[RUN * size + 2] = h;
        runs[RUN * size + 3] = 1;
        size++;
    }

    /**
     * The notifications numbered {@code from} (inclusive, from 0) to {@code to} (exclusive) among the QP's, counted by
     * source: (node, port, count, held) quadruplets ({@link #FIELDS} longs each; {@code held}: those whose packet a
     * pause held at that port), most first, then by node and port; a node of {@link #UNKNOWN} counts those whose
     * source is not known.
     */
    public long[] bySource(long from, long to) {
        long[][] found = new long[0][];
        long at = 0;
        for (int r = 0; r < size && at < to; r++) {
            long count = runs[RUN * r + 3];
            long lo = Math.max(at, from);
            long hi = Math.min(at + count, to);
            at += count;
            if (hi <= lo) {
                continue;
            }
            int node = runs[RUN * r];
            int port = runs[RUN * r + 1];
            long held = runs[RUN * r + 2] == 1 ? hi - lo : 0;
            long[] source = null;
            for (long[] f : found) {
                if (f[0] == node && f[1] == port) {
                    source = f;
                    break;
                }
            }
            if (source == null) {
                found = Arrays.copyOf(found, found.length + 1);
                source = found[found.length - 1] = new long[] {node, port, 0, 0};
            }
            source[2] += hi - lo;
            source[3] += held;
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
