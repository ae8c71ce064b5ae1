package rocelab.workload.traffic;

import java.util.List;
import java.util.SplittableRandom;

/** A traffic pattern whose flows carry their own DSCP, so switches classify them into another traffic class. */
public record DscpTraffic(TrafficSpec inner, int dscp) implements TrafficSpec {
    public DscpTraffic {
        if (dscp < 0 || dscp > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + dscp);
        }
        if (inner instanceof CollectiveTraffic) {
            throw new IllegalArgumentException("a collective carries its DSCP in its call");
        }
        if (inner instanceof DscpTraffic) {
            throw new IllegalArgumentException("a traffic item has one DSCP");
        }
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        return inner.expand(hostCount, random).stream()
                .map(f -> new FlowSpec(f.src(), f.dst(), f.sizeBytes(), f.startPs(), dscp))
                .toList();
    }

    @Override
    public long flowCount(int hostCount) {
        return inner.flowCount(hostCount);
    }

    @Override
    public int maxHostIndex() {
        return inner.maxHostIndex();
    }

    @Override
    public long earliestStartPs() {
        return inner.earliestStartPs();
    }
}
