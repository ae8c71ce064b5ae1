package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/**
 * Classes in the strict set are served first, highest first; the others share the rest by deficit weighted
 * round robin (Shreedhar and Varghese): each visit adds weight x quantum bytes of credit to a class, which sends
 * while its head fits in the credit. A class that is not ready loses its credit, as in DRR.
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
    public int nextClass(PacketFifo[] queues, int readyMask) {
        int strictReady = readyMask & strictMask;
        if (strictReady != 0) {
            return 31 - Integer.numberOfLeadingZeros(strictReady);
        }
        int ready = readyMask & ~strictMask;
        if ((ready & (ready - 1)) == 0) {
            // One class alone: DRR degenerates to FIFO service of that class.
            int tc = Integer.numberOfTrailingZeros(ready);
            deficit[tc] = 0;
            current = tc;
            visited = false;
            return tc;
        }
        int n = queues.length;
        while (true) {
            int tc = current;
            if ((ready & (1 << tc)) != 0) {
                if (!visited) {
                    deficit[tc] += quantum[tc];
                    visited = true;
                }
                int head = queues[tc].peek().frameBytes();
                if (deficit[tc] >= head) {
                    deficit[tc] -= head;
                    return tc;
                }
            } else {
                deficit[tc] = 0;
            }
            current = (current + 1) % n;
            visited = false;
        }
    }
}
