package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.output.SummaryText;

/**
 * The printed summary's "slowest" lines of a job tell its calls apart: a call has the same name in every iteration,
 * so a pipeline job's data-parallel AllReduce was printed three times as "j/grads/dp(pp=0)" (one of them the
 * warm-up's, which the per-iteration figures above it leave out), as if three different calls.
 */
class SummarySlowestCallsTest {
    @Test
    void shouldNameTheIterationOfEachSlowestCallAndMarkTheWarmUp() {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: slowest-calls
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                jobs:
                  - name: j
                    hosts: 0-7
                    parallelism: {pp: 2, dp: 4}
                    iterations: 3
                    warmup: 1
                    program:
                      - repeat: 2
                        as: mb
                        steps:
                          - {id: rx,  op: recv, peer: pp-1, when: "pp > 0", stream: recv}
                          - {id: fwd, op: compute, duration: 50us, after: [rx]}
                          - {id: tx,  op: send, peer: pp+1, size: 1MiB, when: "pp < PP-1", stream: send, after: [fwd]}
                      - {id: grads, op: allreduce, group: dp, size-total: 4MiB}
                      - {id: opt,   op: compute, duration: 20us}
                traffic:
                  - {kind: flow, src: 0, dst: 5, size: 4MB, start: 100us}
                """)).run(ProgressListener.NONE);
        List<String> slowest = Arrays.stream(SummaryText.render(r, null).split("\n"))
                .filter(l -> l.startsWith("  slowest")).toList();
        assertThat(slowest).hasSize(3);
        assertThat(slowest.get(0)).startsWith("  slowest   j/grads/dp(pp=0) in iteration 0 (warm-up) (allreduce ring");
        assertThat(slowest.subList(1, 3)).allMatch(l -> l.startsWith("  slowest   j/grads/dp(pp=0) in iteration "))
                .noneMatch(l -> l.contains("warm-up"));
        assertThat(slowest).doesNotHaveDuplicates();
        // Each line's figures are that call's row of collectives.csv.
        for (var c : r.collectives()) {
            String head = "  slowest   " + c.name() + " in iteration " + c.iteration();
            slowest.stream().filter(l -> l.startsWith(head)).forEach(l -> assertThat(l).contains(
                    String.format(java.util.Locale.ROOT, "(x%.2f)", c.networkSlowdown())));
        }
    }
}
