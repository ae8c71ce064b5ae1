package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab report} on a folder whose files were changed after the run: exit 2 and a located message. */
class ReportCommandTest {
    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    private static Path run;

    @BeforeAll
    static void runTheDemo() {
        run = shared.resolve("demo");
        assertThat(CliRun.of("run", "--out", run.toString(), "-q").exitCode()).isZero();
    }

    /** A copy of the demo's folder with one file replaced. */
    private Path withFile(String name, byte[] content) throws IOException {
        Path copy = dir.resolve("copy");
        try (var files = Files.list(run)) {
            Files.createDirectories(copy);
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        Files.write(copy.resolve(name), content);
        return copy;
    }

    private static String rejected(Path folder) {
        CliRun r = CliRun.of("report", folder.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(r.err()).doesNotContain("\tat ", "internal error");
        assertThat(r.errorLines()).hasSize(1);
        return r.errorLines().get(0);
    }

    @Test
    void shouldNameAFileTheReportNeedsWhenTheFolderLacksIt() throws IOException {
        // The report was drawn without them before (no thresholds, no port table, no charts), as if the run had none.
        for (String name : List.of("manifest.json", "flows.csv", "topology.csv", "ports.csv", "queues.csv")) {
            Path f = dir.resolve("without-" + name);
            Files.createDirectories(f);
            try (var files = Files.list(run)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    if (!file.getFileName().toString().equals(name)) {
                        Files.copy(file, f.resolve(file.getFileName()));
                    }
                }
            }

            assertThat(rejected(f)).as(name).startsWith("error: " + f + " has no " + name + " (")
                    .endsWith("); expected the folder as rocelab run wrote it");
            assertThat(f.resolve("report.html")).as("the old report is left alone").hasSameTextualContentAs(
                    run.resolve("report.html"));
        }
        // A file written only when the run had what it holds (the demo has no jobs) is not asked for.
        assertThat(CliRun.of("report", withFile("summary.json", Files.readAllBytes(run.resolve("summary.json")))
                .toString()).exitCode()).isZero();
    }

    /**
     * A folder written before flows.csv had its last column, delivered_bytes (and before throughput.csv): the report
     * rebuilt from it is the one the run drew, byte for byte.
     */
    @Test
    void shouldRebuildTheReportOfAFolderWrittenBeforeDeliveredBytes() throws IOException {
        List<String> rows = Files.readAllLines(run.resolve("flows.csv"));
        assertThat(rows.get(0)).endsWith(",qp_wait_us,delivered_bytes");
        StringBuilder old = new StringBuilder();
        for (String row : rows) {
            old.append(row, 0, row.lastIndexOf(',')).append('\n');
        }
        Path f = withFile("flows.csv", old.toString().getBytes());
        Files.delete(f.resolve("throughput.csv"));
        Files.delete(f.resolve("report.html"));
        assertThat(CliRun.of("report", f.toString()).exitCode()).isZero();
        assertThat(f.resolve("report.html")).hasSameTextualContentAs(run.resolve("report.html"));
    }

    @Test
    void shouldRefuseASummaryRocelabDidNotWrite() throws IOException {
        Path f = withFile("summary.json", "{garbage".getBytes());

        assertThat(rejected(f)).isEqualTo("error: " + f.resolve("summary.json") + ":1:1: not a summary rocelab run"
                + " wrote; expected its JSON object with the key scenario first");
    }

    @Test
    void shouldLocateTheFirstByteThatIsNotText() throws IOException {
        byte[] csv = "flow_id,src\n1,2\n3,\u0000".getBytes();
        byte[] binary = new byte[csv.length + 2];
        System.arraycopy(csv, 0, binary, 0, csv.length);
        binary[csv.length] = (byte) 0xC3;
        binary[csv.length + 1] = (byte) 0x28;
        Path f = withFile("flows.csv", binary);

        assertThat(rejected(f)).isEqualTo("error: " + f.resolve("flows.csv") + ":3:4: not UTF-8 text; expected a CSV"
                + " file as rocelab run writes it");
    }

    @Test
    void shouldLocateARowWithTheWrongNumberOfFields() throws IOException {
        Path f = withFile("ports.csv", "switch,port\nleaf0,1,2\n".getBytes());

        assertThat(rejected(f)).startsWith("error: " + f.resolve("ports.csv") + ":2:1: 3 fields; expected 2");
    }

    @Test
    void shouldLocateANumberThatIsNotOne() throws IOException {
        String flows = Files.readString(run.resolve("flows.csv"));
        Path f = withFile("flows.csv", flows.replaceFirst("\n0,", "\nzero,").replace(",completed,", ",x,")
                .replaceAll("\n(\\d+),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*),([^,]*)", "\n$1,$2,$3,$4,$5,$6,oops")
                .getBytes());

        assertThat(rejected(f)).isEqualTo("error: " + f.resolve("flows.csv") + ":2:1: expected an integer in column"
                + " flow_id, found 'zero'");
    }
}
