package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's output folder is the previous run, the new run, or (killed in the instant of the swap) absent, never a
 * mix; nothing is written outside it; every output path is checked before the first event.
 */
class OutputFolderTest {
    @TempDir
    Path dir;

    private static TreeMap<String, byte[]> contents(Path root) throws IOException {
        TreeMap<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return out;
    }

    /** The folder's files, but for summary.json and report.html, whose wall-clock fields differ from run to run. */
    private static TreeMap<String, String> comparable(Path root) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        contents(root).forEach((k, v) -> out.put(k, new String(v, StandardCharsets.UTF_8)
                .replaceAll("\"(wall_seconds|events_per_second)\": [0-9.eE+-]+", "")));
        return out;
    }

    private static List<String> hidden(Path parent) throws IOException {
        try (Stream<Path> s = Files.list(parent)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList();
        }
    }

    @Test
    void shouldReplaceAnEarlierRunAsAWholeAndLeaveNothingHidden() throws IOException {
        Path out = dir.resolve("runs/pfc");
        assertThat(CliRun.of("run", "--example", "lossless-pfc-only", "--out", out.toString(), "-q").exitCode())
                .isZero();
        assertThat(out.resolve("pfc.csv")).exists();

        CliRun second = CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "-q");

        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(out.resolve("pfc.csv")).as("a file only the first run had").doesNotExist();
        assertThat(Files.readString(out.resolve("manifest.json"))).contains("lossy-incast");
        assertThat(hidden(dir.resolve("runs"))).as("no staging copy or replaced folder left behind").isEmpty();
        assertThat(hidden(out)).as("no .partial file inside").isEmpty();
    }

    @Test
    void shouldLeaveThePreviousRunIntactWhenARerunIsKilledWhileWriting() throws Exception {
        Path seed1 = dir.resolve("seed1");
        Path seed2 = dir.resolve("seed2");
        assertThat(CliRun.of("run", "--example", "lossy-incast", "--out", seed1.toString(), "-q").exitCode()).isZero();
        assertThat(CliRun.of("run", "--example", "lossy-incast", "--seed", "2", "--out", seed2.toString(), "-q")
                .exitCode()).isZero();
        Path target = dir.resolve("target");
        for (var f : contents(seed1).entrySet()) {
            Path copy = target.resolve(f.getKey());
            Files.createDirectories(copy.getParent());
            Files.write(copy, f.getValue());
        }
        String java = ProcessHandle.current().info().command().orElse("java");

        // The re-run is killed (SIGKILL, nothing runs after it) the moment it starts writing its files. Its temporary
        // files (the examples' files copied out of a jar) cannot go at its exit: they are made in this test's folder.
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Process rerun = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                RocelabCommand.class.getName(), "run", "--example", "lossy-incast", "--seed", "2", "--out",
                target.toString(), "-q").redirectErrorStream(true).redirectOutput(dir.resolve("log").toFile()).start();
        String staging = ".target.partial-" + rerun.pid();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (rerun.isAlive() && !Files.exists(dir.resolve(staging)) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        rerun.destroyForcibly().waitFor();

        assertThat(comparable(target)).as("the folder is still exactly the seed-1 run").isEqualTo(comparable(seed1));

        // The next run into the folder removes what the killed one left, and writes the seed-2 run whole.
        CliRun again = CliRun.of("run", "--example", "lossy-incast", "--seed", "2", "--out", target.toString(), "-q");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(comparable(target)).isEqualTo(comparable(seed2));
        assertThat(hidden(dir)).isEmpty();
    }

    @Test
    void shouldRefuseAFolderHoldingFilesRocelabDidNotWrite() throws IOException {
        Path mine = Files.createDirectories(dir.resolve("home"));
        Files.writeString(mine.resolve("notes.txt"), "mine\n");

        CliRun run = CliRun.of("run", "--out", mine.toString(), "-q");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.err()).isEqualTo("error: --out " + mine + ": holds notes.txt, which rocelab did not write;"
                + " expected a new or empty folder, or the output folder of an earlier run (its files are replaced as"
                + " a whole)\n");
        assertThat(contents(mine)).containsOnlyKeys("notes.txt");
    }

    @Test
    void shouldRefuseAFolderOfFilesThatOnlyShareOurNames() throws IOException {
        // A user's pfc.csv kept in a folder of its own was replaced: every name was one of ours, but no run left it.
        Path mine = Files.createDirectories(dir.resolve("kept"));
        Files.writeString(mine.resolve("pfc.csv"), "mine\n");

        CliRun run = CliRun.of("run", "--out", mine.toString(), "-q");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.err()).isEqualTo("error: --out " + mine + ": holds pfc.csv but no summary.json or compare.csv,"
                + " so it is not an earlier run's output folder (every finished run leaves one); expected a new or"
                + " empty folder, or the output folder of an earlier run (its files are replaced as a whole)\n");
        assertThat(contents(mine)).containsOnlyKeys("pfc.csv");
    }

    @Test
    void shouldRefuseTheOutFolderBeforeReadingTheScenario() throws IOException {
        // Reading a large job takes seconds and gigabytes: a folder that cannot be used is refused first. The
        // scenario here is malformed, so had it been read, its error would have been the one printed.
        Path mine = Files.createDirectories(dir.resolve("home"));
        Files.writeString(mine.resolve("notes.txt"), "mine\n");
        Path scenario = Files.writeString(dir.resolve("broken.yaml"), "name: [unclosed\n");

        CliRun run = CliRun.of("run", scenario.toString(), "--out", mine.toString(), "-q");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString()
                .startsWith("error: --out " + mine + ": holds notes.txt, which rocelab did not write;");
        assertThat(run.err()).doesNotContain("broken.yaml");
        assertThat(contents(mine)).containsOnlyKeys("notes.txt");
    }

    @Test
    void shouldCheckTheCaptureBeforeTheRun() throws IOException {
        Path out = dir.resolve("o");
        Path folder = Files.createDirectories(dir.resolve("captures"));

        CliRun run = CliRun.of("run", "--out", out.toString(), "--pcap", folder.toString());

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.err()).startsWith("error: --pcap " + folder + ": is a directory; expected a file name");
        assertThat(out).as("nothing simulated, nothing written").doesNotExist();
        assertThat(CliRun.of("run", "--out", out.toString(), "--pcap", out.resolve("summary.json").toString())
                .err()).contains("would overwrite the run's own summary.json");
    }

    @Test
    void shouldPutACaptureInsideTheFolderIntoTheNewRun() throws IOException {
        Path out = dir.resolve("o");
        CliRun run = CliRun.of("run", "--out", out.toString(), "--pcap", out.resolve("trace.pcap").toString(),
                "--pcap-max", "10", "-q");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(out.resolve("trace.pcap")).isNotEmptyFile();
        assertThat(out.resolve("summary.json")).isNotEmptyFile();
    }

    @Test
    void shouldRefuseBadCaptureFlagsBeforeTheRun() {
        String out = dir.resolve("o").toString();
        String pcap = dir.resolve("x.pcap").toString();
        assertThat(CliRun.of("run", "--out", out, "--pcap", pcap, "--pcap-flow", "-7").err())
                .isEqualTo("error: --pcap-flow -7 is not a flow; expected a flow_id of flows.csv (0 or more)\n");
        assertThat(CliRun.of("run", "--out", out, "--pcap", pcap, "--pcap-from", "50us", "--pcap-to", "10us").err())
                .isEqualTo("error: --pcap-to 10us is not after --pcap-from 50us; expected an end time later than the"
                        + " start\n");
        assertThat(CliRun.of("run", "--out", out, "--pcap", pcap, "--pcap-qp", "-2").exitCode())
                .isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(CliRun.of("run", "--out", out, "--pcap", pcap, "--pcap-max", "0").err())
                .isEqualTo("error: --pcap-max 0 is too small; expected at least 1 frame\n");
        assertThat(CliRun.of("run", "--out", out, "--pcap-flow", "3").err())
                .isEqualTo("error: --pcap-flow selects what --pcap captures; expected --pcap FILE with it\n");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void shouldRefuseACaptureAFolderWillNotTakeBeforeTheRunAndCreateNothing() {
        // /proc looks writable to root yet takes no new file: only trying tells.
        Path out = dir.resolve("new/o");

        CliRun run = CliRun.of("run", "--example", "lossy-incast", "--out", out.toString(), "--pcap", "/proc/x.pcap");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.err()).startsWith("error: --pcap /proc/x.pcap: ").contains("/proc").contains("; expected a")
                .doesNotContain(".partial").doesNotContain("cannot write the output");
        assertThat(run.errorLines()).hasSize(1);
        assertThat(run.out()).as("nothing simulated").isEmpty();
        assertThat(dir.resolve("new")).as("nothing created").doesNotExist();
    }

    @Test
    void shouldRefuseAnOutputFolderThatCannotBeMadeBeforeTheRunNamingOnlyTheUsersPath() throws IOException {
        Files.writeString(dir.resolve("base.yaml"), """
                name: tiny
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: incast, senders: 1-3, receiver: 0, size: 50KB}
                """);
        Path sweep = Files.writeString(dir.resolve("s.yaml"),
                "scenario: base.yaml\nvary:\n  nic.dcqcn.profile: [paper]\n");
        for (String out : List.of("/proc/rl/x", "/sys/x")) {
            for (String[] command : List.of(new String[] {"run", "--example", "lossy-incast"},
                    new String[] {"compare", "--example", "lossy-incast"}, new String[] {"sweep", sweep.toString()})) {
                String[] args = Stream.concat(Stream.of(command), Stream.of("--out", out)).toArray(String[]::new);

                CliRun run = CliRun.of(args);

                assertThat(run.exitCode()).as(run.err()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
                assertThat(run.err()).as(command[0]).startsWith("error: --out " + out + ": ")
                        .contains("; expected a folder").doesNotContain(".partial").doesNotContain("probe");
                assertThat(run.errorLines()).hasSize(1);
                assertThat(run.out()).as("nothing simulated").isEmpty();
            }
        }
    }

    @Test
    void shouldRemoveTheFoldersItMadeWhenARunIsNotCommitted() throws IOException {
        Path kept = Files.createDirectories(dir.resolve("kept"));
        Path out = kept.resolve("out/a/x");

        try (OutputFolder folder = OutputFolder.open(out)) {
            assertThat(folder.dir()).exists();
        }

        assertThat(kept.resolve("out")).as("made for the run, removed with it").doesNotExist();
        assertThat(kept).as("there before the run").exists();
    }

    @Test
    void shouldNameTheOutputFolderNotItsStagingCopyInAnError() {
        Path out = Path.of("out/x");
        Path staging = out.toAbsolutePath().resolveSibling(".x.partial-1234");

        assertThat(OutputFolder.describe(new FileSystemException(staging.resolve("charts/a.svg").toString(), null,
                "No space left on device"), out)).isEqualTo("out/x/charts/a.svg: no space left on device");
        assertThat(OutputFolder.describe(new AccessDeniedException(staging.toString()), out))
                .isEqualTo("out/x: permission denied");
        assertThat(OutputFolder.describe(new NoSuchFileException("/elsewhere/y"), out))
                .isEqualTo("/elsewhere/y: no such file or directory");
    }
}
