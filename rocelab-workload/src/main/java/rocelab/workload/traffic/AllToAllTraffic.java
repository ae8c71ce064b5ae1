package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** All-to-all: every host writes {@code sizeBytes} to every other host, all at once (n x (n-1) flows). */
public record AllToAllTraffic(long sizeBytes, long startPs) implements TrafficSpec {
    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        List<FlowSpec> flows = new ArrayList<>(hostCount * (hostCount - 1));
        for (int s = 0; s < hostCount; s++) {
            for (int d = 0; d < hostCount; d++) {
                if (s != d) {
                    flows.add(new FlowSpec(s, d, sizeBytes, startPs));
                }
            }
        }
        return flows;
    }

    @Override
    public int maxHostIndex() {
        return -1;
    }
}
