package rocelab.scenario;

import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobTasks;

/**
 * Why a call's last member entered it when it did, by the run's dependencies: from the task after which that member
 * entered, back through the tasks that gated each other (a task starts when its last dependency ends, so that one is
 * what it waited for) to the first that belongs to another of the job's calls or to a point-to-point transfer. Said
 * only when every step of the way is exact: a task that started later than its last dependency ended (its GPU busy
 * with other compute, a start time) breaks the chain and nothing is said. An outside audit's data-parallel job had a
 * warm-up AllReduce slowed by an incast into one rank; the next call's ranks entered 1.7 ms apart, and the summary
 * said so without saying why.
 */
final class LateEntry {
    /** How many tasks a walk visits at most (a chain of compute between two calls is a few). */
    private static final int MAX_STEPS = 10_000;

    private LateEntry() {}

    /**
     * What the last member of call {@code callIndex} of {@code jt} waited for before it entered, in the run timed by
     * {@code times}; {@link CollectiveRecord.LateEntry#NONE} when a member never entered, they all entered at once, or
     * the chain is not exact.
     */
    static CollectiveRecord.LateEntry of(JobTasks jt, TaskTimes times, int callIndex) {
        JobTasks.Call call = jt.calls().get(callIndex);
        int[] entries = call.entries();
        int last = -1;
        int first = -1;
        for (int i = 0; i < entries.length; i++) {
            long t = times.taskEndPs(entries[i]);
            if (t < 0) {
                return CollectiveRecord.LateEntry.NONE;
            }
            if (last < 0 || t > times.taskEndPs(entries[last])) {
                last = i;
            }
            if (first < 0 || t < times.taskEndPs(entries[first])) {
                first = i;
            }
        }
        if (last < 0 || times.taskEndPs(entries[last]) == times.taskEndPs(entries[first])) {
            return CollectiveRecord.LateEntry.NONE;
        }
        int lastHost = call.call().host(last);
        int firstHost = call.call().host(first);
        int lastRank = rankOf(jt, lastHost);
        int firstRank = rankOf(jt, firstHost);
        TaskGraph g = times.graph();
        int task = entries[last];
        // The compute on the way, when the task the member entered after is compute: its own work set it late.
        long compute = 0;
        boolean computing = true;
        for (int step = 0; step < MAX_STEPS; step++) {
            int x = callOf(jt, task, callIndex);
            if (x >= 0) {
                JobTasks.Call before = jt.calls().get(x);
                long behind = -1;
                int lastMember = memberOf(before, lastHost);
                int firstMember = memberOf(before, firstHost);
                boolean done = lastMember >= 0 && before.done()[lastMember] == task;
                if (done && firstMember >= 0 && times.taskEndPs(before.done()[firstMember]) >= 0) {
                    behind = times.taskEndPs(task) - times.taskEndPs(before.done()[firstMember]);
                }
                return new CollectiveRecord.LateEntry(lastRank, firstRank, before.name(), before.iteration(), done,
                        behind, compute);
            }
            for (JobTasks.Transfer t : jt.transfers()) {
                if (t.flowTask() == task) {
                    return new CollectiveRecord.LateEntry(lastRank, firstRank, "the transfer " + t.sendName()
                            + " from rank " + t.srcRank() + " to rank " + t.dstRank(), t.iteration(), false, -1,
                            compute);
                }
            }
            TaskGraph.Kind kind = g.kind(task);
            if (kind == TaskGraph.Kind.FLOW || kind == TaskGraph.Kind.NVLINK) {
                return CollectiveRecord.LateEntry.NONE;
            }
            if (computing && kind == TaskGraph.Kind.COMPUTE) {
                compute += times.taskEndPs(task) - times.taskStartPs(task);
            } else if (kind != TaskGraph.Kind.JOIN) {
                computing = false;
            }
            int gate = lastDependency(g, times, task);
            long start = times.taskStartPs(task);
            if (gate == TaskGraph.NONE && start == 0 && compute > 0) {
                // The way in goes back to the job's start through compute alone: the member's own work.
                return new CollectiveRecord.LateEntry(lastRank, firstRank, "", -1, false, -1, compute);
            }
            if (gate == TaskGraph.NONE || start < 0 || start != endOf(g, times, gate)) {
                // No dependency, or the task started later than its last one ended: not waited for by dependency.
                return CollectiveRecord.LateEntry.NONE;
            }
            task = TaskGraph.target(gate);
        }
        return CollectiveRecord.LateEntry.NONE;
    }

    /** The dependency of {@code task} (given at its adding or to a promise later) that ended last, or NONE. */
    private static int lastDependency(TaskGraph g, TaskTimes times, int task) {
        int best = TaskGraph.NONE;
        long bestEnd = -1;
        for (int i = 0; i < g.dependencyCount(task); i++) {
            int d = g.dependency(task, i);
            long end = endOf(g, times, d);
            if (end > bestEnd) {
                best = d;
                bestEnd = end;
            }
        }
        for (int i = 0; i < g.lateDependencyCount(); i++) {
            if (g.lateTask(i) == task) {
                int d = g.lateDependency(i);
                long end = endOf(g, times, d);
                if (end > bestEnd) {
                    best = d;
                    bestEnd = end;
                }
            }
        }
        return best;
    }

    /** When dependency {@code d} was met: its task's end, or for an acknowledgement its flow's last ACK. */
    private static long endOf(TaskGraph g, TaskTimes times, int d) {
        int t = TaskGraph.target(d);
        return TaskGraph.isAck(d) ? times.completedPs(g.flowIndex(t)) : times.taskEndPs(t);
    }

    /** The call of {@code jt} other than {@code except} whose tasks include {@code task}, or -1. */
    private static int callOf(JobTasks jt, int task, int except) {
        for (int x = 0; x < jt.calls().size(); x++) {
            JobTasks.Call c = jt.calls().get(x);
            if (x != except && task >= c.firstTask() && task < c.endTask()) {
                return x;
            }
        }
        return -1;
    }

    private static int memberOf(JobTasks.Call c, int host) {
        for (int i = 0; i < c.call().rankCount(); i++) {
            if (c.call().host(i) == host) {
                return i;
            }
        }
        return -1;
    }

    private static int rankOf(JobTasks jt, int host) {
        for (int r = 0; r < jt.job().layout().size(); r++) {
            if (jt.job().layout().host(r) == host) {
                return r;
            }
        }
        return -1;
    }
}
