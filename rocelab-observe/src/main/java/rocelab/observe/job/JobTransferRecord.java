package rocelab.observe.job;

import java.util.List;

/**
 * One point-to-point transfer of a job (a send paired with its receive: a pipeline's activations or gradients), as
 * transfers.csv has it: the job, the send's and the receive's step names, the iteration, the two ranks and their
 * hosts, the size, and how it went: over the fabric as flow {@code flow} of flows.csv, or over NVLink between two GPUs
 * of one server ({@code flow} -1). Its time runs from its post (when both sides had posted, so its bytes could leave)
 * to its end: a flow's last ACK back at its sender (flows.csv {@code start_us} and {@code finish_us}), an NVLink
 * transfer's last byte in. {@code idealPs} is its time alone on an idle network: the flow's closed form (flows.csv
 * {@code ideal_fct_us}), an NVLink transfer's bytes at the NVLink rate plus its latency.
 *
 * @param startPs its post, -1 when it never was
 * @param endPs its end, -1 when it did not end by the run's end
 */
public record JobTransferRecord(String job, String sendName, String recvName, int iteration, int srcRank, int dstRank,
        int srcHost, int dstHost, long bytes, int flow, long startPs, long endPs, long idealPs) {

    /** Whether it went over NVLink (no flow). */
    public boolean nvlink() {
        return flow < 0;
    }

    public boolean completed() {
        return startPs >= 0 && endPs >= 0;
    }

    /** Its time from post to end (-1 when it did not complete). */
    public long timePs() {
        return completed() ? endPs - startPs : -1;
    }

    /** Its time over its time alone (NaN when it did not complete or has no time alone). */
    public double slowdown() {
        return completed() && idealPs > 0 ? (double) timePs() / idealPs : Double.NaN;
    }

    /** Its time less its time alone (0 when it did not complete). */
    public long lostPs() {
        return completed() && idealPs > 0 ? timePs() - idealPs : 0;
    }

    /** Its name in the summary's and the report's words: {@code step/send-act-mb1 from rank 0 to rank 4}. */
    public String name() {
        return sendName + " from rank " + srcRank + " to rank " + dstRank;
    }

    /** Whether it belongs to a warm-up iteration of its job among {@code jobs} (which the summary leaves out). */
    public boolean warmUp(List<JobRecord> jobs) {
        for (JobRecord j : jobs) {
            if (j.job().equals(job)) {
                return iteration < j.warmup();
            }
        }
        return false;
    }
}
