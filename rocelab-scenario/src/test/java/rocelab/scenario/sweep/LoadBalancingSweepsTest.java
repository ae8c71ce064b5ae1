package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.scenario.read.SweepReader;

/**
 * The load-balancing comparisons (scenarios/sweeps/load-balancing-*.yaml): every one reads, with its eight points;
 * B runs here and shows what docs/load-balancing.md concludes from it (B2 and the ring are too long for a unit test).
 */
class LoadBalancingSweepsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"load-balancing-B", "load-balancing-B2", "load-balancing-ring-256"})
    void shouldReadEveryModeWithAndWithoutOoo(String name) throws Exception {
        SweepPlan plan = new SweepReader().read(Path.of("../scenarios/sweeps/" + name + ".yaml"));
        assertThat(plan.keys()).containsExactly("switch.load-balancing.mode", "nic.ooo");
        assertThat(plan.points()).hasSize(8);
    }

    @Test
    void shouldShowOnBThatPerPacketModesWithOooBeatEcmpAndFlowletsDoNot() throws Exception {
        SweepPlan all = new SweepReader().read(Path.of("../scenarios/sweeps/load-balancing-B.yaml"));
        // Four points (the suite's time: each is a run of B; the in-order per-packet points resend millions of packets
        // and take far longer, their go-back-N is checked on small fabrics by ReorderingRuleTest and the ooo tests).
        Set<String> wanted = Set.of("ecmp/false", "adaptive/true", "spray/true", "flowlet/false");
        SweepPlan plan = new SweepPlan(all.sweepFile(), all.baseScenario(), all.keys(), all.values(), all.combine(),
                all.model(), all.metrics(), all.points().stream()
                        .filter(p -> wanted.contains(String.join("/", p.values()))).toList());
        assertThat(plan.points()).hasSize(4);
        SweepResults r = new LocalSweep(plan, dir.resolve("b"), 2, LocalSweep.Listener.NONE).run().results();
        assertThat(r.failed()).isZero();
        Map<String, Map<String, String>> by = new LinkedHashMap<>();
        for (var row : r.rows()) {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                m.put(r.header().get(i), row.get(i));
            }
            by.put(m.get("switch.load-balancing.mode") + "/" + m.get("nic.ooo"), m);
        }
        double ecmpP99 = num(by, "ecmp/false", "flows.fct_us.p99");
        for (String mode : new String[] {"adaptive", "spray"}) {
            // Out-of-order placement: reordered but never resent, and every flow close to its ideal.
            assertThat(num(by, mode + "/true", "counters.retransmitted_packets")).isZero();
            assertThat(num(by, mode + "/true", "counters.out_of_sequence")).isPositive();
            assertThat(num(by, mode + "/true", "flows.fct_us.p99")).isLessThan(ecmpP99 / 4);
            assertThat(num(by, mode + "/true", "flows.slowdown.p99")).isLessThan(1.2);
        }
        // Every flow at the same rate: adaptive and spray are even (within 2 %), adaptive reordering fewer packets.
        assertThat(num(by, "adaptive/true", "flows.fct_us.p99"))
                .isCloseTo(num(by, "spray/true", "flows.fct_us.p99"), org.assertj.core.data.Percentage.withPercentage(2));
        assertThat(num(by, "adaptive/true", "counters.out_of_sequence"))
                .isLessThan(num(by, "spray/true", "counters.out_of_sequence"));
        // Flowlets at line rate keep order, and barely balance.
        assertThat(num(by, "flowlet/false", "counters.retransmitted_packets")).isZero();
        assertThat(num(by, "flowlet/false", "counters.out_of_sequence")).isZero();
        assertThat(num(by, "flowlet/false", "flows.fct_us.p99")).isGreaterThan(ecmpP99 * 0.8);
    }

    /**
     * scenarios/sweeps/multi-plane.yaml, all ten points (each about a second): what docs/load-balancing.md concludes
     * from its table.
     */
    @Test
    void shouldShowThatSprayingOverPlanesNeedsAdaptivePlanesAndOneQueuePairGetsOnePlane() throws Exception {
        SweepPlan plan = new SweepReader().read(Path.of("../scenarios/sweeps/multi-plane.yaml"));
        assertThat(plan.points()).hasSize(10);
        SweepResults r = new LocalSweep(plan, dir.resolve("planes"), 2, LocalSweep.Listener.NONE).run().results();
        assertThat(r.failed()).isZero();
        Map<String, Map<String, String>> by = new LinkedHashMap<>();
        for (var row : r.rows()) {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                m.put(r.header().get(i), row.get(i));
            }
            by.put(m.get("topology.planes") + "/" + m.get("topology.plane-selection") + "/"
                    + m.get("switch.load-balancing.mode"), m);
        }
        assertThat(by).hasSize(10);
        for (var point : by.values()) {
            assertThat(Double.parseDouble(point.get("counters.packets_dropped"))).isZero();
        }
        double single = num(by, "1/per-qp/adaptive", "flows.fct_us.p99");
        for (int planes : new int[] {2, 4}) {
            // Adaptive planes and spraying RNICs: as one plane of the RNIC's whole rate, nothing resent.
            // (2 planes within 2 %, 4 within 6 %: docs/load-balancing.md)
            assertThat(num(by, planes + "/spray/adaptive", "flows.fct_us.p99") / single)
                    .isBetween(0.98, planes == 2 ? 1.03 : 1.07);
            assertThat(num(by, planes + "/spray/adaptive", "counters.retransmitted_packets")).isZero();
            // One QP on one plane: nearly P times as long (the serialisation is; the path latency is not).
            double perQp = num(by, planes + "/per-qp/adaptive", "flows.fct_us.p50")
                    / num(by, "1/per-qp/adaptive", "flows.fct_us.p50");
            assertThat(perQp).isBetween(0.8 * planes, 1.0 * planes);
            // ECMP planes: per-QP keeps order; spraying over them resends (skew beyond ooo-reorder) and loses the tail.
            assertThat(num(by, planes + "/per-qp/ecmp", "counters.out_of_sequence")).isZero();
            assertThat(num(by, planes + "/spray/ecmp", "counters.selective_retransmitted_packets")).isPositive();
            assertThat(num(by, planes + "/spray/ecmp", "flows.fct_us.p99"))
                    .isGreaterThan(num(by, "1/per-qp/ecmp", "flows.fct_us.p99") * 1.5);
        }
    }

    private static double num(Map<String, Map<String, String>> by, String point, String metric) {
        return Double.parseDouble(by.get(point).get(metric));
    }
}
