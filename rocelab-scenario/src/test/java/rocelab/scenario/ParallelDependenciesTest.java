package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;
import rocelab.workload.graph.PartitionPlan;

/**
 * Collectives whose dependencies stay inside the partitions of a parallel run (docs/parallel.md, "Workloads with
 * dependencies"): one lane of the workload driver per partition, every output file byte for byte one thread's; and the
 * workloads that do not qualify, on one thread with a note.
 */
class ParallelDependenciesTest {
    /**
     * A ring AllReduce of five ranks over four leaves (at most eight messages per ring connection: no NCCL window
     * dependency), one of four ranks inside a leaf, a halving-doubling AllReduce over every host and a direct AlltoAll
     * (under 1 MiB per pair), overlapping, on lossy RoCE with DCQCN and ECN and a time series.
     */
    private static final String COLLECTIVES = """
            name: par-deps
            seed: 7
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch:
              buffer: 200KB
              ecn: {marking: red, kmin: 20KB, kmax: 80KB, pmax: 0.2}
            nic: {cc: dcqcn, timeout: 8}
            observe: {sample-interval: 3us}
            traffic:
              - {kind: allreduce, ranks: [0, 4, 8, 12, 1], size: 400KB}
              - {kind: allreduce, ranks: 4-7, size: 300KB, start: 5us}
              - {kind: allreduce, ranks: 0-15, size: 320KB, algorithm: halving-doubling, start: 20us}
              - {kind: alltoall, ranks: 0-15, size: 480KB, start: 10us}
            """;

    @TempDir
    Path tmp;

    private record Ran(Path dir, Simulation sim) {}

    private static Ran run(String yaml, long seed, int threads, Path out) throws IOException {
        Simulation sim = Simulation.assemble(Scenarios.parse(yaml).withSeed(seed), Simulation.Model.PACKET, threads);
        RunResult r = sim.run(ProgressListener.NONE);
        ReportWriter.writeRun(out, r, Map.of());
        return new Ran(out, sim);
    }

    private void sameOnOneTwoAndThree(String yaml, long seed, String name) throws IOException {
        Ran one = run(yaml, seed, 1, tmp.resolve(name + "1"));
        assertThat(Files.readString(one.dir().resolve(RunWriter.SUMMARY))).contains("\"completed\"");
        assertThat(Files.readString(one.dir().resolve("collectives.csv")).lines().count()).isGreaterThan(1);
        for (int threads = 2; threads <= 3; threads++) {
            Ran many = run(yaml, seed, threads, tmp.resolve(name + threads));
            assertThat(many.sim().partitions()).as("split").isEqualTo(threads);
            assertThat(many.sim().threadsNote()).isNull();
            assertThat(many.sim().network().crossings()).as("frames crossed partitions").isPositive();
            assertThat(many.sim().eventsProcessed()).as("events").isEqualTo(one.sim().eventsProcessed());
            ParallelRunTest.assertSameFiles(one.dir(), many.dir());
        }
    }

    @Test
    void shouldWriteTheSameFilesForCollectivesOnALossyFabric() throws IOException {
        sameOnOneTwoAndThree(COLLECTIVES, 7, "lossy");
    }

    @Test
    void shouldWriteTheSameFilesForCollectivesOnALosslessFabricWithPfc() throws IOException {
        String lossless = COLLECTIVES.replace("roce-lossy", "roce-lossless").replace("buffer: 200KB", "buffer: 600KB")
                .replace("switch:\n", "switch:\n  pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}\n");
        sameOnOneTwoAndThree(lossless, 3, "pfc");
        assertThat(Files.readString(tmp.resolve("pfc1").resolve("pfc.csv")).lines().count()).as("PFC frames")
                .isGreaterThan(2);
    }

    @Test
    void shouldWriteTheSameFilesWhenQueuePairsFail() throws IOException {
        // Tiny buffers, no retries and a short timeout: queue pairs fail, and what waited for them fails with them.
        String failing = COLLECTIVES.replace("buffer: 200KB", "buffer: 20KB").replace("nic: {cc: dcqcn, timeout: 8}",
                "nic: {cc: none, timeout: 1, retry-count: 0}");
        Ran one = run(failing, 7, 1, tmp.resolve("fail1"));
        assertThat(Files.readString(one.dir().resolve("flows.csv"))).as("some flows failed").contains(",failed,");
        Ran many = run(failing, 7, 2, tmp.resolve("fail2"));
        assertThat(many.sim().partitions()).isEqualTo(2);
        ParallelRunTest.assertSameFiles(one.dir(), many.dir());
    }

    /**
     * A ring of twelve ranks over three leaves: message k on connection r -> r+1 waits for the delivery of message
     * k - 8 at r + 1 (NCCL's window), which crosses a partition at every boundary. Checked between windows, it is never
     * the last wait here, so the ring runs split, every file one thread's.
     */
    @Test
    void shouldRunARingWhoseWindowCrossesPartitionsSplitWithOneThreadsFiles() throws IOException {
        String base = COLLECTIVES.replaceAll("(?s)traffic:.*", "traffic:\n");
        String ring = base + "  - {kind: allreduce, ranks: 0-11, size: 600KB}\n";
        ScenarioConfig c = Scenarios.parse(ring);
        Topology topology = c.topology().build();
        PartitionPlan plan = PartitionPlan.of(Simulation.workloadGraph(c, topology),
                Arrays.copyOf(FabricPartition.of(topology, 2), topology.hostCount()));
        assertThat(plan.checked()).as("window dependencies between partitions").isTrue();
        assertThat(plan.crossCount()).isPositive();
        Ran one = run(ring, 7, 1, tmp.resolve("ring1"));
        for (int threads = 2; threads <= 3; threads++) {
            Ran many = run(ring, 7, threads, tmp.resolve("ring" + threads));
            assertThat(many.sim().startedOver()).isNull();
            assertThat(many.sim().partitions()).as("split").isEqualTo(threads);
            assertThat(many.sim().threadsNote()).isNull();
            ParallelRunTest.assertSameFiles(one.dir(), many.dir());
        }
    }

    /**
     * The same ring with one slow receiver (host 8 takes 10 Gb/s) in the partition after its sender's: host 4's sends
     * to it outrun its deliveries, so a send's last wait is the window, a delivery in the other partition, which a
     * window cannot hide. The split run finds that between windows and the run is made again on one thread: the
     * outputs are one thread's, and the note says why it ran on one.
     */
    @Test
    void shouldRunAgainOnOneThreadWhenACheckedDependencyWasATasksLastWait() throws IOException {
        String base = COLLECTIVES.replaceAll("(?s)traffic:.*", "traffic:\n").replace("roce-lossy", "roce-lossless")
                .replace("buffer: 200KB", "buffer: 600KB").replace("nic: {cc: dcqcn, timeout: 8}",
                        "nic: {cc: dcqcn, timeout: 8}\nnics:\n  - {hosts: 8, rx: {rate: 10Gbps}}");
        String ring = base + "  - {kind: allreduce, ranks: [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14], size: 600KB}\n";
        Ran one = run(ring, 7, 1, tmp.resolve("slow1"));
        Ran two = run(ring, 7, 2, tmp.resolve("slow2"));
        assertThat(two.sim().startedOver()).startsWith("ran again on one thread after starting on 2: flow 4->8")
                .contains("last waiting for a completion in another partition");
        assertThat(two.sim().partitions()).isEqualTo(1);
        assertThat(two.sim().threadsNote()).startsWith("asked for 2 threads, ran on one: flow 4->8")
                .endsWith("so the split run was not exact and was run again");
        assertThat(two.sim().eventsProcessed()).isEqualTo(one.sim().eventsProcessed());
        assertThat(Files.readString(two.dir().resolve(RunWriter.SUMMARY))).contains("\"threads_note\"");
        for (String f : new String[] {"flows.csv", "collectives.csv", "ports.csv", "nics.csv", "pfc.csv", "queues.csv",
            "rates.csv", "report.html"}) {
            assertThat(Files.readAllBytes(two.dir().resolve(f))).as(f).isEqualTo(Files.readAllBytes(one.dir().resolve(f)));
        }
    }

    @Test
    void shouldSayWhyCollectivesWhoseDependenciesCrossPartitionsRunOnOneThread() throws IOException {
        String base = COLLECTIVES.replaceAll("(?s)traffic:.*", "traffic:\n");
        // A tree of twelve ranks: a forwarding send waits for its message's delivery at a third rank.
        Ran tree = run(base + "  - {kind: allreduce, ranks: 0-11, size: 1200KB, algorithm: tree}\n", 7, 3,
                tmp.resolve("tree"));
        assertThat(tree.sim().partitions()).isEqualTo(1);
        assertThat(tree.sim().threadsNote()).contains("asked for 3 threads, ran on one")
                .contains("wait for one another across partitions").contains("not a receiver's window")
                .contains("delivered in partition");
        assertThat(Files.readString(tree.dir().resolve(RunWriter.SUMMARY))).contains("\"threads_note\"");
        // A second iteration waits for every peer's first (a join of another partition).
        Simulation twice = Simulation.assemble(Scenarios.parse(base
                + "  - {kind: allreduce, ranks: [0, 4, 8, 12], size: 40KB, iterations: 2}\n"),
                Simulation.Model.PACKET, 2);
        assertThat(twice.partitions()).isEqualTo(1);
        assertThat(twice.threadsNote()).contains("join");
        // Pairwise AlltoAll: each step waits for the peers' previous step.
        Simulation pairwise = Simulation.assemble(Scenarios.parse(base
                + "  - {kind: alltoall, ranks: 0-15, size: 64KB, algorithm: pairwise}\n"), Simulation.Model.PACKET, 2);
        assertThat(pairwise.partitions()).isEqualTo(1);
        assertThat(pairwise.threadsNote()).contains("across partitions");
        // Out-of-order placement: the receiver delivers by the sender's posted messages.
        Simulation ooo = Simulation.assemble(Scenarios.parse(COLLECTIVES.replace("timeout: 8}", "timeout: 8, ooo: true}")),
                Simulation.Model.PACKET, 2);
        assertThat(ooo.partitions()).isEqualTo(1);
        assertThat(ooo.threadsNote()).contains("asked for 2 threads, ran on one").contains("out-of-order placement");
        // Chosen automatically: silently one thread.
        Simulation auto = Simulation.assembleAutomatic(Scenarios.parse(base
                + "  - {kind: allreduce, ranks: 0-11, size: 1200KB, algorithm: tree}\n"), Simulation.Model.PACKET, 4);
        assertThat(auto.partitions()).isEqualTo(1);
        assertThat(auto.threadsNote()).isNull();
    }

    @Test
    void shouldPlaceEveryTaskWhereItActs() {
        ScenarioConfig c = Scenarios.parse(COLLECTIVES);
        Topology topology = c.topology().build();
        var graph = Simulation.workloadGraph(c, topology);
        int[] partitionOfHost = Arrays.copyOf(FabricPartition.of(topology, 2), topology.hostCount());
        PartitionPlan plan = PartitionPlan.of(graph, partitionOfHost);
        assertThat(plan.reason()).isNull();
        assertThat(plan.crossCount()).isZero();
        assertThat(plan.localEdges()).isPositive();
        for (int f = 0; f < graph.flowCount(); f++) {
            assertThat(plan.laneOf(graph.flowTask(f))).isEqualTo(partitionOfHost[graph.flowSource(f)]);
        }
        // The start markers of the traffic items end among the roots: the serial phase's.
        assertThat(plan.laneOf(0)).isEqualTo(PartitionPlan.SERIAL);
    }

    /**
     * Small random fabrics, collectives that keep their dependencies in partitions or whose dependencies between them
     * are checked (rings of up to every host, an AlltoAll of at most 1 MiB per pair, halving-doubling), seeds,
     * losslessness and thread counts: one thread's files.
     */
    @Property(tries = 6)
    void shouldMatchOneThreadOnRandomCollectives(@ForAll @IntRange(min = 2, max = 4) int leaves,
            @ForAll @IntRange(min = 1, max = 2) int spines, @ForAll @IntRange(min = 2, max = 3) int hostsPerLeaf,
            @ForAll @IntRange(min = 2, max = 4) int threads, @ForAll @IntRange(min = 1, max = 1000) int seed,
            @ForAll @IntRange(min = 2, max = 60) int kilobytes, @ForAll boolean lossless,
            @ForAll @IntRange(min = 0, max = 1000) int pick) throws IOException {
        int hosts = leaves * hostsPerLeaf;
        List<Integer> ring = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            ring.add(h);
        }
        Collections.shuffle(ring, new Random(pick));
        // Up to every host: rings of more than five ranks have window dependencies across partitions, checked.
        ring = ring.subList(0, Math.min(hosts, 2 + pick % 11));
        int pow2 = Integer.highestOneBit(hosts);
        String yaml = """
                name: prop
                fabric: {mode: %s, mtu: 1000}
                topology: {kind: leaf-spine, leaves: %d, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                switch:
                  buffer: %s
                  ecn: {marking: red, kmin: 10KB, kmax: 40KB, pmax: 0.5}
                nic: {cc: dcqcn, timeout: 8}
                observe: {sample-interval: 4us}
                traffic:
                  - {kind: allreduce, ranks: %s, size: %dKB}
                  - {kind: alltoall, ranks: 0-%d, size: %dKB, start: 3us}
                  - {kind: allreduce, ranks: 0-%d, size: %dKB, algorithm: halving-doubling, start: 1us}
                """.formatted(lossless ? "roce-lossless" : "roce-lossy", leaves, spines, hostsPerLeaf,
                lossless ? "600KB" : "150KB", ring, kilobytes,
                hosts - 1, kilobytes * 2, pow2 - 1, kilobytes);
        Path base = Files.createTempDirectory("rocelab-parallel-deps");
        try {
            Ran one = run(yaml, seed, 1, base.resolve("one"));
            Ran many = run(yaml, seed, threads, base.resolve("many"));
            if (many.sim().startedOver() == null) {
                ParallelRunTest.assertFewerThreadsNoted(many.sim(), threads, leaves);
                assertThat(many.sim().partitions()).isEqualTo(Math.min(threads, leaves));
                ParallelRunTest.assertSameFiles(one.dir(), many.dir());
            } else {
                // A checked window was a send's last wait: run again on one thread, its files but the note.
                assertThat(many.sim().threadsNote()).contains("ran on one");
                assertThat(Files.readAllBytes(many.dir().resolve("flows.csv")))
                        .isEqualTo(Files.readAllBytes(one.dir().resolve("flows.csv")));
            }
        } finally {
            try (Stream<Path> walk = Files.walk(base)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
