package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Permutation traffic: every host sends to exactly one other host and receives from exactly one, following a
 * random derangement (no host sends to itself) drawn from the scenario seed.
 */
public record PermutationTraffic(long sizeBytes, long startPs) implements TrafficSpec {
    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        int[] target = derangement(hostCount, random);
        List<FlowSpec> flows = new ArrayList<>(hostCount);
        for (int h = 0; h < hostCount; h++) {
            flows.add(new FlowSpec(h, target[h], sizeBytes, startPs));
        }
        return flows;
    }

    /** A uniformly random derangement by rejection of Fisher-Yates shuffles (expected e tries). */
    static int[] derangement(int n, SplittableRandom random) {
        if (n < 2) {
            throw new IllegalArgumentException("a permutation needs at least 2 hosts");
        }
        int[] p = new int[n];
        while (true) {
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) {
                ok = p[i] != i;
            }
            if (ok) {
                return p;
            }
        }
    }

    @Override
    public long flowCount(int hostCount) {
        return hostCount;
    }

    @Override
    public int maxHostIndex() {
        return -1;
    }

    @Override
    public long earliestStartPs() {
        return startPs;
    }
}
