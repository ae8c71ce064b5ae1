package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.job.JobTasks;

/**
 * What both accounts of a run's jobs ({@link JobAccount}: the run's and the ideal network's) read from the task graph
 * alone, made once: per job, where each host's transfers of the job's own go in the flat arrays
 * ({@link HostTransfers.Layout}), and per job and rank the indices of its compute tasks in
 * {@link JobTasks#computeTasks()}.
 */
final class JobShape {
    final List<JobTasks> jobs;
    /**
     * Per job (in {@link #jobs}' order), the layout of its own transfers: the tasks of its workload item alone, so a
     * traffic item's flows, another job's or an inference service's on the same hosts are not its ranks' communication
     * (they are named by the job's {@code beside}).
     */
    final List<HostTransfers.Layout> transfers;
    /** Per job (in {@link #jobs}' order) and rank, its compute tasks' indices in ascending order. */
    private final int[][][] computeOf;

    private JobShape(List<JobTasks> jobs, List<HostTransfers.Layout> transfers, int[][][] computeOf) {
        this.jobs = jobs;
        this.transfers = transfers;
        this.computeOf = computeOf;
    }

    /**
     * {@code items}: per job (in {@code jobs}' order), its workload item's tasks in {@code g} (as the workload was
     * emitted: {@link BesideIndex.Part}).
     */
    static JobShape of(List<JobTasks> jobs, TaskGraph g, List<BesideIndex.Part> items) {
        if (items.size() != jobs.size()) {
            throw new IllegalArgumentException(jobs.size() + " jobs but " + items.size() + " task ranges");
        }
        int[][][] computeOf = new int[jobs.size()][][];
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            int ranks = jt.job().layout().size();
            int[] count = new int[ranks];
            for (int r : jt.computeRanks()) {
                count[r]++;
            }
            int[][] perRank = new int[ranks][];
            for (int r = 0; r < ranks; r++) {
                perRank[r] = new int[count[r]];
                count[r] = 0;
            }
            for (int i = 0; i < jt.computeTasks().length; i++) {
                int r = jt.computeRanks()[i];
                perRank[r][count[r]++] = i;
            }
            computeOf[j] = perRank;
        }
        List<HostTransfers.Layout> layouts = new ArrayList<>(jobs.size());
        for (BesideIndex.Part item : items) {
            layouts.add(HostTransfers.layout(g, item.firstTask(), item.endTask()));
        }
        return new JobShape(jobs, List.copyOf(layouts), computeOf);
    }

    /** The indices in {@link JobTasks#computeTasks()} of rank r's compute tasks in job j, ascending. */
    int[] computeOf(int j, int r) {
        return computeOf[j][r];
    }
}
