package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A ring collective over {@code ranks} (one rank per host), as NCCL runs it with one channel: at every step each
 * rank writes one chunk of S/N bytes to the next rank of the ring, and starts its next step when the chunk of the
 * previous step has arrived from the rank before it; one QP per ring connection. AllReduce is 2(N-1) steps
 * (reduce-scatter, then all-gather); AllGather and ReduceScatter are N-1 steps each. {@code sizeBytes} is the
 * nccl-tests size: the whole buffer (AllReduce), the gathered output (AllGather) or the input (ReduceScatter).
 * On a non-blocking fabric the time is steps x S/N / bandwidth plus one step latency per step, and the bus
 * bandwidth (algbw x {@link Op#busFactor}) approaches the payload rate of one link.
 */
public record RingCollectiveTraffic(Op op, int[] ranks, long sizeBytes, long startPs, int iterations)
        implements TrafficSpec {

    /** The ring collectives, with their scenario names and their nccl-tests bus bandwidth factors. */
    public enum Op {
        ALL_REDUCE("allreduce", "AllReduce"),
        ALL_GATHER("allgather", "AllGather"),
        REDUCE_SCATTER("reduce-scatter", "ReduceScatter");

        private final String key;
        private final String title;

        Op(String key, String title) {
            this.key = key;
            this.title = title;
        }

        public String key() {
            return key;
        }

        public String title() {
            return title;
        }

        /** The collective a scenario's traffic kind names, or null. */
        public static Op ofKey(String key) {
            for (Op op : values()) {
                if (op.key.equals(key)) {
                    return op;
                }
            }
            return null;
        }

        /** Ring steps on n ranks. */
        public int steps(int n) {
            return this == ALL_REDUCE ? 2 * (n - 1) : n - 1;
        }

        /** busbw / algbw in nccl-tests: 2(n-1)/n for AllReduce, (n-1)/n for AllGather and ReduceScatter. */
        public double busFactor(int n) {
            return (double) steps(n) / n;
        }
    }

    public RingCollectiveTraffic {
        ranks = ranks.clone();
        if (ranks.length < 2) {
            throw new IllegalArgumentException(op.title() + " needs at least 2 ranks");
        }
        if (sizeBytes < ranks.length) {
            throw new IllegalArgumentException("the buffer must hold at least one byte per rank");
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("a collective runs at least once");
        }
    }

    /** One run of the collective. */
    public RingCollectiveTraffic(Op op, int[] ranks, long sizeBytes, long startPs) {
        this(op, ranks, sizeBytes, startPs, 1);
    }

    /** Steps of one run. */
    public int steps() {
        return op.steps(ranks.length);
    }

    /** Chunk i of the buffer (split as evenly as bytes allow). */
    long chunk(int i) {
        long n = ranks.length;
        return sizeBytes / n + (i < sizeBytes % n ? 1 : 0);
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        int n = ranks.length;
        int total = steps() * iterations;
        List<FlowSpec> flows = new ArrayList<>(n * total);
        // Flow (g, i) is rank i's send at global step g; runs follow each other on the same stream, so the first
        // step of run k+1 waits, like every other step, for the last chunk of run k to reach the rank.
        for (int g = 0; g < total; g++) {
            int s = g % steps();
            for (int i = 0; i < n; i++) {
                // At step s rank i forwards chunk (i - s) mod N; it waits for the previous step's chunk from i-1.
                int chunkIndex = Math.floorMod(i - s, n);
                int after = g == 0 ? -1 : (g - 1) * n + Math.floorMod(i - 1, n);
                flows.add(new FlowSpec(ranks[i], ranks[(i + 1) % n], chunk(chunkIndex), startPs, -1, after, i));
            }
        }
        return flows;
    }

    @Override
    public int maxHostIndex() {
        int max = -1;
        for (int r : ranks) {
            max = Math.max(max, r);
        }
        return max;
    }

    @Override
    public int[] ranks() {
        return ranks.clone();
    }
}
