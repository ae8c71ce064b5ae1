package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.TaskGraph;

/**
 * A sparse group walk swept in the order of its tasks sorted gives the bound, and passes on as many tails, as the same
 * walk swept over every task id of its span, on the random graphs of {@link IdealBoundDenseWalkTest} (computes, joins,
 * flows on connections, waits on ACKs, promises) for random groups, with the port work bounded all at once and port
 * by port. In this package, in this module, because the switches are package-private.
 */
class IdealBoundSortedSweepTest {
    @Test
    void shouldGiveTheSpanSweepsBoundWhenSweptSorted() {
        OneSwitchIdeal network = OneSwitchIdeal.of(6);
        IdealNetwork ideal = network.ideal();
        SplittableRandom random = new SplittableRandom(36);
        int graphs = 0;
        int groups = 0;
        int walksWithTransfers = 0;
        while (graphs < 300) {
            TaskGraph g = IdealBoundDenseWalkTest.randomGraph(random);
            if (g.tasksInCycles() > 0) {
                continue;
            }
            graphs++;
            IdealBound bound = new IdealBound(g, ideal, network.hosts(), null);
            int n = g.taskCount();
            for (int k = 0; k < 8; k++) {
                int[] done = random.ints(1 + random.nextInt(4), 0, n).toArray();
                int[] stops = k % 2 == 0 ? new int[0] : random.ints(random.nextInt(4), 0, n).toArray();
                int lowest = k < 4 ? 0 : random.nextInt(n);
                bound.portByPortAbove(k % 4 < 2 ? IdealBound.PORT_BY_PORT : 0);
                bound.sortedSweepAbove(Integer.MAX_VALUE);
                long span = bound.lastEndPs(done, stops, lowest, false);
                long spanPasses = bound.lastWalkPasses();
                bound.sortedSweepAbove(0);
                long sorted = bound.lastEndPs(done, stops, lowest, false);
                assertThat(sorted).as("graph %d, group %d", graphs, k).isEqualTo(span);
                assertThat(bound.lastWalkPasses()).isEqualTo(spanPasses);
                groups++;
                long alone = 0;
                for (int t : done) {
                    alone = Math.max(alone, bound.taskEndPs(t));
                }
                walksWithTransfers += sorted > alone ? 1 : 0;
            }
        }
        assertThat(walksWithTransfers).as("groups whose port work raised the bound, of " + groups).isGreaterThan(100);
    }
}
