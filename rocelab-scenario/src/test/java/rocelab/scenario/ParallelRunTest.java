package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.Summary;
import rocelab.observe.report.ReportWriter;
import rocelab.workload.graph.TaskGraph;

/** One packet-level run on 1, 2 and 3 threads: every output file byte for byte the same. */
class ParallelRunTest {
    /** Lossy RoCE with DCQCN and ECN, all-to-all, a late incast and a timed flow list: every kind of plain traffic. */
    private static final String TRAFFIC = """
            name: par
            seed: 11
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 4, spines: 3, hosts-per-leaf: 3, link: {rate: 100Gbps, delay: 1us}}
            switch:
              buffer: 300KB
              ecn: {marking: red, kmin: 20KB, kmax: 80KB, pmax: 0.2}
            nic: {cc: dcqcn, timeout: 8}
            observe: {sample-interval: 2us}
            traffic:
              - {kind: all-to-all, size: 20KB}
              - {kind: incast, senders: 1-9, receiver: 0, size: 60KB, start: 7us}
              - {kind: permutation, size: 40KB, start: 3us}
            """;

    @TempDir
    Path tmp;

    private record Ran(Path dir, Simulation sim) {}

    private Ran run(String yaml, long seed, int threads, String name) throws IOException {
        return run(yaml, seed, threads, tmp.resolve(name));
    }

    private static Ran run(String yaml, long seed, int threads, Path out) throws IOException {
        Simulation sim = Simulation.assemble(Scenarios.parse(yaml).withSeed(seed), Simulation.Model.PACKET, threads);
        RunResult r = sim.run(ProgressListener.NONE);
        // The CLI's writer: every output file and the report.
        ReportWriter.writeRun(out, r, Map.of());
        return new Ran(out, sim);
    }

    @Test
    void shouldNeverReportProgressPastTheRunsEndOnAnyThreadCount() {
        for (int threads = 1; threads <= 3; threads++) {
            Simulation sim = Simulation.assemble(Scenarios.parse(TRAFFIC), Simulation.Model.PACKET, threads);
            List<RunProgress> seen = new ArrayList<>();
            RunResult r = sim.run(seen::add);
            assertThat(seen).as("reports").isNotEmpty();
            // A partitioned run's clock is at its window's end, up to a link delay past the last event.
            assertThat(seen).as(threads + " threads").allSatisfy(p -> assertThat(p.simulatedPs())
                    .isLessThanOrEqualTo(r.simulatedPs()));
            assertThat(seen.get(seen.size() - 1).simulatedPs()).as(threads + " threads, last report")
                    .isEqualTo(r.simulatedPs());
        }
    }

    @Test
    void shouldWriteTheSameFilesOnOneTwoAndThreeThreads() throws IOException {
        Ran one = run(TRAFFIC, 11, 1, "t1");
        assertThat(one.sim().partitions()).isEqualTo(1);
        for (int threads = 2; threads <= 3; threads++) {
            Ran many = run(TRAFFIC, 11, threads, "t" + threads);
            assertThat(many.sim().partitions()).as("split").isEqualTo(threads);
            assertThat(many.sim().threadsNote()).isNull();
            assertThat(many.sim().network().crossings()).as("frames crossed partitions").isPositive();
            assertThat(many.sim().partitionedSimulator().windows()).isPositive();
            assertSameFiles(one.dir(), many.dir());
        }
        // What the files hold is a real run: DCQCN reacted and the time series has rows; and ECMP collisions, which
        // each partition's leaves noted in their own notes, are named (the same on every thread count, above).
        assertThat(Files.readString(one.dir().resolve("rates.csv")).lines().count()).isGreaterThan(10);
        assertThat(Files.readString(one.dir().resolve(RunWriter.SUMMARY)))
                .containsPattern("\"ecmp_collision_count\": [1-9]");
        List<String> flows = Files.readAllLines(one.dir().resolve("flows.csv"));
        int ecmpWait = Arrays.asList(flows.get(0).split(",")).indexOf("ecmp_wait_us");
        assertThat(flows.stream().skip(1).filter(row -> Double.parseDouble(row.split(",", -1)[ecmpWait]) > 0)
                .count()).as("flows with ecmp_wait_us").isPositive();
        assertThat(Files.readString(one.dir().resolve("queues.csv")).lines().count()).isGreaterThan(10);
        assertThat(Files.readString(one.dir().resolve(RunWriter.SUMMARY))).contains("\"completed\"");
    }

    @Test
    void shouldWriteTheSameFilesForAnInfinibandFabricWithCredits() throws IOException {
        String ib = TRAFFIC.replace("fabric: {mode: roce-lossy, mtu: 1000}",
                "fabric: {mode: infiniband, mtu: 1000, infiniband: {vl-buffer: 16KiB, hca-buffer: 16KiB, fecn: {}}}")
                .replace("nic: {cc: dcqcn, timeout: 8}", "nic: {cc: ib-cc}")
                .replaceAll("(?s)switch:.*?nic:", "nic:");
        Ran one = run(ib, 5, 1, "ib1");
        Ran many = run(ib, 5, 3, "ib3");
        assertThat(many.sim().partitions()).isEqualTo(3);
        assertSameFiles(one.dir(), many.dir());
        assertThat(Files.readString(one.dir().resolve("vl.csv")).lines().count()).isGreaterThan(1);
        // The roots of the waits for credits, noted by each partition's devices, are the same: flows waited, and the
        // IB victims (summary.json) are the same list.
        long waited = 0;
        for (int f = 0; f < one.sim().driver().flowCount(); f++) {
            waited += many.sim().creditLog().flowWaits().waitPs(f);
            assertThat(many.sim().creditLog().flowWaits().roots(f)).as("flow %d", f)
                    .isEqualTo(one.sim().creditLog().flowWaits().roots(f));
        }
        assertThat(waited).as("flows waited for credits").isPositive();
        assertThat(Files.readString(one.dir().resolve(RunWriter.SUMMARY))).contains("\"ib_victim_count\"");
    }

    @Test
    void shouldWriteTheSameFilesForASprayedMultiPlaneFabric() throws IOException {
        String planes = TRAFFIC.replace("hosts-per-leaf: 3,", "hosts-per-leaf: 3, planes: 2, plane-selection: spray,")
                .replace("rate: 100Gbps", "rate: 200Gbps").replace("timeout: 8}", "timeout: 8, ooo: true}");
        Ran one = run(planes, 5, 1, "mp1");
        Ran many = run(planes, 5, 2, "mp2");
        assertThat(many.sim().partitions()).isEqualTo(2);
        assertSameFiles(one.dir(), many.dir());
    }

    @Test
    void shouldSayWhyAWorkloadWithDependenciesRunsOnOneThread() throws IOException {
        String collective = TRAFFIC.replaceAll("(?s)traffic:.*", "traffic:\n"
                + "  - {kind: alltoall, ranks: 0-11, size: 120KB, algorithm: pairwise}\n");
        Ran r = run(collective, 11, 3, "coll");
        assertThat(r.sim().partitions()).isEqualTo(1);
        assertThat(r.sim().threadsNote()).contains("asked for 3 threads, ran on one").contains("wait for one another");
        assertThat(Files.readString(r.dir().resolve(RunWriter.SUMMARY))).contains("\"threads_note\"");
        Ran plain = run(collective, 11, 1, "coll1");
        assertThat(Files.readString(plain.dir().resolve(RunWriter.SUMMARY))).doesNotContain("threads_note");
    }

    @Test
    void shouldWriteTheSameFilesForALosslessFabricWithPfc() throws IOException {
        // Small buffers and a heavy incast: PFC pauses spread from the receiver's leaf to the spines.
        String lossless = TRAFFIC.replace("roce-lossy", "roce-lossless").replace("buffer: 300KB", "buffer: 400KB")
                .replace("size: 60KB, start: 7us", "size: 300KB, start: 7us")
                .replace("switch:\n", "switch:\n  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}\n");
        Ran one = run(lossless, 11, 1, "pfc1");
        String pfc = Files.readString(one.dir().resolve("pfc.csv"));
        assertThat(pfc.lines().count()).as("PFC frames logged").isGreaterThan(20);
        assertThat(Files.readString(one.dir().resolve(RunWriter.SUMMARY)))
                .containsPattern("\"ecmp_collision_count\": [1-9]");
        for (int threads = 2; threads <= 3; threads++) {
            Ran many = run(lossless, 11, threads, "pfc" + threads);
            assertThat(many.sim().partitions()).isEqualTo(threads);
            assertSameFiles(one.dir(), many.dir());
        }
    }

    @Test
    void shouldWriteTheSameFilesForALosslessRunStoppedWhilePaused() throws IOException {
        // Stopped in the middle of the incast: pauses are in force at the end, and the run counts them (paused time,
        // the waits of what they hold) after the loop, the same on any number of threads.
        String lossless = TRAFFIC.replace("roce-lossy", "roce-lossless").replace("buffer: 300KB", "buffer: 400KB")
                .replace("size: 60KB, start: 7us", "size: 300KB, start: 7us")
                .replace("switch:\n", "switch:\n  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}\n")
                + "run: {stop-at: 40us}\n";
        Ran one = run(lossless, 11, 1, "stop1");
        assertThat(Files.readString(one.dir().resolve("summary.json"))).contains("\"stop_reason\": \"stop-at\"")
                .containsPattern("\"ecmp_collision_count\": [1-9]");
        Ran two = run(lossless, 11, 2, "stop2");
        assertThat(two.sim().partitions()).isEqualTo(2);
        assertSameFiles(one.dir(), two.dir());
    }

    @Test
    void shouldWriteTheSameFilesForAnInfinibandRunStoppedWhileWaitingForCredits() throws IOException {
        // Stopped in the middle of the incast: lanes wait for credits at the end, with packets and QPs held in them;
        // the run counts those waits (their flows' credit waits, the IB victims) after the loop, the same on any
        // number of threads.
        String ib = TRAFFIC.replace("fabric: {mode: roce-lossy, mtu: 1000}",
                "fabric: {mode: infiniband, mtu: 1000, infiniband: {vl-buffer: 16KiB, hca-buffer: 16KiB}}")
                .replace("nic: {cc: dcqcn, timeout: 8}", "nic: {cc: none}")
                .replace("size: 60KB, start: 7us", "size: 300KB, start: 7us")
                .replaceAll("(?s)switch:.*?nic:", "nic:") + "run: {stop-at: 40us}\n";
        Ran one = run(ib, 11, 1, "ibstop1");
        assertThat(Files.readString(one.dir().resolve("summary.json"))).contains("\"stop_reason\": \"stop-at\"");
        Ran two = run(ib, 11, 2, "ibstop2");
        assertThat(two.sim().partitions()).isEqualTo(2);
        assertSameFiles(one.dir(), two.dir());
    }

    @Test
    void shouldChooseThreadsByCoresLeavesAndWhatAWindowHolds() {
        // bench-B2's shape: 16 leaves, 1,600 data packets per window at most, 1,072,896 data packets.
        assertThat(Simulation.automaticThreads(1, 16, 1_072_896, 1_600)).isEqualTo(1);
        assertThat(Simulation.automaticThreads(2, 16, 1_072_896, 1_600)).isEqualTo(2);
        assertThat(Simulation.automaticThreads(64, 16, 1_072_896, 1_600)).as("one per 150 per window").isEqualTo(10);
        assertThat(Simulation.automaticThreads(64, 3, 10_000_000, 1e6)).as("one per leaf").isEqualTo(3);
        // bench-B's 128,000 data packets: slower on two threads on a quiet machine.
        assertThat(Simulation.automaticThreads(64, 16, 128_000, 1_600)).as("a short run").isEqualTo(1);
        assertThat(Simulation.automaticThreads(64, 16, 999_999, 1e6)).as("a short run").isEqualTo(1);
        assertThat(Simulation.automaticThreads(64, 16, 10_000_000, 149)).as("thin windows").isEqualTo(1);
        assertThat(Simulation.automaticThreads(64, 16, 10_000_000, 300)).isEqualTo(2);
    }

    @Test
    void shouldBoundTheDataPacketsOfAWindowByTheSendersOrTheReceivers() {
        ScenarioConfig c = Scenarios.parse(TRAFFIC);
        Topology topology = c.topology().build();
        // 12 hosts send and receive at 100 Gb/s: 12 x 100 Gb/s x 1 us / (8 x 1000 B) = 150 frames of 1000 B.
        assertThat(Simulation.packetsPerWindow(graph(c), topology, 1000, 1_000_000)).isCloseTo(150.0,
                org.assertj.core.data.Offset.offset(1e-9));
        ScenarioConfig incast = Scenarios.parse(TRAFFIC.replaceAll("(?s)traffic:.*",
                "traffic:\n  - {kind: incast, senders: 1-9, receiver: 0, size: 60KB}\n"));
        // One receiver: 12.5 frames per 1 us window, whatever the nine senders could send.
        assertThat(Simulation.packetsPerWindow(graph(incast), topology, 1000, 1_000_000))
                .isCloseTo(12.5, org.assertj.core.data.Offset.offset(1e-9));
        // 60 KB in frames of 1000 B from each of nine senders.
        assertThat(Simulation.dataPackets(graph(incast), 1000)).isEqualTo(9 * 60);
        assertThat(Simulation.dataPackets(graph(incast), 7000)).isEqualTo(9 * 9);
    }

    @Test
    void shouldSplitABigEnoughRunAutomaticallyAndNoteNothing() {
        // 24 hosts at 100 Gb/s: 300 data packets per 1 us window at most (two threads), 1,008,000 in all.
        String yaml = """
                name: auto
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 6, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: permutation, size: 42000KB}
                """;
        ScenarioConfig big = Scenarios.parse(yaml);
        Simulation eight = Simulation.assembleAutomatic(big, Simulation.Model.PACKET, 8);
        assertThat(eight.partitions()).isEqualTo(2);
        assertThat(eight.threads()).isEqualTo(2);
        assertThat(eight.threadsNote()).isNull();
        // Four times the rate: 1,200 per window, so the four leaves are the cap; then the cores.
        ScenarioConfig fast = Scenarios.parse(yaml.replace("rate: 100Gbps", "rate: 400Gbps"));
        assertThat(Simulation.assembleAutomatic(fast, Simulation.Model.PACKET, 8).threads()).isEqualTo(4);
        assertThat(Simulation.assembleAutomatic(fast, Simulation.Model.PACKET, 3).threads()).isEqualTo(3);
        Simulation one = Simulation.assembleAutomatic(big, Simulation.Model.PACKET, 1);
        assertThat(one.partitions()).isEqualTo(1);
        assertThat(one.threads()).isEqualTo(1);
        // Half the bytes: under 1,000,000 data packets.
        ScenarioConfig shorter = Scenarios.parse(yaml.replace("42000KB", "21000KB"));
        assertThat(Simulation.assembleAutomatic(shorter, Simulation.Model.PACKET, 8).partitions()).isEqualTo(1);
        assertThat(Simulation.assembleAutomatic(big, Simulation.Model.FLOW, 8).partitions()).isEqualTo(1);
        assertThat(Simulation.assembleAutomatic(big, Simulation.Model.FLOW, 8).threadsNote()).isNull();
    }

    @Test
    void shouldChooseOneThreadSilentlyWhenTheRunCannotBeSplit() throws IOException {
        String collective = TRAFFIC.replaceAll("(?s)traffic:.*", "traffic:\n"
                + "  - {kind: alltoall, ranks: 0-11, size: 120KB, algorithm: pairwise}\n");
        Simulation sim = Simulation.assembleAutomatic(Scenarios.parse(collective), Simulation.Model.PACKET, 8);
        assertThat(sim.partitions()).isEqualTo(1);
        assertThat(sim.threadsNote()).isNull();
        RunResult r = sim.run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp.resolve("auto"), r, Map.of());
        assertThat(Files.readString(tmp.resolve("auto").resolve(RunWriter.SUMMARY))).contains("\"completed\"")
                .doesNotContain("threads_note");
        // One leaf: large enough to split by its size (600 data packets per window at most, 300,000 in all), but host
        // links are not cut. Assembled only.
        ScenarioConfig oneLeaf = Scenarios.parse(TRAFFIC.replace("leaves: 4, spines: 3, hosts-per-leaf: 3",
                "leaves: 1, spines: 1, hosts-per-leaf: 6").replace("rate: 100Gbps", "rate: 800Gbps")
                .replaceAll("(?s)traffic:.*", "traffic:\n  - {kind: all-to-all, size: 10MB}\n"));
        Simulation leaf = Simulation.assembleAutomatic(oneLeaf, Simulation.Model.PACKET, 8);
        assertThat(leaf.partitions()).isEqualTo(1);
        assertThat(leaf.threadsNote()).isNull();
        // Asked for explicitly, it says why it runs on one thread.
        assertThat(Simulation.assemble(oneLeaf, Simulation.Model.PACKET, 4).threadsNote())
                .contains("asked for 4 threads, ran on one").contains("one leaf switch");
    }

    private static TaskGraph graph(ScenarioConfig c) {
        return Simulation.assemble(c, Simulation.Model.PACKET, 1).driver().graph();
    }

    /** Small random fabrics, traffic, seeds and thread counts: the partitioned run writes one thread's files. */
    @Property(tries = 6)
    void shouldMatchOneThreadOnRandomFabrics(@ForAll @IntRange(min = 2, max = 5) int leaves,
            @ForAll @IntRange(min = 1, max = 3) int spines, @ForAll @IntRange(min = 1, max = 3) int hostsPerLeaf,
            @ForAll @IntRange(min = 2, max = 4) int threads, @ForAll @IntRange(min = 1, max = 1000) int seed,
            @ForAll @IntRange(min = 1, max = 40) int kilobytes, @ForAll boolean dcqcn) throws IOException {
        int hosts = leaves * hostsPerLeaf;
        String yaml = """
                name: prop
                seed: 1
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: %d, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: 100KB
                  ecn: {marking: red, kmin: 10KB, kmax: 40KB, pmax: 0.5}
                nic: {cc: %s, timeout: 8}
                observe: {sample-interval: 3us}
                traffic:
                  - {kind: permutation, size: %dKB}
                  - {kind: incast, senders: 1-%d, receiver: 0, size: %dKB, start: 2us}
                """.formatted(leaves, spines, hostsPerLeaf, dcqcn ? "dcqcn" : "none", kilobytes,
                Math.max(1, hosts - 1), kilobytes);
        // jqwik does not inject JUnit's temporary folder.
        Path base = Files.createTempDirectory("rocelab-parallel");
        try {
            Ran one = run(yaml, seed, 1, base.resolve("one"));
            Ran many = run(yaml, seed, threads, base.resolve("many"));
            assertThat(many.sim().partitions()).isEqualTo(Math.min(threads, leaves));
            assertFewerThreadsNoted(many.sim(), threads, leaves);
            assertSameFiles(one.dir(), many.dir());
        } finally {
            try (Stream<Path> walk = Files.walk(base)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A run asked for more threads than the fabric has leaves says so; one that got them says nothing. */
    static void assertFewerThreadsNoted(Simulation sim, int threads, int leaves) {
        if (threads > leaves) {
            assertThat(sim.threadsNote()).isEqualTo("asked for " + threads + " threads, ran on " + leaves + ": the"
                    + " fabric splits into at most " + leaves + " partitions, one per leaf switch (host links are not"
                    + " cut)");
        } else {
            assertThat(sim.threadsNote()).isNull();
        }
    }

    /**
     * Every file of the two output folders, byte for byte; summary.json without its wall-clock keys and the note of
     * a run that asked for threads it did not get (checked apart).
     */
    static void assertSameFiles(Path a, Path b) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(a)) {
            files = walk.filter(Files::isRegularFile).map(a::relativize).sorted().toList();
        }
        List<Path> other;
        try (Stream<Path> walk = Files.walk(b)) {
            other = walk.filter(Files::isRegularFile).map(b::relativize).sorted().toList();
        }
        assertThat(other).isEqualTo(files);
        assertThat(files).contains(Path.of("flows.csv"), Path.of("ports.csv"), Path.of("nics.csv"),
                Path.of("rates.csv"), Path.of("queues.csv"), Path.of("throughput.csv"), Path.of("report.html"));
        for (Path f : files) {
            if (f.toString().equals(RunWriter.SUMMARY)) {
                assertThat(withoutWallClock(b.resolve(f))).as(f.toString()).isEqualTo(withoutWallClock(a.resolve(f)));
            } else {
                assertThat(Files.readAllBytes(b.resolve(f))).as(f.toString()).isEqualTo(Files.readAllBytes(a.resolve(f)));
            }
        }
    }

    private static String withoutWallClock(Path summary) throws IOException {
        ObjectNode s = (ObjectNode) new ObjectMapper().readTree(summary.toFile());
        for (String key : Summary.WALL_CLOCK_KEYS) {
            s.remove(key);
        }
        s.remove("threads_note");
        return s.toString();
    }
}
