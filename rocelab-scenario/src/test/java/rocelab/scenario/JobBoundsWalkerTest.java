package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.job.JobTasks;

/**
 * The jobs' group bounds (the job's end and warm-up end, its iterations, its calls) are the same whether the figures'
 * thread walks every end and call itself or another thread helps it ({@link CallWalks#help}, on a walker of its own),
 * end by end and call by call.
 */
class JobBoundsWalkerTest {
    private static final String SCENARIO = """
            name: walker
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            jobs:
              - {name: a, hosts: 0-7, parallelism: {dp: 4, tp: 2}, iterations: 3, warmup: 1,
                 program: [{op: compute, duration: 20us}, {op: allreduce, group: dp, size: 2MiB},
                           {op: allgather, group: tp, size: 1MiB}, {op: compute, duration: 10us}]}
              - {name: b, hosts: 0-3, parallelism: {dp: 4},
                 program: [{op: alltoall, group: dp, size-total: 4MiB}]}
            """;

    @Test
    void shouldGiveTheSameBoundsWhenAnotherThreadHelpsWalkTheCalls() throws Exception {
        Simulation s = Simulation.assemble(Scenarios.parse(SCENARIO), Simulation.Model.IDEAL);
        s.run(ProgressListener.NONE);
        IdealBound bound = s.idealBound();
        List<JobTasks> jobs = s.jobTasks();
        JobResults.Bounds alone = JobResults.bounds(jobs, bound);
        assertThat(jobs).hasSize(2);
        int calls = jobs.get(0).calls().size() + jobs.get(1).calls().size();
        assertThat(calls).isGreaterThan(8);
        for (int round = 0; round < 20; round++) {
            CallWalks shared = new CallWalks(jobs, 1);
            // Before the bound is made a helper returns at once, having walked nothing.
            shared.help();
            shared.boundMade(bound);
            Thread helper = new Thread(shared::help);
            helper.start();
            JobResults.Bounds helped = JobResults.bounds(jobs, bound, shared);
            helper.join();
            assertThat(helped.jobEndPs()).containsExactly(alone.jobEndPs());
            assertThat(helped.warmUpEndPs()).containsExactly(alone.warmUpEndPs());
            for (int j = 0; j < 2; j++) {
                assertThat(helped.callEndPs()[j]).as("round %d, job %d", round, j).containsExactly(alone.callEndPs()[j]);
                assertThat(helped.iterationSpanPs()[j]).containsExactly(alone.iterationSpanPs()[j]);
            }
        }
        // A helper alone, the figures' thread never walking: every end and call, once.
        CallWalks byHelper = new CallWalks(jobs, 3);
        byHelper.boundMade(bound);
        byHelper.help();
        long[][] got = byHelper.join();
        for (int j = 0; j < 2; j++) {
            assertThat(got[j]).containsExactly(alone.callEndPs()[j]);
            JobTasks jt = jobs.get(j);
            // Each end is the walk of the job's last iteration's ends; the warm-up's, of its last warm-up iteration's.
            assertThat(byHelper.jobEndPs()[j]).isEqualTo(alone.jobEndPs()[j])
                    .isEqualTo(bound.lastEndPs(jt.ends()[jt.job().iterations() - 1], new int[0], 0)).isPositive();
            assertThat(byHelper.warmUpEndPs()[j]).isEqualTo(alone.warmUpEndPs()[j]).isEqualTo(jt.job().warmup() > 0
                    ? bound.lastEndPs(jt.ends()[jt.job().warmup() - 1], new int[0], 0) : -1);
        }
        assertThat(alone.warmUpEndPs()[0]).isPositive().isLessThan(alone.jobEndPs()[0]);
    }
}
