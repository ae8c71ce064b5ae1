package rocelab.workload.flow;

import java.util.SplittableRandom;
import java.util.function.Function;
import rocelab.workload.graph.TaskGraph;

/** What the ideal bound's randomised walk tests draw: graphs without cycles, and groups of tasks to walk from. */
final class BoundCases {
    private BoundCases() {}

    /** A group walk's arguments: the tasks done, the tasks it stops at, and the lowest task it walks. */
    record Group(int[] done, int[] stops, int lowest) {
        long walk(IdealBound bound) {
            return bound.lastEndPs(done, stops, lowest);
        }

        long walk(IdealBound bound, boolean dense) {
            return bound.lastEndPs(done, stops, lowest, dense);
        }

        /** The latest end of the done tasks alone: a walk that ends later was raised by port work. */
        long aloneEndPs(IdealBound bound) {
            long alone = 0;
            for (int t : done) {
                alone = Math.max(alone, bound.taskEndPs(t));
            }
            return alone;
        }
    }

    /** The next graph {@code draw} makes that has no cycle (those with one are drawn and passed over). */
    static TaskGraph acyclic(SplittableRandom random, Function<SplittableRandom, TaskGraph> draw) {
        while (true) {
            TaskGraph g = draw.apply(random);
            if (g.tasksInCycles() == 0) {
                return g;
            }
        }
    }

    /**
     * Group {@code k} of a graph of {@code n} tasks: one to four tasks done; stops (up to three) only for odd k; the
     * lowest task 0 below k = {@code anyLowestFrom}, any task from there.
     */
    static Group group(SplittableRandom random, int n, int k, int anyLowestFrom) {
        int[] done = random.ints(1 + random.nextInt(4), 0, n).toArray();
        int[] stops = k % 2 == 0 ? new int[0] : random.ints(random.nextInt(4), 0, n).toArray();
        int lowest = k < anyLowestFrom ? 0 : random.nextInt(n);
        return new Group(done, stops, lowest);
    }
}
