package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * rates.csv written on a thread of its own (a large run's, beside the other files and the report, which reads the
 * same rows at the same time) is the same folder as rates.csv written in turn; rows partly on the temporary file
 * and partly on the heap included.
 */
class RatesOnTheirOwnTest {
    @TempDir
    Path tmp;

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldWriteTheSameFolderWithRatesOnTheirOwnThread() throws Exception {
        RunResult run = Simulation.assemble(new ScenarioReader().readExample("lossless-dcqcn"), Simulation.Model.PACKET,
                1).run(ProgressListener.NONE);
        assertThat(run.series().rateRows()).isGreaterThan(100);

        Path inTurn = tmp.resolve("in-turn");
        new RunWriter(Integer.MAX_VALUE, Integer.MAX_VALUE).write(inTurn, run, Map.of());
        Path apart = tmp.resolve("apart");
        new RunWriter(Integer.MAX_VALUE, 0).write(apart, run, Map.of());
        // The command's way: the report reads the rows on its own thread while rates.csv is written on another.
        Path withReport = tmp.resolve("with-report");
        ReportWriter.writeRun(withReport, run, Map.of());

        assertThat(files(apart)).isEqualTo(files(inTurn)).contains("rates.csv");
        for (String f : files(inTurn)) {
            assertThat(Files.readAllBytes(apart.resolve(f))).as(f).isEqualTo(Files.readAllBytes(inTurn.resolve(f)));
        }
        assertThat(Files.readAllBytes(withReport.resolve("rates.csv")))
                .isEqualTo(Files.readAllBytes(inTurn.resolve("rates.csv")));
    }
}
