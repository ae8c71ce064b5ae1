package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.scenario.read.ScenarioReader;

/**
 * Same scenario and seed, same bytes: every shipped example (and the demo) runs in this JVM and in a second, freshly
 * started one, and every file of both output folders must be identical but for the wall-clock fields. Two JVMs,
 * because hash-ordered iteration (say, of a {@code Map.copyOf}) changes order only from one JVM start to the next.
 */
class ExampleDeterminismTest {
    /** The wall-clock fields of summary.json (also embedded in report.html): they measure the machine. */
    private static final String WALL_CLOCK = "\"(wall_seconds|events_per_second)\": [0-9.eE+-]+";

    @TempDir
    Path dir;

    /** The second JVM's entry point: runs every example (and the demo) into {@code args[0]/NAME}. */
    public static final class RunAll {
        public static void main(String[] args) {
            int failed = 0;
            for (String name : runs()) {
                failed += runOne(Path.of(args[0]), name) == 0 ? 0 : 1;
            }
            System.exit(failed);
        }
    }

    private static List<String> runs() {
        List<String> names = new ArrayList<>(ScenarioReader.exampleNames());
        names.add("demo");
        return names;
    }

    private static int runOne(Path root, String name) {
        String out = root.resolve(name).toString();
        return name.equals("demo") ? RocelabCommand.execute("run", "--out", out, "-q")
                : RocelabCommand.execute("run", "--example", name, "--out", out, "-q");
    }

    @Test
    void shouldWriteTheSameBytesInTwoJvmsForEveryExample() throws Exception {
        Path other = dir.resolve("other-jvm");
        Path here = dir.resolve("this-jvm");
        String java = ProcessHandle.current().info().command().orElse("java");
        // The second JVM runs at the same time as this one (two cores), with the collector the launcher uses.
        Process child = new ProcessBuilder(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                RunAll.class.getName(), other.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("other-jvm.log").toFile()).start();
        for (String name : runs()) {
            assertThat(runOne(here, name)).as("exit code of %s in this JVM", name).isZero();
        }
        assertThat(child.waitFor(15, TimeUnit.MINUTES)).as("the second JVM finished").isTrue();
        assertThat(child.exitValue()).as("the second JVM's runs; its output: %s",
                Files.readString(dir.resolve("other-jvm.log"))).isZero();

        TreeMap<String, Path> mine = files(here);
        TreeMap<String, Path> theirs = files(other);
        assertThat(theirs.keySet()).as("the same files").containsExactlyElementsOf(mine.keySet());
        assertThat(mine.keySet()).as("every run wrote its folder")
                .contains("demo/summary.json", "infiniband-incast/manifest.json");
        for (String f : mine.keySet()) {
            assertThat(comparable(theirs.get(f))).as(f).isEqualTo(comparable(mine.get(f)));
        }
    }

    private static TreeMap<String, Path> files(Path root) throws IOException {
        TreeMap<String, Path> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isRegularFile).forEach(p -> out.put(root.relativize(p).toString(), p));
        }
        return out;
    }

    /** The file's text with the wall-clock fields blanked (every output is UTF-8 text). */
    private static String comparable(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8).replaceAll(WALL_CLOCK, "\"$1\": _");
    }
}
