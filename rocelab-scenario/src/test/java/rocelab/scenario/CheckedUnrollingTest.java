package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.job.CheckedUnrolling;
import rocelab.workload.job.JobEmitter;
import rocelab.workload.job.JobSpec;

/** The run takes the job unrolling the reader made to check the job, and runs exactly as if it unrolled it again. */
class CheckedUnrollingTest {
    private static final String MEGATRON = """
            name: checked-unrolling
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 4, gpus-per-server: 4, spines: 2,
                       link: {rate: 400Gbps, delay: 500ns}, uplink: {rate: 400Gbps, delay: 1us}}
            nvlink: {rate: 3600Gbps, latency: 1us}
            nic: {cc: dcqcn}
            jobs:
              - name: gpt
                hosts: 0-15
                parallelism: {tp: 4, pp: 2, dp: 2}
                order: [tp, dp, pp]
                generator:
                  type: megatron
                  model: {layers: 4, hidden: 1024, seq: 256, vocab: 5120}
                  batch: {micro: 1, global: 8}
                  options: {sequence-parallel: true, distributed-optimizer: true}
                  compute: {forward-per-layer: 10us, optimizer: 20us}
            """;

    @TempDir
    Path dir;

    @Test
    void shouldRunTheReadersUnrollingOnceAndAsIfTheJobWereUnrolledAgain() throws IOException {
        ScenarioConfig config = Scenarios.parse(MEGATRON);
        JobSpec job = config.jobs().get(0);
        CheckedUnrolling.Kept kept = CheckedUnrolling.take(job);
        assertThat(kept).as("the reader keeps its unrolling of the first job").isNotNull();
        assertThat(CheckedUnrolling.take(job)).as("taken once").isNull();
        CheckedUnrolling.keep(job, kept.graph(), kept.tasks());

        Simulation reused = Simulation.assemble(config, Simulation.Model.FLOW);
        assertThat(reused.driver().graph()).isSameAs(kept.graph());
        Simulation unrolled = Simulation.assemble(config, Simulation.Model.FLOW);
        assertThat(unrolled.driver().graph()).as("a second run unrolls the job itself").isNotSameAs(kept.graph());

        assertThat(outputs(reused.run(ProgressListener.NONE), "reused"))
                .isEqualTo(outputs(unrolled.run(ProgressListener.NONE), "unrolled"));
    }

    @Test
    void shouldUnrollAgainWhenTheKeptGraphWasBuiltOtherwise() {
        ScenarioConfig config = Scenarios.parse(MEGATRON);
        JobSpec job = config.jobs().get(0);
        // Unrolled without the servers and NVLink the run's graph has: its transfers inside a server are flows.
        TaskGraph other = new TaskGraph();
        CheckedUnrolling.keep(job, other, JobEmitter.emit(other, job));
        Simulation s = Simulation.assemble(config, Simulation.Model.FLOW);
        assertThat(s.driver().graph()).isNotSameAs(other);
        assertThat(s.driver().graph().flowCount()).isLessThan(other.flowCount());

        // Nor is the unrolling of the same job read once more taken by the other instance.
        ScenarioConfig again = Scenarios.parse(MEGATRON);
        assertThat(again.jobs().get(0)).isNotSameAs(job);
        CheckedUnrolling.Kept kept = CheckedUnrolling.take(again.jobs().get(0));
        CheckedUnrolling.keep(job, kept.graph(), kept.tasks());
        assertThat(Simulation.assemble(again, Simulation.Model.FLOW).driver().graph()).isNotSameAs(kept.graph());
    }

    /** flows.csv written on a thread of its own beside the other files: the same folder as written in turn. */
    @Test
    void shouldWriteTheSameFolderWithFlowsCsvOnAThreadOfItsOwn() throws IOException {
        ScenarioConfig config = Scenarios.parse(MEGATRON);
        RunResult r = Simulation.assemble(config, Simulation.Model.FLOW).run(ProgressListener.NONE);
        assertThat(r.flows()).isNotEmpty();

        assertThat(outputs(r, "beside", new RunWriter(0))).contains("flows.csv\nflow_id,")
                .isEqualTo(outputs(r, "in-turn", new RunWriter(Integer.MAX_VALUE)));
    }

    /** Every output file of a run, but the summary's wall-clock figures, as one text. */
    private String outputs(RunResult r, String name) throws IOException {
        return outputs(r, name, new RunWriter());
    }

    private String outputs(RunResult r, String name, RunWriter writer) throws IOException {
        Path out = dir.resolve(name);
        writer.write(out, r, Map.of());
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(out)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String text = Files.readString(f);
                if (f.getFileName().toString().equals("summary.json")) {
                    text = text.replaceAll("\"(wall_seconds|events_per_second)\": [0-9.eE+-]+", "");
                }
                b.append(f.getFileName()).append('\n').append(text);
            }
        }
        return b.toString();
    }
}
