package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.FlowsCsvWriter;
import rocelab.observe.output.RunWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * flows.csv started before the run's result is whole ({@link FlowsCsvWriter}, as the command does for a run with
 * millions of flows) is the same file as {@link RunWriter} writes itself; a writer started for other records is not
 * taken for the result's; and what writing it throws reaches the caller.
 */
class FlowsCsvWriterTest {
    @TempDir
    static Path tmp;

    private static RunResult run;

    @BeforeAll
    static void runALosslessExample() throws Exception {
        // PFC on: flows.csv's pause and victim columns are read from the run's PFC log.
        run = Simulation.assemble(new ScenarioReader().readExample("lossless-dcqcn"), Simulation.Model.PACKET, 1)
                .run(ProgressListener.NONE);
    }

    private static String flowsCsv(Path dir) throws IOException {
        return Files.readString(dir.resolve("flows.csv"));
    }

    /** The folder RunWriter writes into {@code name} with flows.csv started beforehand from {@code startedFor}. */
    private static Path writtenWith(String name, List<FlowRecord> startedFor) throws IOException {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        FlowsCsvWriter started = FlowsCsvWriter.start(dir, startedFor, run.pfcLog(), run.creditLog(), run.ecmpLog(),
                run.simulatedPs(),
                run.packetLevel());
        new RunWriter(Integer.MAX_VALUE).write(dir, run, Map.of(), () -> { }, started);
        return dir;
    }

    private static Path writtenByItself(String name) throws IOException {
        Path dir = tmp.resolve(name);
        new RunWriter(Integer.MAX_VALUE).write(dir, run, Map.of());
        return dir;
    }

    @Test
    void shouldWriteTheSameFlowsCsvStartedEarlyAsRunWriterWritesItself() throws IOException {
        Path itself = writtenByItself("itself");

        Path early = writtenWith("early", run.flows());

        assertThat(flowsCsv(early)).startsWith("flow_id,").contains(",completed,").isEqualTo(flowsCsv(itself));
        assertThat(Files.readString(early.resolve(RunWriter.SUMMARY))).isEqualTo(RunWriter.summaryJson(run));
    }

    @Test
    void shouldWriteTheResultsOwnFlowsCsvWhenTheStartedOneIsForOtherRecords() throws IOException {
        Path itself = writtenByItself("own");

        // One flow fewer: a file that is not the result's.
        Path other = writtenWith("other", run.flows().subList(1, run.flows().size()));

        assertThat(flowsCsv(other)).isEqualTo(flowsCsv(itself));
    }

    @Test
    void shouldThrowWhatWritingTheFileThrewWhenAwaited() throws IOException {
        Path notAFolder = tmp.resolve("a-file");
        Files.writeString(notAFolder, "not a folder");
        FlowsCsvWriter started = FlowsCsvWriter.start(notAFolder, run.flows(), run.pfcLog(), run.creditLog(), run.ecmpLog(),
                run.simulatedPs(),
                run.packetLevel());

        assertThatThrownBy(started::await).isInstanceOf(IOException.class);
        started.close();
    }
}
