package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.RunWriter;

/**
 * A streamed flow-level run ({@link StreamedRun}: the collective's tasks added a ring step at a time and retired once
 * done) gives what the whole-graph flow-level run gives: the same collective time and ideal bound, the same flows
 * counted with the same FCTs, while holding only a window of the tasks.
 */
class StreamedRunTest {
    /** 4 servers of 4 GPUs, a rail per GPU index: the hierarchical AllReduce's rings inside and across servers. */
    private static final String RAIL = "name: t\nfabric: {mode: roce-lossless}\n"
            + "topology: {kind: rail-optimized, servers: 8, gpus-per-server: 4, spines: 2, link: {rate: 400Gbps,"
            + " delay: 500ns}, uplink: {rate: 400Gbps, delay: 1us}}\n"
            + "nvlink: {rate: 3600Gbps, latency: 1us}\n";

    private static final String HIERARCHICAL = RAIL
            + "traffic:\n  - {kind: allreduce, ranks: 0-31, size: 64MiB, algorithm: hierarchical, iterations: 2}\n";

    /** A ring over a leaf-spine fabric, on two channels, where ECMP picks among the spines. */
    private static final String RING = "name: t\nfabric: {mode: roce-lossless}\n"
            + "topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps}}\n"
            + "traffic:\n  - {kind: allreduce, ranks: 0-15, size: 8MiB, channels: 2}\n";

    private static RunResult whole(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml), Simulation.Model.FLOW).run(ProgressListener.NONE);
    }

    private static void assertSameAsTheWholeGraph(String yaml, int window) {
        RunResult whole = whole(yaml);
        StreamedRun streamed = StreamedRun.assemble(Scenarios.parse(yaml), window, window / 4, window / 4);
        RunResult s = streamed.result(ProgressListener.NONE);

        assertThat(s.finished()).isTrue();
        assertThat(s.flows()).isEmpty();
        var w = whole.collectives().get(0);
        var c = s.collectives().get(0);
        assertThat(c.endPs()).isEqualTo(w.endPs());
        assertThat(c.startPs()).isEqualTo(w.startPs());
        assertThat(c.idealTimePs()).isEqualTo(w.idealTimePs());
        assertThat(s.simulatedPs()).isEqualTo(whole.simulatedPs());
        var all = s.flowsAggregated().all();
        List<FlowRecord> flows = whole.flows();
        assertThat(all.count()).isEqualTo(flows.size());
        assertThat(all.completedCount()).isEqualTo(flows.stream().filter(FlowRecord::completed).count());
        assertThat(all.bytesCompleted()).isEqualTo(flows.stream().mapToLong(FlowRecord::sizeBytes).sum());
        assertThat(all.fctMinPs()).isEqualTo(flows.stream().mapToLong(FlowRecord::fctPs).min().orElseThrow());
        assertThat(all.fctMaxPs()).isEqualTo(flows.stream().mapToLong(FlowRecord::fctPs).max().orElseThrow());
        assertThat(all.fctMeanPs()).isEqualTo(flows.stream().mapToLong(FlowRecord::fctPs).average().orElseThrow());
        assertThat(all.firstStartPs()).isEqualTo(flows.stream().mapToLong(FlowRecord::startPs).min().orElseThrow());
        assertThat(all.lastFinishPs()).isEqualTo(flows.stream().mapToLong(FlowRecord::finishPs).max().orElseThrow());
        assertThat(s.events()).isEqualTo(whole.events() - 1); // the whole graph's driver wakes once for its roots
    }

    @Test
    void shouldRunAHierarchicalAllReduceStreamedAsTheWholeGraphDoes() {
        // A window of 4,096 tasks for about 2 x 1,900 tasks per run: slots are reused many times over.
        assertSameAsTheWholeGraph(HIERARCHICAL, 1 << 12);
    }

    @Test
    void shouldRunARingOnTwoChannelsOverEcmpStreamedAsTheWholeGraphDoes() {
        assertSameAsTheWholeGraph(RING, 1 << 10);
    }

    /** The audit's ring: 16 ranks across 4 leaves, each ring step crossing the spines, on two channels. */
    private static String ring(int ranks, int channels, int iterations) {
        return "name: t\nfabric: {mode: roce-lossless, mtu: 4096}\n"
                + "topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts-per-leaf: 4, link: {rate: 100Gbps,"
                + " delay: 1us}}\nnic: {cc: dcqcn}\n"
                + "traffic:\n  - {kind: allreduce, ranks: [" + ranks + "], size: 1MiB, algorithm: ring, channels: "
                + channels + ", iterations: " + iterations + "}\n";
    }

    @Test
    void shouldRunARingOfSeveralIterationsStreamedAsTheWholeGraphDoes() {
        // Each run reuses the first run's queue pairs, streamed as whole (it used to open new ones, on other paths).
        assertSameRun(ring16(), 1 << 10);
        assertSameRun(ring(8, 2, 2).replace("[8]", "[0,4,8,12,1,5,9,13]"), 1 << 10);
    }

    private static String ring16() {
        return ring(16, 2, 3).replace("[16]", "[0,4,8,12,1,5,9,13,2,6,10,14,3,7,11,15]");
    }

    /**
     * The streamed ideal time is the whole graph's pass bound of the last run's done tasks (the same graph, the same
     * connections), at most the whole graph's collective bound (which adds the walk over every transfer), and no run
     * of the same input, flow or packet level, streamed or whole, is below either. The audit found it 9 us above the
     * whole graph's on this ring, from queue pairs opened anew for every run.
     */
    @Test
    void shouldGiveAStreamedIdealTimeNoHigherThanTheWholeGraphsOnSeveralIterations() {
        for (String yaml : List.of(ring16(), ring(8, 2, 2).replace("[8]", "[0,4,8,12,1,5,9,13]"),
                ring(4, 2, 3).replace("[4]", "[0,1,2,3]"), HIERARCHICAL)) {
            ScenarioConfig config = Scenarios.parse(yaml);
            Simulation whole = Simulation.assemble(config, Simulation.Model.FLOW);
            RunResult flow = whole.run(ProgressListener.NONE);
            RunResult packet = Simulation.assemble(config, Simulation.Model.PACKET).run(ProgressListener.NONE);
            StreamedRun streamed = StreamedRun.assemble(config, 1 << 12, 1 << 10, 1 << 10);
            RunResult s = streamed.result(ProgressListener.NONE);
            long wholeIdeal = flow.collectives().get(0).idealTimePs();
            long streamedIdeal = s.collectives().get(0).idealTimePs();

            assertThat(packet.collectives().get(0).idealTimePs()).isEqualTo(wholeIdeal);
            assertThat(streamedIdeal).as(yaml).isPositive().isLessThanOrEqualTo(wholeIdeal);
            assertThat(wholeIdeal).isLessThanOrEqualTo(flow.collectives().get(0).endPs())
                    .isLessThanOrEqualTo(packet.collectives().get(0).endPs())
                    .isLessThanOrEqualTo(s.collectives().get(0).endPs());
        }
    }

    private static void assertSameRun(String yaml, int window) {
        RunResult whole = whole(yaml);
        StreamedRun streamed = StreamedRun.assemble(Scenarios.parse(yaml), window, window / 4, window / 4);
        RunResult s = streamed.result(ProgressListener.NONE);
        var w = whole.collectives().get(0);
        var c = s.collectives().get(0);
        assertThat(c.endPs()).isEqualTo(w.endPs());
        assertThat(s.simulatedPs()).isEqualTo(whole.simulatedPs());
        assertThat(s.flowsAggregated().all().count()).isEqualTo(whole.flows().size());
        assertThat(s.flowsAggregated().all().fctMeanPs())
                .isEqualTo(whole.flows().stream().mapToLong(FlowRecord::fctPs).average().orElseThrow());
    }

    @Test
    void shouldReuseTheWindowWhenTheWorkloadIsLargerThanIt() {
        // 512 tasks held, the least this workload's parts (a step of 32 ranks, a phase's joins) leave room for.
        StreamedRun run = StreamedRun.assemble(Scenarios.parse(HIERARCHICAL), 1 << 9, 32, 64);
        run.run();

        assertThat(run.driver().allFinished()).isTrue();
        assertThat(run.driver().tasksAdded()).isGreaterThan(2L << 9);
        assertThat((long) run.driver().graph().retiredTasks()).isGreaterThan(run.driver().tasksAdded() - (1 << 9));
        assertThat(run.collectiveEndPs()).isEqualTo(whole(HIERARCHICAL).collectives().get(0).endPs());
    }

    /** The streamed bound is still a bound: never after the run, and the same as the whole graph's here. */
    @Test
    void shouldKeepTheIdealBoundBelowTheRunWhenStreamed() {
        StreamedRun run = StreamedRun.assemble(Scenarios.parse(HIERARCHICAL), 1 << 12, 1 << 10, 1 << 10);
        run.run();

        assertThat(run.idealCollectiveEndPs()).isPositive().isLessThanOrEqualTo(run.collectiveEndPs());
        assertThat(run.ideal().lastFinishPs()).isLessThanOrEqualTo(run.driver().lastFinishPs());
    }

    @Test
    void shouldChooseTheStreamedRunOnlyForAFlowLevelRunAboveTheThresholdOrWhenAsked() {
        ScenarioConfig small = Scenarios.parse(HIERARCHICAL);
        ScenarioConfig asked = Scenarios.parse(HIERARCHICAL + "observe: {flows: aggregated}\n");
        ScenarioConfig perFlow = Scenarios.parse(HIERARCHICAL + "observe: {flows: per-flow}\n");

        assertThat(StreamedRun.chosen(small, Simulation.Model.FLOW)).isFalse();
        assertThat(StreamedRun.chosen(asked, Simulation.Model.FLOW)).isTrue();
        assertThat(StreamedRun.chosen(asked, Simulation.Model.PACKET)).isFalse();
        assertThat(StreamedRun.chosen(perFlow, Simulation.Model.FLOW)).isFalse();
        assertThat(FlowsOutput.AUTO.aggregated(true, true, FlowsOutput.AUTO_THRESHOLD + 1)).isTrue();
        assertThat(FlowsOutput.AUTO.aggregated(true, true, FlowsOutput.AUTO_THRESHOLD)).isFalse();
        assertThat(FlowsOutput.AUTO.aggregated(false, true, FlowsOutput.AUTO_THRESHOLD + 1)).isFalse();
        assertThat(FlowsOutput.AUTO.aggregated(true, false, FlowsOutput.AUTO_THRESHOLD + 1)).isFalse();
        // Asking for it changes the outputs, so it is part of the scenario's identity; auto is not.
        assertThat(asked.canonicalText()).contains("flows=aggregated");
        assertThat(small.canonicalText()).doesNotContain("flows=");
    }

    @Test
    void shouldWriteAggregatedFlowsInsteadOfFlowsCsvAndSaySoInTheSummary(@org.junit.jupiter.api.io.TempDir
            Path dir) throws Exception {
        RunResult s = StreamedRun.assemble(Scenarios.parse(HIERARCHICAL)).result(ProgressListener.NONE);
        Files.writeString(dir.resolve("flows.csv"), "from another run\n");
        new RunWriter().write(dir, s, Map.of());

        assertThat(dir.resolve("flows.csv")).doesNotExist();
        List<String> rows = Files.readAllLines(dir.resolve(RunWriter.FLOWS_AGGREGATED));
        assertThat(rows.get(0)).startsWith("size_bytes,flows,completed,failed,unfinished,bytes_completed,");
        assertThat(rows.get(1)).startsWith("all," + s.flowsAggregated().all().count() + ",");
        long perSize = 0;
        for (String row : rows.subList(2, rows.size())) {
            perSize += Long.parseLong(row.split(",")[1]);
        }
        assertThat(perSize).isEqualTo(s.flowsAggregated().all().count());
        String summary = Files.readString(dir.resolve("summary.json"));
        assertThat(summary).contains("\"output\": \"aggregated\"").contains("flows_aggregated.csv");
    }
}
