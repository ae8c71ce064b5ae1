package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * The marks count is per hop: cc-held-back's 16,000 data packets were marked 13,338 times, at up to three switches
 * each, and only 5,132 of them arrived marked; the summary printed "13,338 ECN marked", which reads as packets. It
 * says what it counts, beside the packets that arrived marked.
 */
class EcnMarksTest {
    @Test
    void shouldSayTheMarksArePerHopAndHowManyPacketsArrivedMarked() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("cc-held-back")).run(ProgressListener.NONE);
        var net = r.network();
        long marks = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            for (int p = 0; p < net.switchAt(s).portCount(); p++) {
                marks += net.switchAt(s).port(p).counter(PortCounter.ECN_MARKED);
            }
        }
        long arrived = 0;
        for (int h = 0; h < net.hostCount(); h++) {
            arrived += net.nic(h).counter(NicCounter.NP_ECN_MARKED_ROCE_PACKETS);
        }
        assertThat(marks).as("a packet marked at several switches counts once per switch").isGreaterThan(arrived);
        assertThat(arrived).isPositive();
        assertThat(SummaryText.render(r, null)).contains(String.format(Locale.ROOT,
                "congestion  %,d ECN marks (per hop; %,d packets arrived marked)   ", marks, arrived))
                .doesNotContain("ECN marked");
        @SuppressWarnings("unchecked")
        Map<String, Object> counters = (Map<String, Object>) Summary.of(r).get("counters");
        assertThat(counters).containsEntry("ecn_marked", marks).containsEntry("ecn_marked_arrived", arrived);
    }
}
