package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import rocelab.workload.graph.TaskGraph;

/** All-to-all: every host writes {@code sizeBytes} to every other host, all at once (n x (n-1) flows). */
public record AllToAllTraffic(long sizeBytes, long startPs) implements TrafficSpec {
    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        List<FlowSpec> flows = new ArrayList<>((int) Math.min(Integer.MAX_VALUE - 8, flowCount(hostCount)));
        for (int s = 0; s < hostCount; s++) {
            for (int d = 0; d < hostCount; d++) {
                if (s != d) {
                    flows.add(new FlowSpec(s, d, sizeBytes, startPs));
                }
            }
        }
        return flows;
    }

    /** Adds the flows one by one: no list of n x (n - 1) flows besides the graph's own. */
    @Override
    public void addTo(TaskGraph graph, int hostCount, SplittableRandom random) {
        for (int s = 0; s < hostCount; s++) {
            for (int d = 0; d < hostCount; d++) {
                if (s != d) {
                    graph.flow(s, d, sizeBytes, -1, -1, startPs);
                }
            }
        }
    }

    @Override
    public long flowCount(int hostCount) {
        return (long) hostCount * (hostCount - 1);
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
