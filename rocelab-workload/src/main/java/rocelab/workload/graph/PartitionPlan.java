package rocelab.workload.graph;

import java.util.Arrays;

/**
 * Whether a task graph's dependencies let a parallel run drive each partition's tasks on its own thread, and if so
 * which partition owns each task. A dependency x -> t is <em>observed</em> where x's completion happens (a flow's
 * delivery at its destination host, its acknowledgement at its source host; a timed task or a join where it runs) and
 * t <em>acts</em> where it starts (a flow on its source host; a timed task or a join where its dependencies were
 * observed). A dependency observed where its dependent acts, or in the serial phase between windows (a zero-length
 * start marker such as a traffic item's {@code at} task, which ends among the roots), is released at the picosecond
 * one driver would release it, on the partition's own thread.
 *
 * <p>A receiver's window observed in another partition (a ring's: message k on r -> r+1 waits for the delivery of
 * message k - 8 at r + 1) cannot be released in the window it happens in: it is <em>checked</em>. The driver hands
 * it over between windows, and that is exact as long as it was not the task's last wait: the task still waits for a
 * dependency of its own partition, which releases it later at the right picosecond. A task whose last wait turns out
 * to be the handed-over one would have started in a window already run: the run is not exact, and it is run again on
 * one thread ({@link rocelab.engine.InexactSplitException}). So a task whose every dependency is observed elsewhere
 * (it always starts on another partition's completion), any other dependency across partitions (a tree's
 * forwarding, which measured the last wait too often), a join over several partitions, and NVLink transfers (one
 * fluid network) do not qualify: {@link #reason()} says which.
 *
 * <p>The plan also counts the dependencies by where they are observed (the census of docs/parallel.md).
 */
public final class PartitionPlan {
    /** A task observed in the serial phase (a zero-length task whose dependencies are all serial, or none). */
    public static final int SERIAL = -1;

    /** Where a cross-partition dependency's source is observed: by the kind of its source task. */
    public enum Source {
        FLOW_DELIVERY, FLOW_ACK, JOIN, TIMED
    }

    private final int[] laneOfTask;
    private final String reason;
    private long localEdges;
    private long serialEdges;
    private final long[] crossEdges = new long[Source.values().length];
    private int crossTasks;
    private int onlyCrossTasks;
    private int multiPartitionJoins;
    private int nvlinkTasks;
    private String firstCross;
    private String firstOnlyCross;
    private int uncheckable;
    private String firstUncheckable;

    private PartitionPlan(int tasks) {
        this.laneOfTask = new int[tasks];
        this.reason = null;
    }

    private PartitionPlan(int[] laneOfTask, String reason) {
        this.laneOfTask = laneOfTask;
        this.reason = reason;
    }

    /**
     * The plan of {@code graph} (complete: no open promises) over partitions given per host
     * ({@code partitionOfHost[h]} in 0..partitions-1).
     */
    public static PartitionPlan of(TaskGraph graph, int[] partitionOfHost) {
        return of(graph, Dependents.of(graph), partitionOfHost);
    }

    /** As {@link #of(TaskGraph, int[])} with the graph's dependents already made. */
    public static PartitionPlan of(TaskGraph graph, Dependents dependents, int[] partitionOfHost) {
        int n = graph.taskCount();
        int[] lane = new int[n];
        // Kahn's order: every task after its dependencies (promises' late ones point forward).
        int[] waiting = new int[n];
        for (int t = 0; t < n; t++) {
            waiting[t] = graph.dependencyCount(t);
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            waiting[graph.lateTask(i)]++;
        }
        int[] order = new int[n];
        int head = 0;
        int tail = 0;
        for (int t = 0; t < n; t++) {
            if (waiting[t] == 0) {
                order[tail++] = t;
            }
        }
        int[] lateStart = lateIndex(graph);
        int[] lateDeps = lateDependencies(graph, lateStart);
        PartitionPlan census = new PartitionPlan(0);
        while (head < tail) {
            int t = order[head++];
            lane[t] = census.place(graph, partitionOfHost, lane, t, lateStart, lateDeps);
            for (int[] list : new int[][] {dependents.onEnd(), dependents.onAck()}) {
                int[] start = list == dependents.onEnd() ? dependents.onEndStart() : dependents.onAckStart();
                for (int i = start[t]; i < start[t + 1]; i++) {
                    if (--waiting[list[i]] == 0) {
                        order[tail++] = list[i];
                    }
                }
            }
        }
        String why = null;
        if (tail < n) {
            why = "the workload waits on itself (a cycle of dependencies)";
        } else if (census.nvlinkTasks > 0) {
            why = "the workload sends over NVLink (" + census.nvlinkTasks
                    + " transfers), whose ports are one fluid network";
        } else if (census.multiPartitionJoins > 0) {
            why = census.multiPartitionJoins + " tasks wait for tasks in several partitions (a join over ranks)";
        } else if (census.uncheckable > 0) {
            why = census.uncheckable + " dependencies are observed in one partition and start a task in another, and"
                    + " are not a receiver's window (" + census.firstUncheckable + ")";
        } else if (census.onlyCrossTasks > 0) {
            // Such a task starts the picosecond another partition's completion reaches it: no window can hide that.
            why = census.onlyCrossTasks + " tasks wait only for tasks of other partitions (" + census.firstOnlyCross
                    + ")";
        }
        PartitionPlan plan = new PartitionPlan(lane, why);
        plan.localEdges = census.localEdges;
        plan.serialEdges = census.serialEdges;
        System.arraycopy(census.crossEdges, 0, plan.crossEdges, 0, plan.crossEdges.length);
        plan.crossTasks = census.crossTasks;
        plan.onlyCrossTasks = census.onlyCrossTasks;
        plan.multiPartitionJoins = census.multiPartitionJoins;
        plan.nvlinkTasks = census.nvlinkTasks;
        plan.firstCross = census.firstCross;
        plan.firstOnlyCross = census.firstOnlyCross;
        plan.uncheckable = census.uncheckable;
        plan.firstUncheckable = census.firstUncheckable;
        return plan;
    }

    /** Where task t acts (its dependencies are placed already), counting its dependencies by where observed. */
    private int place(TaskGraph graph, int[] partitionOfHost, int[] lane, int t, int[] lateStart, int[] lateDeps) {
        int flow = graph.flowIndex(t);
        TaskGraph.Kind kind = graph.kind(t);
        if (kind == TaskGraph.Kind.NVLINK) {
            nvlinkTasks++;
        }
        int given = graph.dependencyCount(t);
        int late = lateStart == null ? 0 : lateStart[t + 1] - lateStart[t];
        int acts;
        if (flow >= 0) {
            acts = partitionOfHost[graph.flowSource(flow)];
        } else if (kind == TaskGraph.Kind.NVLINK) {
            acts = partitionOfHost[graph.owner(t)];
        } else {
            // Where its dependencies were observed: one partition, or none (serial), or several (a join over ranks).
            acts = SERIAL;
            boolean several = false;
            for (int i = 0; i < given + late; i++) {
                int o = observed(graph, partitionOfHost, lane, i < given ? graph.dependency(t, i)
                        : lateDeps[lateStart[t] + i - given]);
                if (o == SERIAL) {
                    continue;
                }
                if (acts == SERIAL) {
                    acts = o;
                } else if (o != acts) {
                    several = true;
                }
            }
            if (several) {
                multiPartitionJoins++;
            }
            if (acts == SERIAL && (graph.durationPs(t) > 0 || given + late > 0 && graph.notBeforePs(t) > 0)) {
                // A timed task started among the roots (its end is an ordinary event), or a join released there that
                // waits for its start time: it needs a partition's calendar.
                int owner = graph.owner(t);
                acts = owner >= 0 && owner < partitionOfHost.length ? partitionOfHost[owner] : 0;
            }
        }
        boolean cross = false;
        boolean local = false;
        for (int i = 0; i < given + late; i++) {
            int d = i < given ? graph.dependency(t, i) : lateDeps[lateStart[t] + i - given];
            int o = observed(graph, partitionOfHost, lane, d);
            if (o == SERIAL) {
                serialEdges++;
            } else if (o == acts) {
                localEdges++;
                local = true;
            } else {
                cross = true;
                crossEdges[source(graph, d).ordinal()]++;
                if (firstCross == null) {
                    firstCross = describe(graph, d, t, o, acts);
                }
                if (!windowLike(graph, d, t)) {
                    uncheckable++;
                    if (firstUncheckable == null) {
                        firstUncheckable = describe(graph, d, t, o, acts);
                    }
                }
            }
        }
        if (cross) {
            crossTasks++;
            if (!local) {
                onlyCrossTasks++;
                if (firstOnlyCross == null) {
                    firstOnlyCross = firstCrossOf(graph, partitionOfHost, lane, t, acts, given, late, lateStart,
                            lateDeps);
                }
            }
        }
        return acts;
    }

    /** The description of task t's first dependency observed outside {@code acts}. */
    private static String firstCrossOf(TaskGraph graph, int[] partitionOfHost, int[] lane, int t, int acts,
            int given, int late, int[] lateStart, int[] lateDeps) {
        for (int i = 0; i < given + late; i++) {
            int d = i < given ? graph.dependency(t, i) : lateDeps[lateStart[t] + i - given];
            int o = observed(graph, partitionOfHost, lane, d);
            if (o != SERIAL && o != acts) {
                return describe(graph, d, t, o, acts);
            }
        }
        return null;
    }

    /**
     * Whether dependency {@code d} of task t is a receiver's window: t is a flow, and d the delivery of an earlier
     * flow at t's own destination (NCCL's eight messages in flight per connection: message k waits for message k - 8
     * to be delivered). Such a wait is in practice met steps before the task's own partition's (its send's local
     * receive), so it is checked between windows. Any other dependency from another partition (a tree's forwarding,
     * delivered at a third rank) was the last wait of its task in three runs of four measured (docs/parallel.md):
     * such a graph runs on one thread.
     */
    private static boolean windowLike(TaskGraph graph, int d, int t) {
        int x = TaskGraph.target(d);
        int f = graph.flowIndex(x);
        int g = graph.flowIndex(t);
        return f >= 0 && g >= 0 && !TaskGraph.isAck(d) && graph.flowDestination(f) == graph.flowDestination(g);
    }

    /** Where dependency {@code d} (an end or an acknowledgement) is observed. */
    private static int observed(TaskGraph graph, int[] partitionOfHost, int[] lane, int d) {
        int x = TaskGraph.target(d);
        int f = graph.flowIndex(x);
        if (f >= 0) {
            return partitionOfHost[TaskGraph.isAck(d) ? graph.flowSource(f) : graph.flowDestination(f)];
        }
        return lane[x];
    }

    private static Source source(TaskGraph graph, int d) {
        int x = TaskGraph.target(d);
        if (graph.flowIndex(x) >= 0) {
            return TaskGraph.isAck(d) ? Source.FLOW_ACK : Source.FLOW_DELIVERY;
        }
        return graph.durationPs(x) > 0 ? Source.TIMED : Source.JOIN;
    }

    private static String describe(TaskGraph graph, int d, int t, int observed, int acts) {
        int x = TaskGraph.target(d);
        int f = graph.flowIndex(x);
        String what = f >= 0 ? "flow " + graph.flowSource(f) + "->" + graph.flowDestination(f)
                + (TaskGraph.isAck(d) ? " acknowledged" : " delivered") : graph.kind(x).name().toLowerCase() + " " + x;
        int g = graph.flowIndex(t);
        String then = g >= 0 ? "flow " + graph.flowSource(g) + "->" + graph.flowDestination(g)
                : graph.kind(t).name().toLowerCase() + " " + t;
        return "first: " + what + " in partition " + observed + " starts " + then + " in partition " + acts;
    }

    /** Per task, where its late dependencies begin in {@link #lateDependencies} (null without promises). */
    private static int[] lateIndex(TaskGraph graph) {
        int count = graph.lateDependencyCount();
        if (count == 0) {
            return null;
        }
        int[] start = new int[graph.taskCount() + 1];
        for (int i = 0; i < count; i++) {
            start[graph.lateTask(i) + 1]++;
        }
        for (int t = 0; t < graph.taskCount(); t++) {
            start[t + 1] += start[t];
        }
        return start;
    }

    private static int[] lateDependencies(TaskGraph graph, int[] start) {
        if (start == null) {
            return null;
        }
        int[] at = Arrays.copyOf(start, start.length);
        int[] out = new int[graph.lateDependencyCount()];
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            out[at[graph.lateTask(i)]++] = graph.lateDependency(i);
        }
        return out;
    }

    /**
     * Whether the run relies on checks between windows: some dependency is observed in another partition than its
     * dependent's, which also waits for one of its own.
     */
    public boolean checked() {
        return reason == null && crossCount() > 0;
    }

    /** Why the graph cannot run partitioned (null: it can, exactly or {@link #checked() checked}). */
    public String reason() {
        return reason;
    }

    /** The partition task t acts and is observed in, or {@link #SERIAL}. */
    public int laneOf(int task) {
        return laneOfTask[task];
    }

    /** Dependencies observed where their dependent acts. */
    public long localEdges() {
        return localEdges;
    }

    /** Dependencies observed in the serial phase (start markers). */
    public long serialEdges() {
        return serialEdges;
    }

    /** Dependencies observed in another partition than their dependent's, by the kind of their source. */
    public long crossEdges(Source s) {
        return crossEdges[s.ordinal()];
    }

    public long crossCount() {
        long n = 0;
        for (long c : crossEdges) {
            n += c;
        }
        return n;
    }

    /** Tasks with at least one dependency from another partition, and those with no dependency from their own. */
    public int crossTasks() {
        return crossTasks;
    }

    public int onlyCrossTasks() {
        return onlyCrossTasks;
    }

    public int multiPartitionJoins() {
        return multiPartitionJoins;
    }

    public int nvlinkTasks() {
        return nvlinkTasks;
    }

    /** One line of the census. */
    public String summary() {
        return String.format("local %d, serial %d, cross %d (delivery %d, ack %d, join %d, timed %d), tasks with a"
                + " cross dependency %d (of which only cross %d), joins over partitions %d, nvlink %d: %s",
                localEdges, serialEdges, crossCount(), crossEdges[0], crossEdges[1], crossEdges[2], crossEdges[3],
                crossTasks, onlyCrossTasks, multiPartitionJoins, nvlinkTasks, reason != null ? reason : checked() ? "QUALIFIES, checked between windows" : "QUALIFIES");
    }
}
