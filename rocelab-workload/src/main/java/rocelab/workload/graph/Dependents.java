package rocelab.workload.graph;

import java.util.Arrays;

/**
 * A task graph's dependencies turned round: per task, the tasks that wait for its end (a flow: its delivery) and those
 * that wait for its acknowledgement, each list in the order the graph gives them (tasks in id order, then promises'
 * late dependencies in the order fulfilled). Made once per run and read by both its users, the driver (what to
 * release when a task ends) and the ideal bound (its pass's order when promises wait on later tasks), instead of each
 * making its own: for a 4,096-GPU job they are 134 million entries. Never changes once made, so both threads may read
 * it.
 */
public final class Dependents {
    private final int[] onEndStart;
    private final int[] onEnd;
    private final int[] onAckStart;
    private final int[] onAck;

    private Dependents(int[] onEndStart, int[] onEnd, int[] onAckStart, int[] onAck) {
        this.onEndStart = onEndStart;
        this.onEnd = onEnd;
        this.onAckStart = onAckStart;
        this.onAck = onAck;
    }

    /**
     * Graphs of at least this many tasks have their dependents made on two threads when the machine has two cores: a
     * 4,096-GPU job's 134 million entries took 6 s on one, most of it the first touch of 900 MB of new arrays and
     * scattered increments, which two threads do side by side.
     */
    static final int TWO_THREADS_FROM = 1 << 20;

    /** The dependents of every task of a complete graph (no open promises). */
    public static Dependents of(TaskGraph graph) {
        boolean two = graph.taskCount() >= TWO_THREADS_FROM && Runtime.getRuntime().availableProcessors() >= 2;
        return of(graph, two ? 2 : 1);
    }

    /**
     * As above, on {@code threads} threads (1 or 2; tests: the same lists either way). Each thread owns a range of
     * the tasks waited on, and reads every dependency in the graph's order but counts and files only those whose
     * task is in its range: each list is filled by one thread, in the same order as one thread would, and no two
     * threads write the same element.
     */
    static Dependents of(TaskGraph graph, int threads) {
        int n = graph.taskCount();
        int[] endStart = new int[n + 1];
        int[] ackStart = new int[n + 1];
        int split = threads > 1 ? n / 2 : n;
        both(threads, () -> count(graph, 0, split, endStart, ackStart),
                () -> count(graph, split, n, endStart, ackStart));
        for (int t = 0; t < n; t++) {
            endStart[t + 1] += endStart[t];
            ackStart[t + 1] += ackStart[t];
        }
        int[] onEnd = new int[endStart[n]];
        int[] onAck = new int[ackStart[n]];
        both(threads, () -> fill(graph, 0, split, endStart, ackStart, onEnd, onAck),
                () -> fill(graph, split, n, endStart, ackStart, onEnd, onAck));
        // endStart[t] is now where t's list ends, which is where t + 1's begins.
        System.arraycopy(endStart, 0, endStart, 1, n);
        System.arraycopy(ackStart, 0, ackStart, 1, n);
        endStart[0] = 0;
        ackStart[0] = 0;
        return new Dependents(endStart, onEnd, ackStart, onAck);
    }

    /**
     * Runs {@code first} and {@code second}, the second on a thread of its own; on one thread only {@code first},
     * whose range is then every task (the second's is empty, and its scan would find nothing).
     */
    private static void both(int threads, Runnable first, Runnable second) {
        if (threads < 2) {
            first.run();
            return;
        }
        Throwable[] failed = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                second.run();
            } catch (RuntimeException | Error e) {
                failed[0] = e;
            }
        }, "rocelab-dependents");
        other.setDaemon(true);
        other.start();
        try {
            first.run();
        } finally {
            boolean interrupted = false;
            while (other.isAlive()) {
                try {
                    other.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failed[0] instanceof RuntimeException e) {
            throw e;
        }
        if (failed[0] instanceof Error e) {
            throw e;
        }
    }

    /** Counts into {@code endStart[d + 1]} and {@code ackStart[d + 1]} the waits on tasks d in [lo, hi). */
    private static void count(TaskGraph graph, int lo, int hi, int[] endStart, int[] ackStart) {
        int n = graph.taskCount();
        for (int t = 0; t < n; t++) {
            for (int i = 0, c = graph.dependencyCount(t); i < c; i++) {
                countOne(graph.dependency(t, i), lo, hi, endStart, ackStart);
            }
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            countOne(graph.lateDependency(i), lo, hi, endStart, ackStart);
        }
    }

    private static void countOne(int d, int lo, int hi, int[] endStart, int[] ackStart) {
        int x = TaskGraph.target(d);
        if (x >= lo && x < hi) {
            if (TaskGraph.isAck(d)) {
                ackStart[x + 1]++;
            } else {
                endStart[x + 1]++;
            }
        }
    }

    /**
     * Files the waits on tasks in [lo, hi) from each list's start, which is then moved back by one list: no second
     * pair of task-long arrays.
     */
    private static void fill(TaskGraph graph, int lo, int hi, int[] endStart, int[] ackStart, int[] onEnd,
            int[] onAck) {
        int n = graph.taskCount();
        for (int t = 0; t < n; t++) {
            for (int i = 0, c = graph.dependencyCount(t); i < c; i++) {
                fillOne(graph.dependency(t, i), t, lo, hi, endStart, ackStart, onEnd, onAck);
            }
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            fillOne(graph.lateDependency(i), graph.lateTask(i), lo, hi, endStart, ackStart, onEnd, onAck);
        }
    }

    private static void fillOne(int d, int waiter, int lo, int hi, int[] endStart, int[] ackStart, int[] onEnd,
            int[] onAck) {
        int x = TaskGraph.target(d);
        if (x >= lo && x < hi) {
            if (TaskGraph.isAck(d)) {
                onAck[ackStart[x]++] = waiter;
            } else {
                onEnd[endStart[x]++] = waiter;
            }
        }
    }

    /** Where task t's end dependents begin in {@link #onEnd()} (t + 1's: where they end). */
    public int endFrom(int t) {
        return onEndStart[t];
    }

    /** Where task t's acknowledgement dependents begin in {@link #onAck()} (t + 1's: where they end). */
    public int ackFrom(int t) {
        return onAckStart[t];
    }

    /** Per task, where its end dependents begin in {@link #onEnd()} (the driver reads the arrays themselves). */
    int[] onEndStart() {
        return onEndStart;
    }

    int[] onAckStart() {
        return onAckStart;
    }

    /** The tasks waiting for an end, task by task (see {@link #endFrom}). */
    int[] onEnd() {
        return onEnd;
    }

    /** The tasks waiting for an acknowledgement, task by task (see {@link #ackFrom}). */
    int[] onAck() {
        return onAck;
    }

    /** How many tasks wait on task t, its end or its acknowledgement. */
    public int count(int t) {
        return onEndStart[t + 1] - onEndStart[t] + onAckStart[t + 1] - onAckStart[t];
    }

    /**
     * Puts the tasks waiting on task t, its end or its acknowledgement, into {@code out} from 0, in ascending order
     * (a task waiting twice appears twice); returns how many. {@code out} must hold {@link #count}.
     */
    public int sortedInto(int t, int[] out) {
        int k = 0;
        for (int i = onEndStart[t]; i < onEndStart[t + 1]; i++) {
            out[k++] = onEnd[i];
        }
        for (int i = onAckStart[t]; i < onAckStart[t + 1]; i++) {
            out[k++] = onAck[i];
        }
        if (k > 1) {
            Arrays.sort(out, 0, k);
        }
        return k;
    }
}
