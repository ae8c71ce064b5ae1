package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;

/**
 * A collective traffic item with {@code iterations} runs back to back: its time covers every run, its algbw and busbw
 * are per run, as nccl-tests divides the time of its timed loop by its iterations. Before, algbw was the size over all
 * the runs' time: an AllReduce of 16 MiB run 4 times on a non-blocking 400G switch said busbw 11.90 GB/s, the same call
 * run once 47.61 GB/s.
 */
class CollectiveRunsTest {
    @Test
    void shouldGiveThePerRunBandwidthOfACollectiveRunBackToBack() {
        RunResult r = Scenarios.assemble("""
                name: runs
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 400Gbps, delay: 500ns}}
                nic: {cc: none, ack-every: 8}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: 16MiB, iterations: 4}
                  - {kind: allreduce, ranks: 0-7, size: 16MiB, start: 5ms}
                """).run(ProgressListener.NONE);
        CollectiveRecord four = r.collectives().get(0);
        CollectiveRecord once = r.collectives().get(1);
        assertThat(four.runs()).isEqualTo(4);
        assertThat(once.runs()).isEqualTo(1);
        assertThat(four.timePs()).as("the four runs' time").isGreaterThan(39 * once.timePs() / 10);
        assertThat(four.busbwGBps()).as("per run: the same call's busbw").isCloseTo(once.busbwGBps(), within(0.5))
                .isGreaterThan(45.0);
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) ((List<?>) Summary.of(r).get("collectives")).get(0);
        assertThat(json.get("runs")).isEqualTo(4);
        assertThat((Double) ((Number) json.get("busbw_gbytes_per_s")).doubleValue()).isGreaterThan(45.0);
        assertThat(SummaryText.render(r, null)).contains("16,777,216 bytes x 4 runs back to back: ", " us per run)");
    }

    /**
     * The runs of one item are one NCCL communicator's: every run sends over the first run's queue pairs, so with the
     * same UDP source ports and the same ECMP paths (an ECMP collision lasts the whole loop, as on a cluster), while
     * another item over the same ranks has connections of its own. At packet and at flow level.
     */
    @Test
    void shouldSendEveryRunOverTheFirstRunsQueuePairs() {
        for (Simulation.Model model : List.of(Simulation.Model.PACKET, Simulation.Model.FLOW)) {
            Simulation sim = Simulation.assemble(Scenarios.parse("""
                    name: runs
                    fabric: {mode: roce-lossless, mtu: 4096}
                    topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                    nic: {cc: none, ack-every: 8}
                    observe: {sample-interval: 0}
                    traffic:
                      - {kind: allreduce, ranks: 0-3, size: 4MB, channels: 2, iterations: 3}
                      - {kind: allreduce, ranks: 0-3, size: 4MB, channels: 2, start: 5ms}
                    """), model, 1);
            RunResult r = sim.run(ProgressListener.NONE);
            // Queue pair and UDP source port of every flow, by pair of hosts: the loop's (before 5 ms), the other's.
            Map<String, Set<String>> loop = new TreeMap<>();
            Map<String, Set<String>> other = new TreeMap<>();
            for (var f : r.flows()) {
                String pair = f.src() + "->" + f.dst();
                (f.startPs() < 5_000_000_000L ? loop : other).computeIfAbsent(pair, k -> new TreeSet<>())
                        .add(f.queuePair() + "/" + f.udpSourcePort());
            }
            assertThat(loop.keySet()).as(model + ": the ring's pairs").containsExactly("0->1", "1->2", "2->3", "3->0");
            for (var e : loop.entrySet()) {
                assertThat(e.getValue()).as(model + ": the loop's queue pairs of " + e.getKey()).hasSize(2);
                assertThat(other.get(e.getKey())).as(model + ": the other item's").hasSize(2)
                        .doesNotContainAnyElementsOf(e.getValue());
            }
        }
    }
}
