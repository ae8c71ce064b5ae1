package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/**
 * Classes in the strict set are served first, highest first; the others share the rest by deficit weighted
 * round robin (Shreedhar and Varghese): each visit adds weight x quantum bytes of credit to a class, which sends
 * while its head fits in the credit. An idle class loses its credit.
 */
public final class DwrrScheduler implements TransmitScheduler {
    public static final int QUANTUM_BYTES = 1500;

    private final int strictMask;
    private final long[] quantum;
    private final long[] deficit;
    private int current;
    private boolean visited;

    public DwrrScheduler(int[] weights, int strictMask) {
        this.strictMask = strictMask;
        this.quantum = new long[weights.length];
        this.deficit = new long[weights.length];
        for (int i = 0; i < weights.length; i++) {
            quantum[i] = (long) weights[i] * QUANTUM_BYTES;
        }
    }

    @Override
    public int nextClass(PacketFifo[] queues, int eligibleMask) {
        int n = queues.length;
        for (int tc = n - 1; tc >= 0; tc--) {
            if ((strictMask & eligibleMask & (1 << tc)) != 0 && !queues[tc].isEmpty()) {
                return tc;
            }
        }
        boolean any = false;
        for (int tc = 0; tc < n; tc++) {
            boolean backlogged = !queues[tc].isEmpty();
            if (!backlogged) {
                deficit[tc] = 0;
            } else if ((strictMask & (1 << tc)) == 0 && (eligibleMask & (1 << tc)) != 0) {
                any = true;
            }
        }
        if (!any) {
            return -1;
        }
        while (true) {
            int tc = current;
            boolean candidate = (strictMask & (1 << tc)) == 0
                    && (eligibleMask & (1 << tc)) != 0
                    && !queues[tc].isEmpty();
            if (candidate) {
                if (!visited) {
                    deficit[tc] += quantum[tc];
                    visited = true;
                }
                int head = queues[tc].peek().frameBytes();
                if (deficit[tc] >= head) {
                    deficit[tc] -= head;
                    return tc;
                }
            }
            current = (current + 1) % n;
            visited = false;
        }
    }
}
