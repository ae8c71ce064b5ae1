package rocelab.observe.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlowdownBySizeTest {
    /** A completed flow of {@code size} bytes whose FCT is {@code slowdown} times its ideal of 10 us. */
    private static FlowRecord flow(int id, long size, double slowdown) {
        long ideal = 10_000_000L;
        return new FlowRecord(id, 0, 1, size, 0, -1, Math.round(ideal * slowdown), ideal, false, id, 0);
    }

    @Test
    void shouldCutTheFlowsBySizeIntoTwentyBinsOfEqualCounts() {
        List<FlowRecord> flows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // Sizes 1,000 .. 200,000 listed out of order; slowdown 1 + i % 10 / 10.
            int k = (i * 37) % 200;
            flows.add(flow(i, 1_000L * (k + 1), 1 + (k % 10) / 10.0));
        }
        SlowdownBySize s = SlowdownBySize.of(flows);
        assertThat(s.bins()).hasSize(20);
        for (int b = 0; b < 20; b++) {
            SlowdownBySize.Bin bin = s.bins().get(b);
            assertThat(bin.flows()).isEqualTo(10);
            assertThat(bin.sizeMinBytes()).isEqualTo(1_000L * (10 * b + 1));
            assertThat(bin.sizeMaxBytes()).isEqualTo(1_000L * (10 * b + 10));
            // Slowdowns 1.0 .. 1.9 in each bin: nearest rank p50 = the 5th = 1.4, p95 and p99 the 10th = 1.9.
            assertThat(bin.slowdownP50()).isEqualTo(1.4);
            assertThat(bin.slowdownP95()).isEqualTo(1.9);
            assertThat(bin.slowdownP99()).isEqualTo(1.9);
            assertThat(bin.slowdownMax()).isEqualTo(1.9);
            assertThat(bin.slowdownMean()).isCloseTo(1.45, org.assertj.core.api.Assertions.within(1e-9));
            assertThat(bin.fctP50Ps()).isEqualTo(14_000_000L);
        }
    }

    @Test
    void shouldNeverSplitOneSizeBetweenBins() {
        List<FlowRecord> flows = new ArrayList<>();
        for (int i = 0; i < 90; i++) {
            flows.add(flow(i, 4096, 1.0));
        }
        for (int i = 90; i < 100; i++) {
            flows.add(flow(i, 1 << 20, 2.0));
        }
        SlowdownBySize s = SlowdownBySize.of(flows);
        assertThat(s.bins()).hasSize(2);
        assertThat(s.bins().get(0).flows()).isEqualTo(90);
        assertThat(s.bins().get(0).sizeMaxBytes()).isEqualTo(4096);
        assertThat(s.bins().get(1).flows()).isEqualTo(10);
        assertThat(s.bins().get(1).slowdownP50()).isEqualTo(2.0);
        // One size only: one bin.
        assertThat(SlowdownBySize.of(flows.subList(0, 90)).bins()).hasSize(1);
    }

    @Test
    void shouldLeaveOutFlowsThatDidNotComplete() {
        List<FlowRecord> flows = new ArrayList<>(List.of(flow(0, 100, 1.5), flow(1, 200, 2.5)));
        flows.add(new FlowRecord(2, 0, 1, 300, 0, -1, -1, 10_000_000L, false, 2, 0));
        SlowdownBySize s = SlowdownBySize.of(flows);
        assertThat(s.bins()).hasSize(2);
        assertThat(s.bins().stream().mapToInt(SlowdownBySize.Bin::flows).sum()).isEqualTo(2);
        assertThat(SlowdownBySize.of(List.of()).bins()).isEmpty();
    }

    @Test
    void shouldShareTheFlowsLeftAfterOneSizeTookSeveralBins() {
        // An audit's case: 150 flows of one size (an incast) among 250 of other sizes. The first bin takes the 150;
        // the 19 after it share the 250 left, 13 or 14 each, where fixed 5 % steps left bins of one flow.
        List<FlowRecord> flows = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            flows.add(flow(i, 1000, 1.0));
        }
        for (int i = 0; i < 250; i++) {
            flows.add(flow(150 + i, 2000 + i, 1.0));
        }
        SlowdownBySize s = SlowdownBySize.of(flows);
        assertThat(s.bins()).hasSize(20);
        assertThat(s.bins().get(0).flows()).isEqualTo(150);
        assertThat(s.bins().subList(1, 20)).allSatisfy(b -> assertThat(b.flows()).isBetween(13, 14));
    }
}
