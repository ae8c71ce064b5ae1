package rocelab.workload.traffic;

import java.util.List;
import java.util.SplittableRandom;

/** A traffic pattern that expands into concrete flows for a fabric of a given size. */
public sealed interface TrafficSpec
        permits SingleFlowTraffic, IncastTraffic, PermutationTraffic, AllToAllTraffic, FlowListTraffic, DscpTraffic,
                RingCollectiveTraffic {

    /**
     * Expands the pattern. Patterns that need randomness draw it only from {@code random}, so the same seed
     * always gives the same flows.
     */
    List<FlowSpec> expand(int hostCount, SplittableRandom random);

    /** Largest host index the pattern names explicitly, or -1 when it adapts to the fabric size. */
    int maxHostIndex();
}
