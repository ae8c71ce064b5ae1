package rocelab.workload.traffic;

import java.util.List;
import java.util.SplittableRandom;

/** One flow between two named hosts. */
public record SingleFlowTraffic(int src, int dst, long sizeBytes, long startPs) implements TrafficSpec {
    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        return List.of(new FlowSpec(src, dst, sizeBytes, startPs));
    }

    @Override
    public long flowCount(int hostCount) {
        return 1;
    }

    @Override
    public int maxHostIndex() {
        return Math.max(src, dst);
    }

    @Override
    public long earliestStartPs() {
        return startPs;
    }
}
