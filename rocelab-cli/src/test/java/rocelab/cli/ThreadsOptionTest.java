package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --threads N}: the same files as one thread, the partitions' counters, the one-thread notes. */
class ThreadsOptionTest {
    private static final String TRAFFIC = """
            name: threads
            seed: 4
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: all-to-all, size: 30KB}
            """;

    @TempDir
    Path tmp;

    @Test
    void shouldWriteOneThreadsFilesAndSayHowThePartitionsRan() throws IOException {
        Path scenario = tmp.resolve("t.yaml");
        Files.writeString(scenario, TRAFFIC);
        CliRun one = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("one").toString(), "--threads", "1");
        CliRun two = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("two").toString(), "--threads", "2");
        assertThat(one.exitCode()).isZero();
        assertThat(two.exitCode()).isZero();
        assertThat(one.out()).doesNotContain("parallel ");
        assertThat(two.out()).containsPattern("parallel  2 partitions on 2 threads: [0-9,]+ windows, [0-9,]+ events per"
                + " window, busiest partition [0-9.]+x its share, [0-9,]+ frames crossed; the threads waited [0-9]+ % of"
                + " their time at the windows' ends \\([0-9]+ % while one of them worked alone between windows\\)\n");
        Matcher shares = Pattern.compile("waited ([0-9]+) % .*\\(([0-9]+) % while")
                .matcher(two.out());
        assertThat(shares.find()).isTrue();
        // Shares of the threads' time: the wait while one thread worked alone is part of the whole wait.
        assertThat(Integer.parseInt(shares.group(2))).isBetween(0, Integer.parseInt(shares.group(1)) + 1);
        assertThat(Integer.parseInt(shares.group(1))).isBetween(0, 100);
        assertThat(two.err()).doesNotContain("note:");
        for (String f : new String[] {"flows.csv", "ports.csv", "nics.csv", "rates.csv", "queues.csv", "links.csv",
            "throughput.csv"}) {
            assertThat(Files.readAllBytes(tmp.resolve("two").resolve(f))).as(f)
                    .isEqualTo(Files.readAllBytes(tmp.resolve("one").resolve(f)));
        }
    }

    @Test
    void shouldSayOnceWhyACaptureRunsOnOneThread() throws IOException {
        Path scenario = tmp.resolve("t.yaml");
        Files.writeString(scenario, TRAFFIC);
        CliRun r = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("cap").toString(), "--threads", "3",
                "--pcap", tmp.resolve("c.pcap").toString(), "-q");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err().lines().filter(l -> l.startsWith("note: asked for 3 threads, ran on one: --pcap")))
                .hasSize(1);
        assertThat(Files.readString(tmp.resolve("cap").resolve("summary.json"))).contains("\"threads_note\"");
    }

    @Test
    void shouldSayWhyAnExplicitThreadCountRanOnFewerThreads() throws IOException {
        Path scenario = tmp.resolve("t.yaml");
        Files.writeString(scenario, TRAFFIC);
        // Three leaves: at most three partitions, so eight threads asked for run on three, and the run says so.
        CliRun r = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("eight").toString(), "--threads", "8",
                "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String note = "asked for 8 threads, ran on 3: the fabric splits into at most 3 partitions, one per leaf switch"
                + " (host links are not cut)";
        assertThat(r.err().lines().toList()).containsExactly("note: " + note);
        assertThat(Files.readString(tmp.resolve("eight").resolve("summary.json")))
                .contains("\"threads_note\": \"" + note + "\"");
        // Exactly the threads there are partitions for: nothing to say.
        CliRun three = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("three").toString(), "--threads",
                "3", "-q");
        assertThat(three.err()).isEmpty();
        assertThat(Files.readString(tmp.resolve("three").resolve("summary.json"))).doesNotContain("threads_note");
    }

    /**
     * A ring whose slow receiver (host 8, 10 Gb/s) sits in the partition after its sender's: the split run finds a
     * send's last wait in the other partition and is run again on one thread. Asked for with -q, the run still says
     * why it ran on one thread (-q had printed nothing, while summary.json's threads_note said it).
     */
    @Test
    void shouldSayQuietlyWhyARunStartedOnSeveralThreadsRanAgainOnOne() throws IOException {
        Path scenario = tmp.resolve("slow.yaml");
        Files.writeString(scenario, """
                name: slow-ring
                seed: 7
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 600KB, ecn: {marking: red, kmin: 20KB, kmax: 80KB, pmax: 0.2}}
                nic: {cc: dcqcn, timeout: 8}
                nics:
                  - {hosts: 8, rx: {rate: 10Gbps}}
                traffic:
                  - {kind: allreduce, ranks: [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14], size: 600KB}
                """);
        CliRun r = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("q").toString(), "--threads", "2", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> notes = r.err().lines().toList();
        assertThat(notes).hasSize(1);
        assertThat(notes.get(0)).startsWith("note: asked for 2 threads, ran on one: flow 4->8")
                .endsWith("so the split run was not exact and was run again");
        assertThat(Files.readString(tmp.resolve("q").resolve("summary.json")))
                .contains("\"threads_note\": \"" + notes.get(0).substring("note: ".length()) + "\"");
        // Without -q the note tells it as it happened, once.
        CliRun loud = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("loud").toString(), "--threads", "2");
        List<String> loudNotes = loud.err().lines().filter(l -> l.startsWith("note: ")).toList();
        assertThat(loudNotes).hasSize(1);
        assertThat(loudNotes.get(0)).startsWith("note: ran again on one thread after starting on 2: flow 4->8 (task 122)"
                + " was last waiting for a completion in another partition").endsWith("which only one thread keeps exact)");
    }

    @Test
    void shouldRefuseWhatIsNotAThreadCount() {
        for (String bad : new String[] {"0", "1025", "-2", "two", "Auto", ""}) {
            CliRun r = CliRun.of("run", "--out", tmp.resolve("z").toString(), "--threads", bad);
            assertThat(r.exitCode()).as(bad).isEqualTo(2);
            assertThat(r.errorLines()).as(bad)
                    .containsExactly("error: --threads " + bad + "; expected auto or a number of threads 1..1024");
        }
    }

    @Test
    void shouldRefuseABadThreadCountBeforeReadingTheScenario() throws IOException {
        Path broken = tmp.resolve("broken.yaml");
        Files.writeString(broken, "name: broken\nno-such-key: 1\n");
        CliRun r = CliRun.of("run", broken.toString(), "--out", tmp.resolve("b").toString(), "--threads", "many");
        assertThat(r.exitCode()).isEqualTo(2);
        // The scenario's own error would name its file, line and column: the option is refused first.
        assertThat(r.errorLines()).containsExactly("error: --threads many; expected auto or a number of threads 1..1024");
        assertThat(tmp.resolve("b")).doesNotExist();
    }

    /** 1,008,000 data packets on 24 hosts at 100 Gb/s: 300 per 1 us window at most, two threads' worth. */
    private static final String BIG = """
            name: big
            seed: 2
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 6, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: permutation, size: 42000KB}
            """;

    @Test
    void shouldChooseTheThreadsByTheMachineAndTheRunAndWriteTheSameFilesOnAnyMachine() throws IOException {
        Path scenario = tmp.resolve("big.yaml");
        Files.writeString(scenario, BIG);
        CliRun eight = withCores(8, "run", scenario.toString(), "--out", tmp.resolve("eight").toString());
        CliRun one = withCores(1, "run", scenario.toString(), "--out", tmp.resolve("one").toString());
        assertThat(eight.exitCode()).isZero();
        assertThat(one.exitCode()).isZero();
        // Capped by what a window holds (300 data packets: two threads), not by the eight cores or four leaves.
        assertThat(eight.out()).contains("parallel  2 partitions on 2 threads");
        assertThat(one.out()).doesNotContain("parallel ");
        assertThat(eight.err()).doesNotContain("note:");
        assertSameFiles(tmp.resolve("one"), tmp.resolve("eight"));
    }

    @Test
    void shouldChooseOneThreadSilentlyForASmallRunOrOneThatCannotBeSplit() throws IOException {
        Path small = tmp.resolve("t.yaml");
        Files.writeString(small, TRAFFIC);
        Path oneLeaf = tmp.resolve("leaf.yaml");
        Files.writeString(oneLeaf, TRAFFIC.replace("leaves: 3, spines: 2, hosts-per-leaf: 2",
                "leaves: 1, spines: 1, hosts-per-leaf: 6"));
        Path collective = tmp.resolve("coll.yaml");
        Files.writeString(collective, TRAFFIC.replace("{kind: all-to-all, size: 30KB}",
                "{kind: alltoall, ranks: 0-5, size: 600KB, algorithm: pairwise}"));
        for (Path f : new Path[] {small, oneLeaf, collective}) {
            Path out = tmp.resolve("auto-" + f.getFileName());
            CliRun r = withCores(8, "run", f.toString(), "--out", out.toString());
            assertThat(r.exitCode()).as(f.toString()).isZero();
            assertThat(r.out()).as(f.toString()).doesNotContain("parallel ");
            assertThat(r.err()).as(f.toString()).doesNotContain("note:");
            assertThat(Files.readString(out.resolve("summary.json"))).doesNotContain("threads_note");
        }
        // Asked for explicitly, the same runs say why they ran on one thread.
        CliRun leaf = CliRun.of("run", oneLeaf.toString(), "--out", tmp.resolve("leaf2").toString(), "--threads", "2");
        assertThat(leaf.err()).contains("note: asked for 2 threads, ran on one: the fabric has one leaf switch");
        CliRun coll = CliRun.of("run", collective.toString(), "--out", tmp.resolve("coll2").toString(), "--threads",
                "2", "-q");
        assertThat(coll.err()).contains("note: asked for 2 threads, ran on one: the workload's tasks wait");
        assertThat(Files.readString(tmp.resolve("coll2").resolve("summary.json"))).contains("\"threads_note\"");
    }

    @Test
    void shouldCaptureOnOneThreadSilentlyWhenTheThreadsAreAutomatic() throws IOException {
        Path scenario = tmp.resolve("big.yaml");
        Files.writeString(scenario, BIG);
        // Large enough for two threads, but a capture logs every link's frames in order.
        CliRun r = withCores(8, "run", scenario.toString(), "--out", tmp.resolve("cap").toString(), "--pcap",
                tmp.resolve("c.pcap").toString(), "--pcap-max", "50");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err()).doesNotContain("note:");
        assertThat(r.out()).doesNotContain("parallel ");
    }

    /** A CLI run whose {@code --threads auto} sees {@code cores} cores. */
    private static CliRun withCores(int cores, String... args) {
        IntSupplier previous = RunCommand.processors(() -> cores);
        try {
            return CliRun.of(args);
        } finally {
            RunCommand.processors(previous);
        }
    }

    /** Every file of two output folders, byte for byte; summary.json without its wall-clock lines. */
    private static void assertSameFiles(Path a, Path b) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(a)) {
            files = walk.filter(Files::isRegularFile).map(a::relativize).sorted().toList();
        }
        try (Stream<Path> walk = Files.walk(b)) {
            assertThat(walk.filter(Files::isRegularFile).map(b::relativize).sorted().toList()).isEqualTo(files);
        }
        assertThat(files).contains(Path.of("flows.csv"), Path.of("summary.json"), Path.of("report.html"));
        for (Path f : files) {
            if (f.toString().equals("summary.json")) {
                assertThat(withoutWallClock(b.resolve(f))).isEqualTo(withoutWallClock(a.resolve(f)));
            } else {
                assertThat(Files.readAllBytes(b.resolve(f))).as(f.toString()).isEqualTo(Files.readAllBytes(a.resolve(f)));
            }
        }
    }

    private static String withoutWallClock(Path summary) throws IOException {
        return Files.readString(summary).lines().filter(l -> !l.contains("\"wall_seconds\"")
                && !l.contains("\"events_per_second\"")).collect(Collectors.joining("\n"));
    }
}
