package rocelab.workload.graph;

/**
 * When the tasks of a {@link TaskGraph} started and ended in one account of the workload: a run
 * ({@link WorkloadDriver}, packet or flow level) or the ideal network's lower bounds
 * ({@code rocelab.workload.flow.IdealBound}). Times are picoseconds, -1 for a task that never started or ended.
 */
public interface TaskTimes {
    TaskGraph graph();

    /** When a task started (a flow: was posted), or -1. */
    long taskStartPs(int task);

    /** When a task ended (a flow: was delivered), or -1. */
    long taskEndPs(int task);

    /** When flow i's sender saw the last ACK, or -1. */
    long completedPs(int flow);
}
