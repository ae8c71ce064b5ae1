package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.job.JobRecord;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobTasks;

/**
 * An iteration runs from its first compute or send, or a delay that one waited for; a delay followed only by
 * waiting (a pipeline's last stage loading its batch and then waiting for the first stage) does not open it, so a
 * run that is its own ideal reads its ideal iteration.
 */
class IterationStartTest {
    /** A two-stage pipeline, 4 micro-batches, with {@code load} first (none: no delay). */
    private static JobRecord run(String load) throws Exception {
        String yaml = """
                name: gp
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 400Gbps, delay: 500ns}}
                nic: {cc: dcqcn}
                jobs:
                  - name: gp
                    hosts: 0-1
                    parallelism: {pp: 2}
                    iterations: 3
                    warmup: 1
                    program:
                """ + (load == null ? "" : "      - {id: load, op: delay, duration: " + load + "}\n") + """
                      - repeat: 4
                        as: mb
                        steps:
                          - {id: rx, op: recv, peer: pp-1, when: "pp > 0", stream: recv}
                          - {id: fwd, op: compute, duration: 100us, after: [rx%s]}
                          - {id: tx, op: send, peer: pp+1, size: 1MiB, when: "pp < PP-1", stream: send, after: [fwd]}
                      - repeat: 4
                        as: mb
                        steps:
                          - {id: rxg, op: recv, peer: pp+1, when: "pp < PP-1", stream: recvg}
                          - {id: bwd, op: compute, duration: 200us, after: [rxg]}
                          - {id: txg, op: send, peer: pp-1, size: 1MiB, when: "pp > 0", stream: sendg, after: [bwd]}
                """.formatted(load == null ? "" : ", load");
        RunResult r = Simulation.assemble(new ScenarioReader().read(yaml, "gp.yaml", null))
                .run(ProgressListener.NONE);
        return r.jobs().get(0);
    }

    @Test
    void shouldNotOpenTheIterationAtADelayFollowedOnlyByWaiting() throws Exception {
        JobRecord none = run(null);
        JobRecord zero = run("0us");
        assertThat(none.iterationUs()).isCloseTo(none.idealIterationUs(), offset(0.001));
        // The same run with a 0 us delay first: stage 1's delay ends long before stage 0's activations come.
        assertThat(zero.jctPs()).isEqualTo(none.jctPs());
        assertThat(zero.iterationUs()).isCloseTo(none.iterationUs(), offset(0.001));
        assertThat(zero.iterationUs()).isCloseTo(zero.idealIterationUs(), offset(0.001));
    }

    @Test
    void shouldOpenTheIterationAtADataLoadingDelayThatTheWorkWaitsFor() throws Exception {
        JobRecord none = run(null);
        JobRecord load = run("50us");
        // Stage 0's forward waits for its load: the iteration holds the 50 us, in the run as on the ideal network.
        assertThat(load.iterationUs()).isCloseTo(none.iterationUs() + 50, offset(0.001));
        assertThat(load.idealIterationUs()).isCloseTo(none.idealIterationUs() + 50, offset(0.001));
    }

    /**
     * Rank 1 loads (a 100 us delay from 0) and then works after its load and rank 0's 'other' (from 50 us): the
     * iteration opens at the load exactly when starting it at rank 0's first work (50 us) would have delayed rank
     * 1's work, slack or not.
     */
    private static long first(long otherEndPs) {
        TaskGraph g = new TaskGraph();
        int gate0 = g.join(0);
        int gate1 = g.join(1);
        int load = g.delay(100_000_000L, 1, gate1);
        int other = g.compute(otherEndPs - 50_000_000L, 0, gate0);
        int work = g.compute(10_000_000L, 1, load, other);
        long[] start = new long[5];
        long[] end = new long[5];
        start[gate0] = end[gate0] = 50_000_000L;
        start[load] = 0;
        end[load] = 100_000_000L;
        start[other] = 50_000_000L;
        end[other] = otherEndPs;
        start[work] = Math.max(end[load], end[other]);
        end[work] = start[work] + 10_000_000L;
        TaskTimes times = new TaskTimes() {
            public TaskGraph graph() {
                return g;
            }

            public long taskStartPs(int t) {
                return start[t];
            }

            public long taskEndPs(int t) {
                return end[t];
            }

            public long completedPs(int flow) {
                return -1;
            }
        };
        JobTasks jt = new JobTasks(null, new int[][] {{gate0, gate1}}, new int[][] {{other, work}}, new int[0],
                new int[0], new int[0], List.of(), List.of(), List.of());
        return JobResults.firstActivityPs(jt, times, 0);
    }

    @Test
    void shouldOpenTheIterationAtADelayWhoseSlackIsShorterThanTheWaitForTheFirstWork() {
        // The work starts at the load's end: the load opens the iteration.
        assertThat(first(90_000_000L)).isZero();
        // 1 us of slack, less than the 50 us the load would move: still the load.
        assertThat(first(101_000_000L)).isZero();
        // 200 us of slack: the load started at 50 us would not delay anything; rank 0's work opens it.
        assertThat(first(300_000_000L)).isEqualTo(50_000_000L);
    }
}
