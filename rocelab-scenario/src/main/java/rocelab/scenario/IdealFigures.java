package rocelab.scenario;

import java.util.List;
import java.util.function.Supplier;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.job.JobTasks;

/**
 * The ideal network's figures of a run (the bound of every task, {@link IdealBound}, and the bounds of the groups the
 * outputs report: the traffic list's collectives, the jobs' ends, iterations and calls), made from the task graph
 * and the fabric's static paths alone, never from the run's results: so they can be made on the second core while
 * the run goes (a 4,096-GPU job's bound and walks take about as long as its flow run), and are the same figures
 * either way.
 *
 * @param bound the bound of every task
 * @param collectiveEndPs per collective of the traffic list, the bound of its last run's end
 * @param jobs the jobs' group bounds (null when the run has no job)
 */
record IdealFigures(IdealBound bound, long[] collectiveEndPs, JobResults.Bounds jobs) {

    /** Makes the figures: the bound, then each group's walk. */
    static IdealFigures make(Supplier<IdealBound> bound, List<int[]> collectiveDone, int[] collectiveFirstTask,
            List<JobTasks> jobs) {
        return make(bound, collectiveDone, collectiveFirstTask, jobs, new CallWalks(jobs));
    }

    /** As above, the jobs' calls walked through {@code calls}, which hears when the bound is made (or fails). */
    static IdealFigures make(Supplier<IdealBound> bound, List<int[]> collectiveDone, int[] collectiveFirstTask,
            List<JobTasks> jobs, CallWalks calls) {
        IdealBound b;
        try {
            b = bound.get();
        } catch (RuntimeException | Error e) {
            calls.failed(e);
            throw e;
        }
        calls.boundMade(b);
        long[] collectives = new long[collectiveDone.size()];
        for (int i = 0; i < collectives.length; i++) {
            // The bound of the last run's end: its own tasks' bounds and the work of the ports of all its transfers.
            collectives[i] = b.lastEndPs(collectiveDone.get(i), new int[0], collectiveFirstTask[i]);
        }
        return new IdealFigures(b, collectives, jobs.isEmpty() ? null : JobResults.bounds(jobs, b, calls));
    }
}
