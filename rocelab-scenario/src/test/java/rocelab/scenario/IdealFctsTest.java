package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.workload.graph.TaskGraph;

/** The flows' ideal times taken from the table of recent triples are the closed form's, flow by flow. */
class IdealFctsTest {
    @Test
    void shouldGiveEveryFlowTheClosedFormWhenTriplesRepeatAndCollide() {
        Simulation s = Simulation.assemble(Scenarios.parse("""
                name: ideal-fcts
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 0, dst: 5, size: 1000B}
                """), true);
        IdealFlowTime closed = new IdealFlowTime(s.network(), s.config().nic(),
                s.config().switches().forwardingLatencyPs());
        TaskGraph g = new TaskGraph();
        SplittableRandom random = new SplittableRandom(4);
        long[] sizes = {1, 999, 1000, 1001, 4_000_000, 123_456_789};
        // Repeats (a few triples again and again) and many distinct triples (more than the table's slots, so some
        // share a slot and evict each other).
        for (int i = 0; i < 60_000; i++) {
            int src = random.nextInt(16);
            int dst = (src + 1 + random.nextInt(15)) % 16;
            long bytes = random.nextBoolean() ? sizes[random.nextInt(sizes.length)] : random.nextLong(1, 1L << 32);
            g.flow(src, dst, bytes, -1, -1, 0);
        }
        long[] fct = IdealFcts.of(closed, g, g.flowCount());
        for (int i = 0; i < g.flowCount(); i++) {
            assertThat(fct[i]).as("flow %d", i)
                    .isEqualTo(closed.fctPs(g.flowSource(i), g.flowDestination(i), g.flowBytes(i)));
        }
    }
}
