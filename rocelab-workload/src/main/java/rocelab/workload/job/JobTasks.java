package rocelab.workload.job;

import java.util.List;
import rocelab.workload.collective.Collective;

/**
 * Where a job landed in a task graph, for the GPU's view: per iteration and rank the task that opens the rank's
 * iteration and the one that closes it, every compute task with its rank and iteration, and every collective call.
 */
public record JobTasks(JobSpec job, int[][] gates, int[][] ends, int[] computeTasks, int[] computeRanks,
        int[] computeIterations, List<String> computeNames, List<Call> calls, List<Transfer> transfers) {
    /**
     * One collective call of one group: its name (step, loop indices, group), the call, its tasks, and per member
     * the task after which it entered the call and the one that marks its part done.
     */
    public record Call(String name, Collective call, int iteration, int firstTask, int endTask, int[] entries,
            int[] done) {}

    /**
     * One point-to-point transfer (a send paired with its receive): its step names, iteration, the two ranks, its
     * size, the tasks after which the send and the receive were posted, and its flow (or NVLink) task.
     */
    public record Transfer(String sendName, String recvName, int iteration, int srcRank, int dstRank, long bytes,
            int sendEntry, int recvEntry, int flowTask) {}

    public JobTasks {
        calls = List.copyOf(calls);
        transfers = List.copyOf(transfers);
        computeNames = List.copyOf(computeNames);
    }
}
