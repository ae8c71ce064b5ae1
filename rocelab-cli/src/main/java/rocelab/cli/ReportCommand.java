package rocelab.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.observe.report.ReportWriter;
import rocelab.observe.report.RunFolderException;

/** {@code rocelab report OUTDIR}: (re)builds the HTML report of a finished run from its output files. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Rebuild report.html of a finished run from the files in its output folder.",
            "It needs summary.json, manifest.json, topology.csv and flows.csv (flows_aggregated.csv when the run"
                    + " aggregated its flows); from a packet-level run ports.csv, and queues.csv, links.csv and"
                    + " rates.csv when it sampled; jobs.csv, ranks.csv and timeline.csv together, as"
                    + " requests.csv and llm_calls.csv. A missing one is an error (exit 2). pfc.csv, vl.csv and"
                    + " collectives.csv are written only when the run had them; without them their sections are left"
                    + " out."})
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OUTDIR", description = "A run's output folder (holds summary.json).")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(dir.resolve("summary.json"))) {
            spec.commandLine().getErr().println("error: " + dir + " is not a run's output folder; expected a folder"
                    + " holding summary.json (written by rocelab run)");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        String summary;
        try {
            summary = StandardCharsets.UTF_8.newDecoder()
                    .decode(ByteBuffer.wrap(Files.readAllBytes(dir.resolve("summary.json")))).toString();
        } catch (CharacterCodingException e) {
            summary = "";
        }
        if (!summary.startsWith("{") || !summary.contains("\n  \"scenario\": \"")) {
            spec.commandLine().getErr().println("error: " + dir.resolve("summary.json") + ":1:1: not a summary"
                    + " rocelab run wrote; expected its JSON object with the key scenario first");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        Path out;
        try {
            String missing = ReportWriter.missingFile(dir);
            if (missing != null) {
                spec.commandLine().getErr().println("error: " + dir + " has no " + missing + "; expected the"
                        + " folder as rocelab run wrote it");
                return RocelabCommand.EXIT_BAD_INPUT;
            }
            out = ReportWriter.write(dir);
        } catch (RunFolderException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        } catch (RuntimeException e) {
            // The files were changed after the run (a number that is not one, a missing column): bad input.
            spec.commandLine().getErr().println("error: " + dir + ": the report cannot be built from these files ("
                    + e.getMessage() + "); expected the files of a rocelab run, unchanged");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        spec.commandLine().getOut().println("report  " + out);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
