package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** N-to-1 incast: every sender writes {@code sizeBytes} to the receiver at the same moment. */
public record IncastTraffic(int[] senders, int receiver, long sizeBytes, long startPs) implements TrafficSpec {
    public IncastTraffic {
        senders = senders.clone();
        for (int s : senders) {
            if (s == receiver) {
                throw new IllegalArgumentException("the receiver " + receiver + " is also listed as a sender");
            }
        }
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        List<FlowSpec> flows = new ArrayList<>(senders.length);
        for (int s : senders) {
            flows.add(new FlowSpec(s, receiver, sizeBytes, startPs));
        }
        return flows;
    }

    @Override
    public long flowCount(int hostCount) {
        return senders.length;
    }

    @Override
    public int maxHostIndex() {
        int max = receiver;
        for (int s : senders) {
            max = Math.max(max, s);
        }
        return max;
    }

    @Override
    public int[] senders() {
        return senders.clone();
    }

    @Override
    public long earliestStartPs() {
        return startPs;
    }
}
