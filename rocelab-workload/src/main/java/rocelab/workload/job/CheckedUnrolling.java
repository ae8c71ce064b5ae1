package rocelab.workload.job;

import java.util.concurrent.atomic.AtomicReference;
import rocelab.workload.graph.TaskGraph;

/**
 * The unrolling a scenario reader made of a job to check it (every job is unrolled into a graph of its own as the
 * scenario is read, so that a program that cannot run is reported at its line), kept for the run to take instead of
 * unrolling the same job again: a job of thousands of GPUs is tens of millions of tasks, seconds of CPU and gigabytes
 * to make, and its graph is the one the run would build when the job is the first thing the run puts in its graph.
 *
 * <p>One unrolling is kept, the last one offered; it is taken at most once, and only for the very {@link JobSpec}
 * instance it was made for, so a second run of the same scenario, or any other, unrolls its jobs itself. Whoever
 * takes it checks that the run's graph would have been built the same way (the same servers, NVLink or not).
 */
public final class CheckedUnrolling {
    /** A job, the scratch graph it was unrolled into (nothing else in it), and where its tasks landed. */
    public record Kept(JobSpec job, TaskGraph graph, JobTasks tasks) {}

    private static final AtomicReference<Kept> KEPT = new AtomicReference<>();

    private CheckedUnrolling() {}

    /** Keeps the check's unrolling of {@code job}, replacing any kept before. */
    public static void keep(JobSpec job, TaskGraph graph, JobTasks tasks) {
        KEPT.set(new Kept(job, graph, tasks));
    }

    /** The unrolling kept for this very job instance, handed over once, or null. */
    public static Kept take(JobSpec job) {
        Kept k = KEPT.get();
        return k != null && k.job() == job && KEPT.compareAndSet(k, null) ? k : null;
    }

    /** Drops whatever is kept (a reader that checked jobs it will not hand to a run). */
    public static void clear() {
        KEPT.set(null);
    }
}
