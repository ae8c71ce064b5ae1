package rocelab.workload.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.workload.flow.FlowRoute;
import rocelab.workload.flow.FlowRouter;

/** The streamed driver and the windowed task graph it runs on, with timed tasks only (no fabric needed). */
class StreamedDriverTest {
    private static final long US = 1_000_000L;

    /** Timed tasks have no route. */
    private static final FlowRouter NO_FABRIC = new FlowRouter() {
        @Override
        public double[] capacitiesBps() {
            return new double[0];
        }

        @Override
        public FlowRoute route(int src, int dst, long sizeBytes, int queuePair) {
            throw new AssertionError("no flows here");
        }
    };

    /** Adds its parts one per call. */
    private interface Part {
        void add(TaskGraph g);
    }

    private static TaskSource parts(Part... parts) {
        return new TaskSource() {
            private int next;

            @Override
            public boolean emitMore(TaskGraph graph) {
                parts[next++].add(graph);
                return next < parts.length;
            }

            @Override
            public int largestPart() {
                return 8;
            }
        };
    }

    private static TaskGraph streamed(int window) {
        TaskGraph g = new TaskGraph();
        g.streamed(window);
        return g;
    }

    /**
     * A task added after what it waits on was done would start late: the run fails instead. Part 2 (a join on the
     * 1 us delay) is only asked for when the 1 ms delay's dependent starts, 1 ms in, with a lookahead of one task.
     */
    @Test
    void shouldFailRatherThanStartATaskLateWhenTheLookaheadIsTooShort() {
        Simulator sim = new Simulator();
        TaskSource source = parts(g -> {
            g.delay(US, -1);
            int slow = g.delay(1000 * US, -1);
            g.join(-1, slow);
        }, g -> g.join(-1, 0));
        new StreamedDriver(sim, streamed(64), source, NO_FABRIC, 1, 1, 8, null, null);

        Throwable t = catchThrowable(() -> sim.runUntil(Long.MAX_VALUE));

        assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("lookahead of 1 tasks is too short");
    }

    /** With room to look ahead the same workload runs, each task at the time its dependencies allow. */
    @Test
    void shouldRunTimedTasksAtTheirTimesWhenAddedAhead() {
        Simulator sim = new Simulator();
        TaskSource source = parts(g -> {
            g.delay(US, -1);
            int slow = g.delay(1000 * US, -1);
            g.join(-1, slow);
        }, g -> g.delay(5 * US, -1, 0), g -> g.join(-1, 3, 2));
        StreamedDriver d = new StreamedDriver(sim, streamed(64), source, NO_FABRIC, 1, 16, 8, null, null);

        sim.runUntil(Long.MAX_VALUE);

        assertThat(d.allFinished()).isTrue();
        assertThat(d.tasksAdded()).isEqualTo(5);
        assertThat(d.taskEndPs(3)).isEqualTo(6 * US);
        assertThat(d.taskEndPs(4)).isEqualTo(1000 * US);
        assertThat(d.lastFinishPs()).isEqualTo(1000 * US);
    }

    /** A chain of delays far longer than the window: slots are reused, and only the window's tasks are held. */
    @Test
    void shouldReuseTheWindowForAChainLongerThanIt() {
        Simulator sim = new Simulator();
        int[] last = {-1};
        TaskSource chain = new TaskSource() {
            private int added;

            @Override
            public boolean emitMore(TaskGraph g) {
                last[0] = g.delay(US, -1, last[0]);
                return ++added < 10_000;
            }

            @Override
            public int largestPart() {
                return 1;
            }
        };
        TaskGraph g = streamed(64);
        StreamedDriver d = new StreamedDriver(sim, g, chain, NO_FABRIC, 1, 8, 8, null, null);

        sim.runUntil(Long.MAX_VALUE);

        assertThat(d.allFinished()).isTrue();
        assertThat(d.lastFinishPs()).isEqualTo(10_000 * US);
        assertThat(g.retiredTasks()).isGreaterThan(9_900);
        assertThat(d.taskEndPs(9_999)).isEqualTo(10_000 * US);
    }

    @Test
    void shouldRefuseToAddBeyondTheWindowWhenNothingIsRetired() {
        TaskGraph g = streamed(64);
        // One slot stays free (where the next task's dependencies begin): 63 tasks fit in 64.
        for (int i = 0; i < 63; i++) {
            g.delay(US, -1);
        }

        assertThat(catchThrowable(() -> g.delay(US, -1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("window of 64 tasks is full");
        g.retire(10);
        assertThat(g.delay(US, -1, 62)).isEqualTo(63);
        assertThat(g.dependency(63, 0)).isEqualTo(62);
        assertThat(g.durationPs(63)).isEqualTo(US);
        assertThat(catchThrowable(() -> g.promise(-1))).isInstanceOf(IllegalStateException.class);
    }
}
