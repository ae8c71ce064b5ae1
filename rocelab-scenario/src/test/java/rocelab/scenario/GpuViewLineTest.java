package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * The summary's GPU view says what each figure is: the job's time per iteration (from one iteration's end to the
 * next) and, per GPU, its own span with the three parts that add up to it, so nobody adds compute, exposed communication and
 * idle time and wonders why they fall short of the iteration.
 */
class GpuViewLineTest {
    private static final Pattern LINE = Pattern.compile("GPU view  per iteration ([0-9.]+) ms, from one iteration's"
            + " end to the next \\(ideal ([0-9.]+) ms\\)(?:; iterations overlap: [^;]*)?; per GPU, over its own"
            + " ([0-9.]+) ms: compute ([0-9.]+) ms, exposed communication ([0-9.]+) ms, idle ([0-9.]+) ms");

    @Test
    void shouldPrintAGpusOwnSpanThatItsPartsAddUpTo() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("train-3d-rail"), Simulation.Model.FLOW)
                .run(ProgressListener.NONE);
        String text = SummaryText.render(r, "out");

        Matcher m = LINE.matcher(text);
        assertThat(m.find()).as("the GPU view line in:%n%s", text).isTrue();
        double iteration = Double.parseDouble(m.group(1));
        double own = Double.parseDouble(m.group(3));
        double parts = Double.parseDouble(m.group(4)) + Double.parseDouble(m.group(5)) + Double.parseDouble(m.group(6));
        assertThat(parts).as("compute + exposed + idle").isCloseTo(own, org.assertj.core.data.Offset.offset(0.003));
        assertThat(iteration).as("the time per iteration against its ideal, measured alike")
                .isGreaterThanOrEqualTo(Double.parseDouble(m.group(2)));
        assertThat(r.jobs().get(0).perIterationUs() / 1e3).isCloseTo(iteration,
                org.assertj.core.data.Offset.offset(0.001));
    }
}
