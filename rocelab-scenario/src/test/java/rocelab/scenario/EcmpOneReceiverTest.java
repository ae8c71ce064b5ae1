package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * The ECMP collision lines point at spraying and adaptive routing; in an incast every colliding flow goes to one
 * receiver, whose port stays their bottleneck, and spreading them only moves the queue there (an audit re-ran
 * lint-l9 adaptive: no faster, the peak queue moved to leaf0's port towards h0). The summary, summary.json and the
 * report say so when every collision port's packets went to one receiver, and not otherwise.
 */
class EcmpOneReceiverTest {
    @Test
    void shouldSayThatSpreadingMovesTheQueueWhenEveryCollidingPacketGoesToOneReceiver(@TempDir Path tmp)
            throws Exception {
        RunResult incast = Simulation.assemble(new ScenarioReader().readExample("lint-l9-np-off"))
                .run(ProgressListener.NONE);
        var found = incast.ecmpLog().collisions(incast.flows());
        assertThat(found).isNotEmpty().allSatisfy(c -> {
            assertThat(c.flows()).allSatisfy(f -> assertThat(f.flow().dst()).isZero());
            assertThat(EcmpLog.oneReceiver(c)).isZero();
        });
        String note = "went to one receiver (h0): its port stays their bottleneck, so spreading them over the idle"
                + " ports would move their queue there, not remove it";
        assertThat(SummaryText.render(incast, null)).contains(note);
        ReportWriter.writeRun(tmp, incast, Map.of());
        assertThat(Files.readString(tmp.resolve("summary.json"))).contains("\"receiver\": \"h0\"");
        assertThat(Files.readString(tmp.resolve("report.html"))).contains(note);

        // A permutation: each port's colliding flows go to different hosts, so nothing is said.
        RunResult permutation = Simulation.assemble(new ScenarioReader().read(Path.of("..", "scenarios", "bench",
                "bench-B.yaml"))).run(ProgressListener.NONE);
        assertThat(permutation.ecmpLog().collisions(permutation.flows()))
                .anyMatch(c -> EcmpLog.oneReceiver(c) < 0);
        assertThat(SummaryText.render(permutation, null)).contains("ECMP keeps every packet").doesNotContain(note);
    }
}
