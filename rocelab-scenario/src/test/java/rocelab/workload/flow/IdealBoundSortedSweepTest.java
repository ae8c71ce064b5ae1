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
        int groups = 0;
        int walksWithTransfers = 0;
        for (int graphs = 1; graphs <= 300; graphs++) {
            TaskGraph g = BoundCases.acyclic(random, IdealBoundDenseWalkTest::randomGraph);
            IdealBound bound = new IdealBound(g, ideal, network.hosts(), null);
            for (int k = 0; k < 8; k++) {
                BoundCases.Group group = BoundCases.group(random, g.taskCount(), k, 4);
                bound.portByPortAbove(k % 4 < 2 ? IdealBound.PORT_BY_PORT : 0);
                bound.sortedSweepAbove(Integer.MAX_VALUE);
                long span = group.walk(bound, false);
                long spanPasses = bound.lastWalkPasses();
                bound.sortedSweepAbove(0);
                long sorted = group.walk(bound, false);
                assertThat(sorted).as("graph %d, group %d", graphs, k).isEqualTo(span);
                assertThat(bound.lastWalkPasses()).isEqualTo(spanPasses);
                groups++;
                walksWithTransfers += sorted > group.aloneEndPs(bound) ? 1 : 0;
            }
        }
        assertThat(walksWithTransfers).as("groups whose port work raised the bound, of " + groups).isGreaterThan(100);
    }
}
