package rocelab.workload.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The dependencies turned round: on random graphs with waits on ends and on ACKs (task 0's included) and promises
 * fulfilled after later tasks were added, every wait is listed once, under the task it waits on.
 */
class DependentsTest {
    private static TaskGraph randomGraph(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TaskGraph g = new TaskGraph();
        int n = 200 + r.nextInt(300);
        List<Integer> flows = new ArrayList<>();
        List<Integer> promises = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int deps = t == 0 ? 0 : r.nextInt(4);
            int[] after = new int[deps];
            for (int k = 0; k < deps; k++) {
                boolean ack = !flows.isEmpty() && r.nextInt(3) == 0;
                after[k] = ack ? TaskGraph.acked(flows.get(r.nextInt(flows.size()))) : r.nextInt(t);
            }
            switch (r.nextInt(4)) {
                case 0 -> promises.add(g.promise(0));
                case 1 -> g.compute(1_000, 0, after);
                default -> flows.add(g.flow(r.nextInt(4), 4 + r.nextInt(4), 1_000 + r.nextInt(9_000), -1, -1, 0, after));
            }
        }
        // Promises wait on tasks added after them (a pipeline's receive on its send), ACKs among them.
        for (int p : promises) {
            int later = p + 1 + r.nextInt(n - p);
            int f = flows.get(r.nextInt(flows.size()));
            g.fulfil(p, later < n ? later : TaskGraph.NONE, TaskGraph.acked(f));
        }
        return g;
    }

    @Test
    void shouldListEveryWaitOnceUnderTheTaskWaitedOn() {
        for (long seed = 1; seed <= 10; seed++) {
            TaskGraph g = randomGraph(seed);
            Dependents d = Dependents.of(g);
            int n = g.taskCount();
            int[] ends = new int[n];
            int[] acks = new int[n];
            for (int t = 0; t < n; t++) {
                for (int i = 0; i < g.dependencyCount(t); i++) {
                    int x = g.dependency(t, i);
                    (TaskGraph.isAck(x) ? acks : ends)[TaskGraph.target(x)]++;
                }
            }
            for (int i = 0; i < g.lateDependencyCount(); i++) {
                int x = g.lateDependency(i);
                (TaskGraph.isAck(x) ? acks : ends)[TaskGraph.target(x)]++;
            }
            for (int t = 0; t < n; t++) {
                assertThat(d.onEndStart()[t + 1] - d.onEndStart()[t]).as("seed %d, waits on task %d's end", seed, t)
                        .isEqualTo(ends[t]);
                assertThat(d.onAckStart()[t + 1] - d.onAckStart()[t]).as("seed %d, waits on task %d's ACK", seed, t)
                        .isEqualTo(acks[t]);
                assertThat(d.count(t)).isEqualTo(ends[t] + acks[t]);
            }
            assertThat(acks[0] + ends[0]).as("seed %d: something waits on task 0", seed).isPositive();
        }
    }
}
