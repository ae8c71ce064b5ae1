package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab run} starts flows.csv as soon as the run's flow records exist when the run has many flows (before
 * the ideal figures are there): the folder must be the one written with flows.csv started after the run, file for
 * file, at packet level (PFC victims in flows.csv) and flow level (the ideal figures on the second core).
 */
class EarlyFlowsCsvTest {
    /** The wall-clock fields of summary.json (also embedded in report.html). */
    private static final String WALL_CLOCK = "\"(wall_seconds|events_per_second)\": [0-9.eE+-]+";

    @TempDir
    Path tmp;

    private CliRun run(int earlyFrom, String name, String... args) {
        int previous = RunCommand.earlyFlowsFrom(earlyFrom);
        try {
            String[] all = Stream.concat(Stream.of("run", "--out", tmp.resolve(name).toString(), "-q"),
                    Stream.of(args)).toArray(String[]::new);
            return CliRun.of(all);
        } finally {
            RunCommand.earlyFlowsFrom(previous);
        }
    }

    private void assertSameFolders(String a, String b) throws IOException {
        Path x = tmp.resolve(a);
        Path y = tmp.resolve(b);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(x)) {
            files = walk.filter(Files::isRegularFile).map(x::relativize).sorted().toList();
        }
        try (Stream<Path> walk = Files.walk(y)) {
            assertThat(walk.filter(Files::isRegularFile).map(y::relativize).sorted().toList()).isEqualTo(files);
        }
        assertThat(files).contains(Path.of("flows.csv"), Path.of("summary.json"));
        for (Path f : files) {
            if (f.toString().endsWith(".png")) {
                assertThat(Files.readAllBytes(y.resolve(f))).as(f.toString()).isEqualTo(Files.readAllBytes(x.resolve(f)));
            } else {
                assertThat(Files.readString(y.resolve(f)).replaceAll(WALL_CLOCK, ""))
                        .as(f.toString()).isEqualTo(Files.readString(x.resolve(f)).replaceAll(WALL_CLOCK, ""));
            }
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no staging copy left behind")
                    .noneMatch(n -> n.contains(".partial"));
        }
    }

    @Test
    void shouldWriteTheSameFolderWithFlowsCsvStartedEarlyAtPacketLevel() throws IOException {
        CliRun early = run(0, "early", "--example", "lossless-dcqcn");
        CliRun late = run(Integer.MAX_VALUE, "late", "--example", "lossless-dcqcn");

        assertThat(early.exitCode()).as("stderr: %s", early.err()).isZero();
        assertThat(late.exitCode()).as("stderr: %s", late.err()).isZero();
        assertSameFolders("late", "early");
    }

    @Test
    void shouldWriteTheSameFolderWithFlowsCsvStartedEarlyAtFlowLevel() throws IOException {
        CliRun early = run(0, "early-flow", "--example", "train-3d-rail", "--model", "flow");
        CliRun late = run(Integer.MAX_VALUE, "late-flow", "--example", "train-3d-rail", "--model", "flow");

        assertThat(early.exitCode()).as("stderr: %s", early.err()).isZero();
        assertThat(late.exitCode()).as("stderr: %s", late.err()).isZero();
        assertSameFolders("late-flow", "early-flow");
    }
}
