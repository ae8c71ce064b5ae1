package rocelab.workload.collective;

import rocelab.workload.graph.TaskGraph;

/** Writes the exact send pattern of one algorithm for one collective call into a task graph. */
public interface CollectiveAlgorithm {
    /**
     * Adds the call's flows to {@code graph}. Rank i takes part once {@code entry[i]} has finished (-1: at once);
     * a send also waits until its receiver has entered, as NCCL's sender waits for the receiver's buffer. Returns,
     * per rank, a task that finishes when that rank's part is done: its last receive delivered and its last send
     * acknowledged. The call's connections are {@code communicator}'s (its queue pairs, kept across the calls made on
     * it).
     */
    int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator);

    /**
     * Throws IllegalArgumentException (with a message for the user) if this algorithm cannot run {@code call}, e.g.
     * recursive doubling on a number of ranks that is not a power of two. Nothing by default.
     */
    default void check(Collective call) {}
}
