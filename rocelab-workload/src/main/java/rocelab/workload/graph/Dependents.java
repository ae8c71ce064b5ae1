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

    /** The dependents of every task of a complete graph (no open promises). */
    public static Dependents of(TaskGraph graph) {
        int n = graph.taskCount();
        int[] endStart = new int[n + 1];
        int[] ackStart = new int[n + 1];
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < graph.dependencyCount(t); i++) {
                int d = graph.dependency(t, i);
                if (!TaskGraph.isAck(d)) {
                    endStart[d + 1]++;
                } else {
                    ackStart[TaskGraph.target(d) + 1]++;
                }
            }
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            int d = graph.lateDependency(i);
            if (!TaskGraph.isAck(d)) {
                endStart[d + 1]++;
            } else {
                ackStart[TaskGraph.target(d) + 1]++;
            }
        }
        for (int t = 0; t < n; t++) {
            endStart[t + 1] += endStart[t];
            ackStart[t + 1] += ackStart[t];
        }
        int[] onEnd = new int[endStart[n]];
        int[] onAck = new int[ackStart[n]];
        // Filled from each list's start, which is then moved back by one list: no second pair of task-long arrays.
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < graph.dependencyCount(t); i++) {
                int d = graph.dependency(t, i);
                if (!TaskGraph.isAck(d)) {
                    onEnd[endStart[d]++] = t;
                } else {
                    onAck[ackStart[TaskGraph.target(d)]++] = t;
                }
            }
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            int d = graph.lateDependency(i);
            if (!TaskGraph.isAck(d)) {
                onEnd[endStart[d]++] = graph.lateTask(i);
            } else {
                onAck[ackStart[TaskGraph.target(d)]++] = graph.lateTask(i);
            }
        }
        // endStart[t] is now where t's list ends, which is where t + 1's begins.
        System.arraycopy(endStart, 0, endStart, 1, n);
        System.arraycopy(ackStart, 0, ackStart, 1, n);
        endStart[0] = 0;
        ackStart[0] = 0;
        return new Dependents(endStart, onEnd, ackStart, onAck);
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
