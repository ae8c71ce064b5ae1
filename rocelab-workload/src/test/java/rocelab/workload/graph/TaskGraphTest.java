package rocelab.workload.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import rocelab.workload.traffic.FlowSpec;

/** The task graph's primitive storage: flows, NVLink transfers and timed tasks read back as they were added. */
class TaskGraphTest {
    @Test
    void shouldReadEveryKindOfTaskBackAfterTrimmingAndGrowingAgain() {
        TaskGraph g = new TaskGraph();
        g.servers(new int[] {0, 0, 1, 1});
        g.localLinks(new LocalLinks(new int[] {0, 0, 1, 1}, 1_000_000_000_000L, 1000));
        int c = g.newConnection();
        int start = g.at(5, -1);
        int f = g.flow(0, 2, 4096, 26, c, 10, start);
        int nv = g.flow(0, 1, 777, -1, -1, 0, start);
        int comp = g.compute(1234, 3, f, TaskGraph.acked(f));
        int delay = g.delay(99, -1, nv);
        g.trimToSize();
        int late = g.flow(3, 1, 64, -1, -1, 0, comp, delay);

        assertThat(g.kind(f)).isEqualTo(TaskGraph.Kind.FLOW);
        assertThat(g.flowIndex(f)).isZero();
        assertThat(g.flowSpec(0)).isEqualTo(new FlowSpec(0, 2, 4096, 10, 26));
        assertThat(g.flows()).containsExactly(new FlowSpec(0, 2, 4096, 10, 26), new FlowSpec(3, 1, 64, 0, -1));
        assertThat(g.connection(0)).isEqualTo(c);
        assertThat(g.connection(1)).isEqualTo(-1);
        assertThat(g.flowTask(1)).isEqualTo(late);
        assertThat(g.durationPs(f)).isZero();

        assertThat(g.kind(nv)).isEqualTo(TaskGraph.Kind.NVLINK);
        assertThat(g.flowIndex(nv)).isEqualTo(-1);
        assertThat(g.nvlinkBytes(nv)).isEqualTo(777);
        assertThat(g.nvlinkDestination(nv)).isEqualTo(1);
        assertThat(g.owner(nv)).isZero();
        assertThat(g.durationPs(nv)).isZero();

        assertThat(g.durationPs(comp)).isEqualTo(1234);
        assertThat(g.nvlinkBytes(comp)).isZero();
        assertThat(g.flowIndex(comp)).isEqualTo(-1);
        assertThat(g.dependencyCount(comp)).isEqualTo(2);
        assertThat(g.dependency(comp, 1)).isEqualTo(TaskGraph.acked(f));
        assertThat(g.durationPs(delay)).isEqualTo(99);
        assertThat(g.notBeforePs(start)).isEqualTo(5);
        assertThat(g.taskCount()).isEqualTo(6);
        assertThat(g.flowCount()).isEqualTo(2);
        assertThatThrownBy(() -> g.flowSpec(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    /**
     * Random graphs with promises whose late dependencies point anywhere: the depth-first check finds a cycle exactly
     * when Kahn's algorithm leaves tasks that can never start, and the count it answers is Kahn's.
     */
    @Test
    void shouldFindACycleExactlyWhenKahnsAlgorithmLeavesTasksStuck() {
        Random rnd = new Random(12);
        int cyclic = 0;
        for (int round = 0; round < 400; round++) {
            TaskGraph g = new TaskGraph();
            int n = 2 + rnd.nextInt(60);
            List<Integer> promises = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                if (t > 0 && rnd.nextInt(4) == 0) {
                    promises.add(g.promise(-1));
                    continue;
                }
                int k = t == 0 ? 0 : rnd.nextInt(Math.min(t, 4) + 1);
                int[] after = new int[k];
                for (int i = 0; i < k; i++) {
                    after[i] = rnd.nextInt(t);
                }
                g.join(-1, after);
            }
            for (int p : promises) {
                int k = rnd.nextInt(3);
                int[] after = new int[k];
                for (int i = 0; i < k; i++) {
                    // Mostly later tasks (a receive whose send comes later), sometimes itself.
                    after[i] = rnd.nextInt(5) == 0 ? p : p + rnd.nextInt(n - p);
                }
                g.fulfil(p, after);
            }
            int kahn = g.countTasksInCycles();
            assertThat(g.hasCycle()).as("round %d", round).isEqualTo(kahn > 0);
            assertThat(g.tasksInCycles()).isEqualTo(kahn);
            cyclic += kahn > 0 ? 1 : 0;
        }
        // Both kinds of graph were met.
        assertThat(cyclic).isBetween(20, 380);
    }

    /**
     * The search starts only at promises and skips what lies below its root; a cycle through two promises, whose
     * second promise and the tasks between them lie above the first, must still be found, and one promise's late
     * dependency below a later root must not make a cycle of its own.
     */
    @Test
    void shouldFindACycleThatRunsThroughTwoPromises() {
        TaskGraph g = new TaskGraph();
        int p1 = g.promise(-1);
        int below = g.join(-1);
        int p2 = g.promise(-1);
        int a = g.join(-1, p2, below);
        int b = g.join(-1, p1);
        g.fulfil(p2, b); // p2 waits on b, which waits on p1
        g.fulfil(p1, a); // p1 waits on a, which waits on p2: p1 -> a -> p2 -> b -> p1
        assertThat(g.hasCycle()).isTrue();
        assertThat(g.tasksInCycles()).isEqualTo(g.countTasksInCycles()).isEqualTo(4);

        TaskGraph ok = new TaskGraph();
        int q1 = ok.promise(-1);
        int q2 = ok.promise(-1);
        int x = ok.join(-1, q1);
        int y = ok.join(-1, q2);
        ok.fulfil(q2, x); // q2 waits on x, which waits on q1, which waits on nothing above it
        ok.fulfil(q1, ok.join(-1));
        ok.join(-1, y);
        assertThat(ok.hasCycle()).isFalse();
        assertThat(ok.countTasksInCycles()).isZero();
    }

    @Test
    void shouldFindACycleThroughAcknowledgementsAndLongChains() {
        TaskGraph g = new TaskGraph();
        int c = g.newConnection();
        int p = g.promise(-1);
        int prev = g.flow(0, 1, 64, -1, c, 0, p);
        for (int i = 0; i < 100_000; i++) {
            prev = g.join(-1, prev);
        }
        int last = g.flow(0, 1, 64, -1, c, 0, prev);
        g.fulfil(p, TaskGraph.acked(last));
        assertThat(g.hasCycle()).isTrue();
        assertThat(g.tasksInCycles()).isEqualTo(100_003);

        TaskGraph ok = new TaskGraph();
        int q = ok.promise(-1);
        int x = ok.join(-1);
        for (int i = 0; i < 100_000; i++) {
            x = ok.join(-1, x);
        }
        ok.join(-1, q);
        ok.fulfil(q, x);
        assertThat(ok.hasCycle()).isFalse();
        assertThat(ok.tasksInCycles()).isZero();
    }

    @Test
    void shouldReadTheSameGraphBackWhenSizedAheadAndGrownPastTheEstimate() {
        TaskGraph sized = new TaskGraph();
        sized.expect(1000, 100, 3000);
        TaskGraph plain = new TaskGraph();
        for (TaskGraph g : new TaskGraph[] {sized, plain}) {
            int c = g.newConnection();
            int prev = g.at(7, -1);
            // Past every estimate: the arrays grow after the expected size.
            for (int i = 0; i < 3000; i++) {
                int f = g.flow(i % 5, 5 + i % 3, 100 + i, -1, i % 2 == 0 ? c : -1, i, prev);
                prev = g.compute(10 + i, i % 7, f, TaskGraph.acked(f), prev);
            }
            g.trimToSize();
        }
        assertThat(sized.taskCount()).isEqualTo(plain.taskCount());
        assertThat(sized.flows()).isEqualTo(plain.flows());
        for (int t = 0; t < plain.taskCount(); t++) {
            assertThat(sized.kind(t)).isEqualTo(plain.kind(t));
            assertThat(sized.durationPs(t)).isEqualTo(plain.durationPs(t));
            assertThat(sized.notBeforePs(t)).isEqualTo(plain.notBeforePs(t));
            assertThat(sized.owner(t)).isEqualTo(plain.owner(t));
            assertThat(sized.flowIndex(t)).isEqualTo(plain.flowIndex(t));
            assertThat(sized.dependencyCount(t)).isEqualTo(plain.dependencyCount(t));
            for (int i = 0; i < plain.dependencyCount(t); i++) {
                assertThat(sized.dependency(t, i)).isEqualTo(plain.dependency(t, i));
            }
        }
        for (int f = 0; f < plain.flowCount(); f++) {
            assertThat(sized.connection(f)).isEqualTo(plain.connection(f));
            assertThat(sized.flowTask(f)).isEqualTo(plain.flowTask(f));
        }
    }

    /**
     * The ACK of task 0 is a dependency like any other, not "no dependency" (which {@code ~0} was): it is kept when
     * given at add time and to a promise, and reads back as the ACK of task 0. {@link TaskGraph#NONE} is still ignored.
     */
    @Test
    void shouldKeepTheAckOfTaskZeroAndIgnoreOnlyNone() {
        TaskGraph g = new TaskGraph();
        int f = g.flow(0, 1, 4096, -1, -1, 0);
        int join = g.join(-1, TaskGraph.NONE, TaskGraph.acked(f), TaskGraph.NONE);
        int p = g.promise(-1);
        g.fulfil(p, TaskGraph.NONE, TaskGraph.acked(f));

        assertThat(f).isZero();
        assertThat(g.dependencyCount(join)).isEqualTo(1);
        int d = g.dependency(join, 0);
        assertThat(TaskGraph.isAck(d)).isTrue();
        assertThat(TaskGraph.target(d)).isZero();
        assertThat(g.lateDependencyCount()).isEqualTo(1);
        assertThat(g.lateDependency(0)).isEqualTo(d);
        assertThat(TaskGraph.isAck(f)).isFalse();
        assertThat(TaskGraph.target(f)).isZero();
        int large = Integer.MAX_VALUE - 16;
        assertThat(TaskGraph.isAck(TaskGraph.acked(large))).isTrue();
        assertThat(TaskGraph.target(TaskGraph.acked(large))).isEqualTo(large);
        assertThat(TaskGraph.acked(large)).isNotEqualTo(TaskGraph.NONE);
        assertThatThrownBy(() -> TaskGraph.acked(TaskGraph.NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> g.compute(1, -1, TaskGraph.acked(join)))
                .as("only a transfer has an ACK").isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Earliest starts given only to tasks added late in a graph (after hundreds of tasks without one, and after a
     * trim): the earlier tasks read 0, the values survive the arrays' growth and trimming, a flow's earliest post is
     * its task's, and a promise made after a trim is still told apart from a kept one and from an ordinary task.
     */
    @Test
    void shouldKeepEarliestStartsAndPromisesThatAppearLateThroughGrowthAndTrimming() {
        TaskGraph g = new TaskGraph();
        int first = g.flow(0, 1, 100, -1, -1, 0);
        for (int i = 0; i < 200; i++) {
            g.join(-1, first);
        }
        int p = g.promise(-1);
        g.fulfil(p, first);
        g.trimToSize();
        assertThatThrownBy(() -> g.fulfil(p, first)).as("kept already").isInstanceOf(IllegalArgumentException.class);
        int timed = g.flow(2, 3, 100, -1, -1, 7_000);
        for (int i = 0; i < 200; i++) {
            g.compute(1, -1, timed);
        }
        int at = g.at(9_000, -1);
        int p2 = g.promise(-1);
        g.trimToSize();
        g.fulfil(p2, at);

        assertThat(g.notBeforePs(first)).isZero();
        assertThat(g.notBeforePs(p)).isZero();
        assertThat(g.notBeforePs(timed)).isEqualTo(7_000);
        assertThat(g.notBeforePs(timed + 1)).isZero();
        assertThat(g.notBeforePs(at)).isEqualTo(9_000);
        assertThat(g.flowStartPs(0)).isZero();
        assertThat(g.flowStartPs(1)).isEqualTo(7_000);
        assertThat(g.flowSpec(1)).isEqualTo(new FlowSpec(2, 3, 100, 7_000, -1));
        assertThat(g.openPromises()).isZero();
        assertThat(g.lateDependencyCount()).isEqualTo(2);
        assertThatThrownBy(() -> g.fulfil(first, at)).isInstanceOf(IllegalArgumentException.class);
    }
}
