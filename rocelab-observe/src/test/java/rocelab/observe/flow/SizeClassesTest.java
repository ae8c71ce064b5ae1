package rocelab.observe.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SizeClassesTest {
    private static FlowRecord flow(int id, long size, double slowdown) {
        long ideal = 10_000_000L;
        return new FlowRecord(id, 0, 1, size, 0, -1, Math.round(ideal * slowdown), ideal, false, id, 0);
    }

    @Test
    void shouldPutEachFlowInItsClassByItsSizeWithTheBoundsInclusiveAbove() {
        List<FlowRecord> flows = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            flows.add(flow(i, 100_000, i / 10.0)); // exactly 100 kB: the first class
        }
        flows.add(flow(101, 100_001, 3.0));
        flows.add(flow(102, 10_000_000, 4.0));
        flows.add(flow(103, 10_000_001, 5.0));
        flows.add(new FlowRecord(104, 0, 1, 50, 0, -1, -1, 10_000_000L, false, 104, 0)); // not completed
        List<SizeClasses.SizeClass> c = SizeClasses.of(flows);
        assertThat(c).extracting(SizeClasses.SizeClass::name).containsExactly("up_to_100kb", "100kb_to_10mb",
                "above_10mb");
        assertThat(c).extracting(SizeClasses.SizeClass::flows).containsExactly(100, 2, 1);
        // The 50 B flow that did not complete: counted apart, not in the quantiles.
        assertThat(c).extracting(SizeClasses.SizeClass::notCompleted).containsExactly(1, 0, 0);
        // Slowdowns 0.1 .. 10.0: nearest rank p50 the 50th, p95 the 95th, p99 the 99th.
        assertThat(c.get(0).p50()).isEqualTo(5.0);
        assertThat(c.get(0).p95()).isEqualTo(9.5);
        assertThat(c.get(0).p99()).isEqualTo(9.9);
        assertThat(c.get(1).p50()).isEqualTo(3.0);
        assertThat(c.get(1).p99()).isEqualTo(4.0);
        assertThat(c.get(2).p99()).isEqualTo(5.0);
    }

    @Test
    void shouldSayNothingOfFlowsOfOneSize() {
        assertThat(SizeClasses.of(List.of(flow(0, 4096, 1.0), flow(1, 4096, 2.0)))).isEmpty();
        assertThat(SizeClasses.of(List.of())).isEmpty();
        List<SizeClasses.SizeClass> two = SizeClasses.of(List.of(flow(0, 4096, 1.0), flow(1, 8192, 2.0)));
        assertThat(two.get(2).flows()).isZero();
        assertThat(two.get(2).p99()).isNaN();
    }
}
