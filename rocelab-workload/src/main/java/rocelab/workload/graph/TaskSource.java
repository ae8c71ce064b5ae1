package rocelab.workload.graph;

/**
 * A workload that adds its tasks to a streamed {@link TaskGraph} a part at a time, as the run asks for them, instead
 * of all before the first event: the run holds only the live frontier of the workload, not all of it.
 */
public interface TaskSource {
    /** Adds the next part of the workload to {@code graph} (a few tasks up to one step of every ring); false when none is left. */
    boolean emitMore(TaskGraph graph);

    /** The most tasks one {@link #emitMore} adds, so that the run can keep room for them in the graph's window. */
    int largestPart();
}
