package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
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
}
