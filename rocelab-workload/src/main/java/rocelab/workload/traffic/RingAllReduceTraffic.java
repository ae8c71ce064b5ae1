package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Ring AllReduce of a {@code sizeBytes} buffer over {@code ranks} (one rank per host): 2(N-1) steps (reduce-scatter,
 * then all-gather); at every step each rank writes one chunk of S/N bytes to the next rank of the ring, and starts
 * its next step when the chunk of the previous step has arrived from the rank before it (NCCL's ring, one channel,
 * one QP per ring connection). Its closed form on a non-blocking fabric is 2(N-1)/N x S / bandwidth plus 2(N-1)
 * step latencies, and its bus bandwidth (nccl-tests) is algbw x 2(N-1)/N.
 */
public record RingAllReduceTraffic(int[] ranks, long sizeBytes, long startPs) implements TrafficSpec {
    public RingAllReduceTraffic {
        ranks = ranks.clone();
        if (ranks.length < 2) {
            throw new IllegalArgumentException("an AllReduce needs at least 2 ranks");
        }
        if (sizeBytes < ranks.length) {
            throw new IllegalArgumentException("the buffer must hold at least one byte per rank");
        }
    }

    /** Steps of the ring: 2(N-1). */
    public int steps() {
        return 2 * (ranks.length - 1);
    }

    /** The chunk rank i sends at every step (the buffer split as evenly as bytes allow). */
    long chunk(int i) {
        long n = ranks.length;
        return sizeBytes / n + (i < sizeBytes % n ? 1 : 0);
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        int n = ranks.length;
        List<FlowSpec> flows = new ArrayList<>(n * steps());
        for (int s = 0; s < steps(); s++) {
            for (int i = 0; i < n; i++) {
                // At step s rank i forwards chunk (i - s) mod N; it waits for the previous step's chunk from i-1.
                int chunkIndex = Math.floorMod(i - s, n);
                int after = s == 0 ? -1 : (s - 1) * n + Math.floorMod(i - 1, n);
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
