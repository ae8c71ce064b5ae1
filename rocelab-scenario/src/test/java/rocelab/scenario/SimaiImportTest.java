package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.Step;

/** SimAI / AICB workload files read into jobs: the same task graph and results as the step language. */
class SimaiImportTest {
    private static final String FABRIC = """
            name: simai
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 2, gpus-per-server: 2, spines: 1, link: {rate: 100Gbps}}
            nvlink: {rate: 900Gbps}
            nic: {cc: dcqcn}
            """;

    /** TP 2 x DP 2, two layers, in AICB's layout (tabs, update time 100 ns). */
    private static final String WORKLOAD = """
            HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 1 vpp: 2 ga: 1 all_gpus: 4 \
            checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0
            2
            attention\t-1\t20000\tALLREDUCE\t1048576\t30000\tALLREDUCE\t1048576\t25000\tNONE\t0\t100
            mlp\t-1\t40000\tALLREDUCE\t1048576\t50000\tALLREDUCE\t1048576\t45000\tALLREDUCE\t2097152\t100
            """;

    /** The same workload in the step language, as docs/scenario-format.md says SimAI's loop is read. */
    private static final String STEPS = """
            jobs:
              - name: w
                hosts: 0-3
                parallelism: {tp: 2, dp: 2}
                iterations: 2
                program:
                  - {id: f0, op: compute, duration: 20us}
                  - {id: fc0, op: allreduce, group: tp, size-total: 1MiB}
                  - {id: fu0, op: delay, duration: 100ns}
                  - {id: f1, op: compute, duration: 40us}
                  - {id: fc1, op: allreduce, group: tp, size-total: 1MiB}
                  - {id: fu1, op: delay, duration: 100ns}
                  - {id: i1, op: compute, duration: 50us}
                  - {id: ic1, op: allreduce, group: tp, size-total: 1MiB}
                  - {id: iu1, op: delay, duration: 100ns}
                  - {id: w1, op: compute, duration: 45us}
                  - {id: wc1, op: allreduce, group: [ep, dp], size-total: 2MiB, stream: wg, after: [w1]}
                  - {id: wu1, op: delay, duration: 100ns, stream: wg}
                  - {id: i0, op: compute, duration: 30us}
                  - {id: ic0, op: allreduce, group: tp, size-total: 1MiB}
                  - {id: iu0, op: delay, duration: 100ns}
                  - {id: w0, op: compute, duration: 25us}
            """;

    private static ScenarioConfig read(Path dir, String yaml) throws ScenarioException {
        return new ScenarioReader().read(yaml, dir.resolve("s.yaml").toString(), dir);
    }

    @Test
    void shouldCountItsNotesInWords(@TempDir Path dir) throws Exception {
        // TP 4 on 4 GPUs: the one layer's weight-gradient AllReduce is over a data-parallel group of one rank.
        Files.writeString(dir.resolve("w.txt"), """
                HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 4 ep: 1 pp: 1 vpp: 1 ga: 1 all_gpus: 4 \
                checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0
                1
                mlp\t-1\t40000\tALLREDUCE\t1048576\t50000\tNONE\t0\t45000\tALLREDUCE\t2097152\t100
                """);
        JobSpec job = read(dir, FABRIC + "jobs: [{name: w, simai: w.txt, hosts: 0-3, iterations: 1}]\n").jobs().get(0);
        assertThat(job.notes()).contains("1 collective over a group of one rank is skipped (nothing to exchange)")
                .contains("the dependency column of 1 layer is read and not used (SimAI does not use it either)")
                .anyMatch(n -> n.startsWith("a rank starts its next iteration when all of its collectives are done"));
    }

    @Test
    void shouldRunLikeTheSameWorkloadInTheStepLanguage(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("w.txt"), WORKLOAD);
        ScenarioConfig imported = read(dir, FABRIC + """
                jobs: [{name: w, simai: w.txt, hosts: 0-3, iterations: 2}]
                """);
        ScenarioConfig written = read(dir, FABRIC + STEPS);
        JobSpec job = imported.jobs().get(0);
        assertThat(job.layout().degree(Dim.TP)).isEqualTo(2);
        assertThat(job.layout().degree(Dim.DP)).isEqualTo(2);
        assertThat(job.layout().degrees()).isEqualTo(written.jobs().get(0).layout().degrees());
        // Step for step the same program, ids and source positions aside.
        assertThat(job.program()).hasSameSizeAs(written.jobs().get(0).program());
        for (int i = 0; i < job.program().size(); i++) {
            assertThat(shape(job.program().get(i))).isEqualTo(shape(written.jobs().get(0).program().get(i)));
        }
        assertThat(job.notes()).anyMatch(n -> n.startsWith("SimAI header vpp 2 is read and not used"))
                .anyMatch(n -> n.startsWith("the dependency column of 2 layers"));
        RunResult a = Simulation.assemble(imported).run(ProgressListener.NONE);
        RunResult b = Simulation.assemble(written).run(ProgressListener.NONE);
        assertThat(a.jobs().get(0).completed()).isTrue();
        assertThat(a.jobs().get(0).jctPs()).isEqualTo(b.jobs().get(0).jctPs());
        assertThat(a.jobs().get(0).idealJctPs()).isEqualTo(b.jobs().get(0).idealJctPs());
        assertThat(a.flows()).hasSameSizeAs(b.flows());
        for (int i = 0; i < a.flows().size(); i++) {
            assertThat(a.flows().get(i).finishPs()).isEqualTo(b.flows().get(i).finishPs());
        }
        assertThat(a.collectives()).hasSize(b.collectives().size()).hasSize(2 * (2 * 2 + 2 * 2 + 1 * 2));
        // The same at flow level.
        RunResult fa = Simulation.assemble(imported, Simulation.Model.FLOW).run(ProgressListener.NONE);
        RunResult fb = Simulation.assemble(written, Simulation.Model.FLOW).run(ProgressListener.NONE);
        assertThat(fa.jobs().get(0).completed()).isTrue();
        assertThat(fa.jobs().get(0).jctPs()).isEqualTo(fb.jobs().get(0).jctPs()).isPositive();
        assertThat(fa.flows()).hasSameSizeAs(a.flows());
        for (int i = 0; i < fa.flows().size(); i++) {
            assertThat(fa.flows().get(i).finishPs()).isEqualTo(fb.flows().get(i).finishPs());
        }
        // And the task graph: the same tasks with the same dependencies.
        assertThat(ChakraImportTest.graph(job)).isEqualTo(ChakraImportTest.graph(written.jobs().get(0)));
    }

    /** A step without its id and position: what it does. */
    private static String shape(Step s) {
        return s.toString().replaceAll("Meta\\[id=[^,]*,", "Meta[").replaceAll("after=\\[[^]]*]", "after")
                .replaceAll("line=\\d+, column=\\d+", "");
    }

    @Test
    void shouldReadAMicroBenchmarkAsCollectivesOneAfterTheOther(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("m.txt"), """
                MICRO
                2
                micro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t1048576\t1
                micro_test\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLGATHER\t2097152\t1
                """);
        ScenarioConfig c = read(dir, FABRIC + "jobs: [{name: m, simai: m.txt, hosts: 0-3}]\n");
        JobSpec job = c.jobs().get(0);
        assertThat(job.layout().degree(Dim.DP)).isEqualTo(4);
        RunResult r = Simulation.assemble(c).run(ProgressListener.NONE);
        assertThat(r.collectives()).hasSize(2);
        assertThat(r.collectives().get(0).algorithm()).startsWith("allreduce");
        assertThat(r.collectives().get(1).algorithm()).startsWith("allgather");
        assertThat(r.collectives().get(1).startPs()).isGreaterThanOrEqualTo(r.collectives().get(0).endPs());
    }

    @Test
    void shouldRejectBadFilesAtFileLineColumn(@TempDir Path dir) throws IOException {
        String job = "jobs: [{name: w, simai: w.txt, hosts: 0-3}]\n";
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("NONE\t0\t100", "BROADCAST\t0\t100"));
            read(dir, FABRIC + job);
        }).hasMessage(dir.resolve("w.txt") + ":3:68: 'BROADCAST' is not a communication type rocelab imports;"
                + " expected NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER or ALLTOALL, optionally with _EP or _DP_EP");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("\t45000", ""));
            read(dir, FABRIC + job);
        }).hasMessageStartingWith(dir.resolve("w.txt") + ":4:").hasMessageContaining("has 11 fields; expected 12");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("\t30000\t", "\t3e4\t"));
            read(dir, FABRIC + job);
        }).hasMessage(dir.resolve("w.txt") + ":3:38: '3e4' is not a time in nanoseconds; expected a whole number >= 0");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("all_gpus: 4", "all_gpus: 8"));
            read(dir, FABRIC + job);
        }).hasMessageContaining("w.txt:1:").hasMessageContaining("all_gpus 8 but the job places 4 hosts");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("ga: 1", "gb: 1"));
            read(dir, FABRIC + job);
        }).hasMessageContaining("w.txt:1:").hasMessageContaining("'gb:' is not a SimAI header key");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("w.txt"), WORKLOAD.replace("\n2\n", "\n3\n"));
            read(dir, FABRIC + job);
        }).hasMessageContaining("the file has 2 layer lines but line 2 announces 3");
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: w, simai: w.txt, hosts: 0-3, parallelism: {dp: 4}}]"))
                .hasMessageContaining("s.yaml:6:").hasMessageContaining("expected no parallelism key with simai");
        assertThatThrownBy(() -> read(dir, FABRIC + "jobs: [{name: w, simai: none.txt, hosts: 0-3}]"))
                .hasMessageContaining("s.yaml:6:").hasMessageContaining("file not found");
    }
}
