package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import rocelab.scenario.MemoryBudget;
import rocelab.scenario.Simulation;
import rocelab.scenario.StreamedRun;

/**
 * Scenarios that cannot run are refused while they are read, before anything is built or unrolled (issue 15 item
 * 9): files that never end, alias bombs, repeats that unroll to trillions of steps, and fabrics or traffic larger
 * than the heap. Budgets are given explicitly so the verdicts do not depend on the machine.
 */
class ScenarioLimitsTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossy}\n";
    private static final long GIB = 1L << 30;

    @TempDir
    Path dir;

    private static ScenarioException error(ScenarioReader reader, String yaml) {
        Throwable t = catchThrowable(() -> reader.read(yaml, "t.yaml", Path.of("")));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return (ScenarioException) t;
    }

    private static ScenarioException error(long budgetBytes, String yaml) {
        return error(new ScenarioReader(new MemoryBudget(budgetBytes)), yaml);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldRefuseDeviceWhenScenarioFileNeverEnds() {
        Throwable t = catchThrowable(() -> new ScenarioReader().read(Path.of("/dev/zero")));
        assertThat(t).isInstanceOf(ScenarioException.class).hasMessage("/dev/zero:1:1: /dev/zero has more than 16 MiB"
                + " (it is not a regular file); expected a scenario file (put large flow lists in a flows-csv file)");
    }

    @Test
    void shouldRefuseFileWhenLargerThanTheLimit() throws Exception {
        Path big = dir.resolve("big.yaml");
        byte[] line = "# padding padding padding padding padding padding padding padding padding padding\n".getBytes();
        try (var out = Files.newOutputStream(big)) {
            for (long written = 0; written <= YamlBounds.MAX_BYTES; written += line.length) {
                out.write(line);
            }
        }
        Throwable t = catchThrowable(() -> new ScenarioReader().read(big));
        assertThat(t).isInstanceOf(ScenarioException.class).hasMessageContaining(":1:1: ")
                .hasMessageEndingWith("big.yaml has more than 16 MiB; expected a scenario file (put large flow lists"
                        + " in a flows-csv file)");
    }

    /** Nine levels of ten aliases each: 10^8 compute steps from a file of a few lines. */
    @Test
    void shouldRefuseAliasBombWhenJobProgramExpandsToMillionsOfSteps() {
        StringBuilder y = new StringBuilder(HEAD).append("topology: {kind: single-switch, hosts: 4, link: {rate:"
                + " 100Gbps}}\njobs:\n  - name: j\n    hosts: 0-3\n    parallelism: {dp: 4}\n    program:\n");
        y.append("      - &l0 {op: compute, duration: 1us}\n");
        for (int level = 1; level <= 8; level++) {
            y.append("      - &l").append(level).append(" {repeat: 1, steps: [");
            for (int i = 0; i < 10; i++) {
                y.append(i == 0 ? "" : ", ").append("*l").append(level - 1);
            }
            y.append("]}\n");
        }
        ScenarioException e = error(new ScenarioReader(), y.toString());
        // Level 6 is the first to pass 2,000,000 values (each compute step is 5 of them): it is on line 15.
        assertThat(e.line()).isEqualTo(15);
        assertThat(e.detail()).isEqualTo("this part of the document expands to more than 2000000 values once its"
                + " aliases are followed (*name repeats what &name marks); expected a scenario that spells out less"
                + " (use repeat: N in a job program, or a flows-csv file)");
    }

    @Test
    void shouldRefuseNestedRepeatsWhenTheyUnrollToTrillionsOfSteps() {
        ScenarioException e = error(new ScenarioReader(), HEAD + "topology: {kind: single-switch, hosts: 4, link:"
                + " {rate: 100Gbps}}\njobs:\n  - name: j\n    hosts: 0-3\n    parallelism: {dp: 4}\n    program:\n"
                + "      - repeat: 1000000\n        steps:\n          - repeat: 1000000\n            steps:\n"
                + "              - {op: compute, duration: 1us}\n");
        assertThat(e.line()).isEqualTo(9);
        assertThat(e.detail()).startsWith("the scenario expands to more than 2,147,483,639 tasks (4 hosts, 1"
                + " switch, 4 links, 8,000,000,000,008 other tasks), more than a run can hold");
    }

    @Test
    void shouldRefuseAllToAllWhenItsFlowsDoNotFitTheHeap() {
        ScenarioException e = error(8 * GIB, HEAD + "topology: {kind: single-switch, hosts: 10000, link: {rate:"
                + " 100Gbps}}\ntraffic:\n  - {kind: all-to-all, size: 64KB}\n");
        assertThat(e.line()).isEqualTo(5);
        assertThat(e.detail()).isEqualTo("the scenario needs about 95.5 GiB of memory (10,000 hosts, 1 switch,"
                + " 10,000 links, 99,990,000 flows), more than the 8.0 GiB this JVM may use; expected a smaller"
                + " scenario, or a larger heap (ROCELAB_JAVA_OPTS=-Xmx120g ./rocelab ...)");
    }

    @Test
    void shouldRefuseFatTreeWhenItsForwardingTablesDoNotFitTheHeap() {
        ScenarioException e = error(8 * GIB, HEAD + "topology: {kind: fat-tree, k: 158, link: {rate: 100Gbps}}\n"
                + "traffic:\n  - {kind: flow, src: 0, dst: 1, size: 1MB}\n");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.detail()).startsWith("the scenario needs about 128.8 GiB of memory (986,078 hosts, 31,205"
                + " switches, 2,958,234 links), more than the 8.0 GiB this JVM may use");
    }

    @Test
    void shouldRefuseParallelUplinksWhenTheirPortsDoNotFitTheHeap() {
        ScenarioException e = error(GIB, HEAD + "topology: {kind: leaf-spine, leaves: 32, spines: 16, hosts-per-leaf:"
                + " 16, parallel-uplinks: 1024, link: {rate: 100Gbps}}\ntraffic:\n"
                + "  - {kind: flow, src: 0, dst: 1, size: 1MB}\n");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.detail()).startsWith("the scenario needs about 2.6 GiB of memory (512 hosts, 48 switches, 524,800"
                + " links), more than the 1.0 GiB this JVM may use");
    }

    @Test
    void shouldReadEveryExampleWhenTheBudgetIsHalfAGibibyte() throws Exception {
        ScenarioReader reader = new ScenarioReader(new MemoryBudget(GIB / 2));
        for (String name : ScenarioReader.exampleNames()) {
            assertThat(reader.readExample(name).name()).isNotEmpty();
        }
    }

    /** The scale benchmark scenarios: the small one reads, the 32,768-GPU one is refused before it is unrolled. */
    @Test
    void shouldRefuseTheLargestBenchScenarioWhenItsFlowsDoNotFitTheHeap() throws Exception {
        ScenarioReader reader = new ScenarioReader(new MemoryBudget(6 * GIB));
        assertThat(reader.read(Path.of("../scenarios/bench/scale-allreduce-512.yaml")).name())
                .isEqualTo("scale-allreduce-512");
        Throwable t = catchThrowable(() -> reader.read(Path.of("../scenarios/bench/scale-allreduce-32768.yaml")));
        assertThat(t).isInstanceOf(ScenarioException.class).hasMessageContaining("scale-allreduce-32768.yaml:18:5: the"
                + " scenario needs about 256.3 GiB of memory (32,768 hosts, 24 switches, 32,896 links, 268,369,920"
                + " flows, 458,752 other tasks), more than the 6.0 GiB this JVM may use");
    }

    /**
     * The same 32,768-GPU AllReduce fits once it is streamed (--model flow: only a window of its tasks is held), and is
     * still refused where it would be held whole: asked for a row per flow, at packet level, or as the ideal model.
     */
    @Test
    void shouldAcceptThe32768GpuAllReduceWhenStreamedAndRefuseItWhole() throws Exception {
        Path file = Path.of("../scenarios/bench/scale-allreduce-32768.yaml");
        var config = new ScenarioReader(new MemoryBudget(3 * GIB, true, true)).read(file);
        assertThat(StreamedRun.chosen(config, Simulation.Model.FLOW)).isTrue();

        Throwable ideal = catchThrowable(() -> new ScenarioReader(new MemoryBudget(12 * GIB, true, false)).read(file));
        assertThat(ideal).isInstanceOf(ScenarioException.class).hasMessageContaining("of memory at flow level (");
        String perFlow = Files.readString(file) + "observe: {flows: per-flow}\n";
        Throwable whole = catchThrowable(() -> new ScenarioReader(new MemoryBudget(12 * GIB, true, true))
                .read(perFlow, "t.yaml", Path.of("")));
        assertThat(whole).isInstanceOf(ScenarioException.class).hasMessageContaining("t.yaml:18:5: the scenario needs"
                + " about 128.3 GiB of memory at flow level");
        // A streamed run of it that does not fit is refused too, saying it was sized streamed.
        Throwable tiny = catchThrowable(() -> new ScenarioReader(new MemoryBudget(GIB, true, true)).read(file));
        assertThat(tiny).isInstanceOf(ScenarioException.class).hasMessageContaining("at flow level, streamed (");
    }

    @Test
    void shouldRefuseAFlowsOutputThatIsNotOneOfTheChoices() {
        String yaml = HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\n"
                + "traffic:\n  - {kind: allreduce, ranks: 0-3, size: 1MB}\n" + "observe: {flows: rows}\n";
        assertThat(error(GIB, yaml)).hasMessage("t.yaml:6:18: 'rows' is not a flows output; expected one of: auto,"
                + " per-flow, aggregated");
    }

    @Test
    void shouldRefuseAggregatedFlowsWhenTheWorkloadCannotBeStreamed() {
        String yaml = HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\n"
                + "traffic:\n  - {kind: alltoall, ranks: 0-3, size: 1MB}\n" + "observe: {flows: aggregated}\n";
        assertThat(error(GIB, yaml)).hasMessage("t.yaml:6:18: flows: aggregated is a streamed run, and a streamed"
                + " run's collective is a ring or hierarchical AllReduce, AllGather or ReduceScatter; expected flows:"
                + " per-flow or auto");
    }

    /** A small Megatron job on a rail-optimized cluster with NVLink: TP inside servers, DP and PP across them. */
    private static final String MEGATRON = HEAD + "topology: {kind: rail-optimized, servers: 8, gpus-per-server: 8,"
            + " spines: 2, link: {rate: 400Gbps}}\n"
            + "nvlink: {rate: 3600Gbps, latency: 1us}\n"
            + "jobs:\n  - name: gpt\n    hosts: 0-63\n    parallelism: {tp: 8, pp: 2, dp: 4}\n    order: [tp, dp, pp]\n"
            + "    generator:\n      type: megatron\n      model: {layers: 4, hidden: 1024, seq: 512, vocab: 1000}\n"
            + "      batch: {micro: 1, global: 16}\n      options: {sequence-parallel: true, distributed-optimizer: true}\n"
            + "      compute: {forward-per-layer: 1ms, optimizer: 1ms}\n";

    private static long count(String detail, String what) {
        var m = Pattern.compile("([0-9,]+) " + what).matcher(detail);
        assertThat(m.find()).as(what + " in: " + detail).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /**
     * The estimate counts a job's collective messages that cross the fabric as flows (charged as flows), its NVLink
     * transfers and other steps as tasks, close to what the run builds: it once charged every message as a task.
     */
    @Test
    void shouldEstimateAJobsFlowsAndTasksAsTheRunBuildsThem() throws Exception {
        var config = new ScenarioReader(new MemoryBudget(8 * GIB)).read(MEGATRON, "t.yaml", Path.of(""));
        var graph = Simulation.workloadGraph(config, config.topology().build());
        // Room for the fabric, not for the job: the refusal names the job's counts.
        String detail = error((96L << 20) + (1L << 20), MEGATRON).detail();
        long flows = count(detail, "flows");
        long others = count(detail, "other tasks");

        assertThat(graph.flowCount()).isPositive();
        String built = detail + "; built " + graph.flowCount() + " flows, " + graph.taskCount() + " tasks";
        assertThat(flows).as(built).isBetween((long) graph.flowCount(), 2L * graph.flowCount());
        assertThat(flows + others).as(built).isBetween((long) graph.taskCount(), 2L * graph.taskCount());
    }

    /** At flow level a flow holds no queue pair: the same scenario's estimate is smaller, and says it is flow level. */
    @Test
    void shouldEstimateAFlowLevelRunWithoutQueuePairs() {
        String yaml = HEAD + "topology: {kind: leaf-spine, leaves: 64, spines: 16, hosts-per-leaf: 16, link: {rate:"
                + " 100Gbps}}\ntraffic:\n  - {kind: alltoall, ranks: 0-1023, size: 1GB}\n";
        String packet = error(new ScenarioReader(new MemoryBudget(GIB / 4)), yaml).detail();
        String flow = error(new ScenarioReader(new MemoryBudget(GIB / 4, true)), yaml).detail();

        assertThat(flow).contains("of memory at flow level (");
        assertThat(packet).doesNotContain("at flow level");
        assertThat(gib(flow)).as(flow + " / " + packet).isLessThan(gib(packet));
    }

    private static double gib(String detail) {
        var m = Pattern.compile("needs about ([0-9.]+) GiB").matcher(detail);
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
