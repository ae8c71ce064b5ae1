package rocelab.workload.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.TaskGraph;

/**
 * A second walker of a bound ({@link IdealBound#walker}) gives every group the bound the bound itself gives, alone
 * and while the bound walks other groups on another thread at the same time (its scratch, memos and path caches are
 * its own), on the random graphs of {@link IdealBoundDenseWalkTest}.
 */
class IdealBoundWalkerTest {
    @Test
    void shouldGiveTheBoundsOwnBoundsAloneAndAtTheSameTime() throws Exception {
        OneSwitchIdeal network = OneSwitchIdeal.of(6);
        IdealNetwork ideal = network.ideal();
        SplittableRandom random = new SplittableRandom(41);
        int raised = 0;
        for (int graphs = 1; graphs <= 150; graphs++) {
            TaskGraph g = BoundCases.acyclic(random, IdealBoundDenseWalkTest::randomGraph);
            IdealBound bound = new IdealBound(g, ideal, network.hosts(), null);
            List<BoundCases.Group> groups = new ArrayList<>();
            for (int k = 0; k < 16; k++) {
                groups.add(BoundCases.group(random, g.taskCount(), k, 8));
            }
            long[] expected = new long[groups.size()];
            for (int k = 0; k < expected.length; k++) {
                BoundCases.Group x = groups.get(k);
                expected[k] = x.walk(bound);
                raised += expected[k] > x.aloneEndPs(bound) ? 1 : 0;
            }
            // Alone: a fresh walker, the groups in reverse order.
            IdealBound walker = bound.walker();
            for (int k = expected.length - 1; k >= 0; k--) {
                assertThat(groups.get(k).walk(walker)).as("graph %d, group %d", graphs, k).isEqualTo(expected[k]);
            }
            // At the same time: the bound and a walker, each over every group many times, on two threads.
            IdealBound other = bound.walker();
            long[][] got = new long[2][expected.length];
            Thread t = new Thread(() -> walkAll(other, groups, got[1]));
            t.start();
            walkAll(bound, groups, got[0]);
            t.join();
            assertThat(got[0]).as("graph %d, the bound", graphs).containsExactly(expected);
            assertThat(got[1]).as("graph %d, the walker", graphs).containsExactly(expected);
        }
        assertThat(raised).as("groups whose port work raised the bound").isGreaterThan(200);
    }

    private static void walkAll(IdealBound b, List<BoundCases.Group> groups, long[] out) {
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < groups.size(); k++) {
                long v = groups.get(k).walk(b);
                if (round == 0) {
                    out[k] = v;
                } else if (out[k] != v) {
                    out[k] = Long.MIN_VALUE; // a walk that disagreed with itself
                }
            }
        }
    }
}
