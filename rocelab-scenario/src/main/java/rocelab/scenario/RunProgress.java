package rocelab.scenario;

/**
 * Where a run stands, for a progress display: the same fields for the packet-level and the flow-level engines.
 *
 * @param simulatedPs simulated time reached
 * @param events events processed so far (packets, timers; for a flow-level engine, its rate recomputations)
 * @param wallNanos wall time since the run started
 * @param bytesDone payload bytes delivered to their receivers so far
 * @param bytesTotal payload bytes of every transfer of the workload (posted already or not)
 * @param tasksDone tasks of the workload finished (flows acknowledged, computes and waits over)
 * @param tasksTotal tasks of the workload
 */
public record RunProgress(long simulatedPs, long events, long wallNanos, long bytesDone, long bytesTotal,
        long tasksDone, long tasksTotal) {

    /** Share of the workload done, 0..1: by bytes when the workload moves any, else by tasks. */
    public double fractionDone() {
        if (bytesTotal > 0) {
            return Math.min(1.0, (double) bytesDone / bytesTotal);
        }
        return tasksTotal > 0 ? (double) tasksDone / tasksTotal : 0;
    }
}
