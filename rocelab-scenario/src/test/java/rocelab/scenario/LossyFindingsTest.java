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
 * A lossy fabric has no PFC, so victims of pauses are never looked for: the report's findings said "no victims" of
 * lossy-incast, whose header says its background flows are hurt by the incast (two of them 2.75x and 2.92x their
 * time alone). They now say why there are no pauses, and where a shared queue's cost shows instead.
 */
class LossyFindingsTest {
    @Test
    void shouldNotSayNoVictimsOfALossyFabric(@TempDir Path tmp) throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("lossy-incast")).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, r, Map.of());
        String html = Files.readString(tmp.resolve("report.html"));
        assertThat(html).contains("no PFC on a lossy fabric: no pauses, so no pause propagation, deadlock or PFC"
                + " victims; flows that share a congested queue are slowed by it directly")
                .doesNotContain("no deadlock, no pause propagation and no victims");
        assertThat(r.flows()).anyMatch(f -> f.slowdown() > 2.5);
    }
}
