package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;

/**
 * The ideal figures a run reports (every collective's and job call's bound, the jobs' ends and iterations, the
 * inference requests') are the same whether the run makes them on a second thread while its event loop goes or on
 * its own thread after it, at flow and packet level.
 */
class IdealFiguresTest {
    private static final String SCENARIO = """
            name: aside
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: rail-optimized, servers: 4, gpus-per-server: 4, spines: 2, link: {rate: 100Gbps, delay: 1us}}
            nvlink: {rate: 400Gbps, latency: 1us}
            nic: {cc: dcqcn}
            traffic:
              - {kind: allreduce, ranks: 0-7, size: 256KB, channels: 2}
              - {kind: alltoall, ranks: 8-15, size: 256KB, start: 5us}
            jobs:
              - name: pipeline
                hosts: 0-15
                parallelism: {tp: 4, pp: 2, dp: 2}
                iterations: 2
                generator:
                  type: megatron
                  model: {layers: 4, hidden: 1024, seq: 256, vocab: 1000}
                  batch: {micro: 1, global: 4}
                  compute: {forward-per-layer: 10us, optimizer: 20us}
            """;

    @Test
    void shouldReportTheSameIdealFiguresWhenMadeOnASecondThread() {
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.FLOW, Simulation.Model.PACKET}) {
            Simulation aside = Simulation.assemble(Scenarios.parse(SCENARIO), model);
            aside.secondCore(true);
            RunResult a = aside.run(ProgressListener.NONE);
            Simulation after = Simulation.assemble(Scenarios.parse(SCENARIO), model);
            after.secondCore(false);
            RunResult b = after.run(ProgressListener.NONE);
            assertThat(aside.madeAside()).as(model + ": made on the second thread").isTrue();
            assertThat(after.madeAside()).isFalse();
            assertThat(a.collectives()).as(model + ": the traffic list's and the job's calls").hasSizeGreaterThan(2)
                    .isEqualTo(b.collectives());
            assertThat(a.collectives()).allSatisfy(c -> assertThat(c.idealTimePs()).isPositive());
            assertThat(a.jobs()).isEqualTo(b.jobs());
            assertThat(a.ranks()).isEqualTo(b.ranks());
            assertThat(a.flows()).isEqualTo(b.flows());
            for (int t = 0; t < aside.driver().graph().taskCount(); t++) {
                assertThat(aside.idealBound().taskEndPs(t)).isEqualTo(after.idealBound().taskEndPs(t));
            }
        }
    }
}
