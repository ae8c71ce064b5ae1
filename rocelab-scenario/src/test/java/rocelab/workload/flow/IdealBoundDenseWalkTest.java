package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.TaskGraph;

/**
 * A group walk made dense (a sweep down the task ids, the walk's state indexed by task) gives the bound the sparse
 * walk gives, with the same number of tails passed on, on random graphs of computes, joins, flows on connections,
 * waits on ACKs and promises (tasks waiting on later ones), for random groups: ends, stops and lowest tasks. In this
 * package, in this module, because the switch is package-private and the network needs the scenario reader.
 */
class IdealBoundDenseWalkTest {
    @Test
    void shouldGiveTheSparseWalksBoundWhenDense() {
        OneSwitchIdeal network = OneSwitchIdeal.of(6);
        IdealNetwork ideal = network.ideal();
        SplittableRandom random = new SplittableRandom(12);
        int withPromises = 0;
        int groups = 0;
        int walksWithTransfers = 0;
        for (int graphs = 1; graphs <= 300; graphs++) {
            TaskGraph g = BoundCases.acyclic(random, IdealBoundDenseWalkTest::randomGraph);
            withPromises += g.lateDependencyCount() > 0 ? 1 : 0;
            IdealBound bound = new IdealBound(g, ideal, network.hosts(), null);
            for (int k = 0; k < 8; k++) {
                BoundCases.Group group = BoundCases.group(random, g.taskCount(), k, 4);
                long sparse = group.walk(bound, false);
                long sparsePasses = bound.lastWalkPasses();
                long dense = group.walk(bound, true);
                assertThat(dense).as("graph %d, group %d", graphs, k).isEqualTo(sparse);
                assertThat(bound.lastWalkPasses()).isEqualTo(sparsePasses);
                groups++;
                walksWithTransfers += sparse > group.aloneEndPs(bound) ? 1 : 0;
            }
        }
        assertThat(withPromises).as("graphs with promises").isGreaterThan(50);
        assertThat(walksWithTransfers).as("groups whose port work raised the bound, of " + groups).isGreaterThan(100);
    }

    /** Up to 80 tasks; each waits on up to three earlier ones (some on a flow's ACK); some promises wait on later ones. */
    static TaskGraph randomGraph(SplittableRandom random) {
        TaskGraph g = new TaskGraph();
        int[] connections = new int[3];
        for (int i = 0; i < connections.length; i++) {
            connections[i] = g.newConnection();
        }
        List<Integer> promises = new ArrayList<>();
        List<Boolean> flow = new ArrayList<>();
        int n = 5 + random.nextInt(76);
        for (int i = 0; i < n; i++) {
            int[] after = random.ints(i == 0 ? 0 : random.nextInt(4), 0, Math.max(i, 1)).distinct().toArray();
            for (int k = 0; k < after.length; k++) {
                if (flow.get(after[k]) && random.nextInt(3) == 0) {
                    after[k] = TaskGraph.acked(after[k]);
                }
            }
            int kind = random.nextInt(10);
            if (kind < 4) {
                int src = random.nextInt(6);
                int dst = (src + 1 + random.nextInt(5)) % 6;
                int c = random.nextInt(3) == 0 ? -1 : connections[random.nextInt(connections.length)];
                g.flow(src, dst, 1000L * (1 + random.nextInt(200)), -1, c, 0, after);
                flow.add(true);
                continue;
            }
            if (kind < 6) {
                g.compute(1_000L * random.nextInt(5_000), random.nextInt(6), after);
            } else if (kind < 8) {
                g.join(-1, after);
            } else {
                promises.add(g.promise(-1));
            }
            flow.add(false);
        }
        for (int p : promises) {
            // A promise waits on tasks added after it (a receive on its peer's later send), or on earlier ones.
            int[] after = random.ints(1 + random.nextInt(3), 0, n).filter(t -> t != p).distinct().toArray();
            g.fulfil(p, after);
        }
        return g;
    }
}
