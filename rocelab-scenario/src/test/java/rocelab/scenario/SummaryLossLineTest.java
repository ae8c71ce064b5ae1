package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.DropReason;
import rocelab.observe.RunResult;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * The printed summary's loss line names every reason that dropped packets, whichever it is: the oversize drops of
 * lint-l11-mtu (a 4096-byte RoCE payload through a 1500-byte spine port) were printed as "(buffer full 0, headroom
 * exceeded 0)", which hid the cause.
 */
class SummaryLossLineTest {
    private static String line(String text, String start) {
        return Arrays.stream(text.split("\n")).filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }

    @Test
    void shouldNameTheReasonOfEveryDrop() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("lint-l11-mtu")).run(ProgressListener.NONE);
        long oversize = r.totals().dropped(DropReason.OVERSIZE);
        assertThat(oversize).isPositive().isEqualTo(r.totals().packetsDropped());
        assertThat(line(SummaryText.render(r, null), "loss"))
                .contains(String.format(Locale.ROOT, "%,d dropped (oversize %,d)", oversize, oversize))
                .doesNotContain("buffer full");
    }

    @Test
    void shouldNameNoReasonWhenNothingWasDropped() {
        RunResult r = Simulation.assemble(new ScenarioReader().readDemo()).run(ProgressListener.NONE);
        assertThat(line(SummaryText.render(r, null), "loss")).startsWith("loss        0 dropped   0 retransmitted");
    }
}
