package rocelab.workload.traffic;

import java.util.List;
import java.util.SplittableRandom;
import rocelab.workload.graph.TaskGraph;

/** A traffic pattern that expands into concrete flows for a fabric of a given size. */
public sealed interface TrafficSpec
        permits SingleFlowTraffic, IncastTraffic, PermutationTraffic, AllToAllTraffic, FlowListTraffic, DscpTraffic,
                CollectiveTraffic, PoissonTraffic, PerftestTraffic {

    /**
     * Expands the pattern. Patterns that need randomness draw it only from {@code random}, so the same seed
     * always gives the same flows.
     */
    List<FlowSpec> expand(int hostCount, SplittableRandom random);

    /**
     * Adds the pattern to a task graph. Independent flows by default; patterns whose flows wait for each other (the
     * steps of a collective) add their dependencies too.
     */
    default void addTo(TaskGraph graph, int hostCount, SplittableRandom random) {
        for (FlowSpec f : expand(hostCount, random)) {
            graph.flow(f);
        }
    }

    /**
     * How many flows (transfers over the fabric) the pattern makes on a fabric of {@code hostCount} hosts, computed
     * without expanding it (to size a run before it is built); saturates at {@link Long#MAX_VALUE}. For a collective,
     * an estimate from its op, ranks and channels (at least the messages it must send).
     */
    long flowCount(int hostCount);

    /** Largest host index the pattern names explicitly, or -1 when it adapts to the fabric size. */
    int maxHostIndex();

    /** When the pattern's first flow may start (its {@code start}; a flow list's earliest), in picoseconds. */
    long earliestStartPs();
}
