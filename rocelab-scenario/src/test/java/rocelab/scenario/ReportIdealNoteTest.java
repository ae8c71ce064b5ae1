package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * What the report tells users its ideal figures are (the GPU network wait of the jobs, the network wait of the
 * requests): the lower bound they are, a relaxation no run with the same ports beats, and not a run at line rate, which
 * the bound is not (it counts each port's work); and the jobs' iteration against a GPU's own span.
 */
class ReportIdealNoteTest {
    @TempDir
    Path tmp;

    private String report(String example) throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample(example), Simulation.Model.FLOW)
                .run(ProgressListener.NONE);
        Path dir = tmp.resolve(example);
        ReportWriter.writeRun(dir, r, Map.of());
        return Files.readString(dir.resolve("report.html")).replace("&#39;", "'");
    }

    @Test
    void shouldCallTheJobsIdealALowerBoundAndSayWhatTheIterationIs() throws Exception {
        String html = report("train-3d-rail");

        assertThat(html).contains("Jobs: what the network cost the GPUs")
                .contains("Ideal: a lower bound of the same job or service alone (the workload's other items, such as"
                        + " background traffic on the same RNICs, show as network wait, not in the ideal) on an ideal"
                        + " network")
                .contains("no run on a fabric with these ports ends earlier")
                .contains("Per iteration: from one iteration's end (its last rank's) to the next's, the rate at"
                        + " which the job finishes iterations")
                .contains("An iteration itself runs from its first compute or send, or a delay that one waited for"
                        + " (a rank that only waits for another rank's data has not started it), to the last rank's"
                        + " end; where iterations overlap (a pipeline) that span is longer")
                .doesNotContain("every message at line rate");
    }

    @Test
    void shouldCallTheRequestsIdealALowerBound() throws Exception {
        String html = report("agentic-inference");

        assertThat(html).contains("Network wait: E2E minus the same request's ideal E2E with the same schedule. Ideal:"
                + " a lower bound of the same job or service alone").doesNotContain("every message at line rate");
    }
}
