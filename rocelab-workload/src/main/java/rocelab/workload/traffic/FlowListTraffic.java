package rocelab.workload.traffic;

import java.util.List;
import java.util.SplittableRandom;

/** An explicit list of flows, for example read from a CSV file ({@code src_host,dst_host,size_bytes,start_ns}). */
public record FlowListTraffic(String source, List<FlowSpec> flows) implements TrafficSpec {
    public FlowListTraffic {
        flows = List.copyOf(flows);
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        return flows;
    }

    @Override
    public long flowCount(int hostCount) {
        return flows.size();
    }

    @Override
    public int maxHostIndex() {
        int max = -1;
        for (FlowSpec f : flows) {
            max = Math.max(max, Math.max(f.src(), f.dst()));
        }
        return max;
    }

    @Override
    public long earliestStartPs() {
        long first = Long.MAX_VALUE;
        for (FlowSpec f : flows) {
            first = Math.min(first, f.startPs());
        }
        return first;
    }
}
