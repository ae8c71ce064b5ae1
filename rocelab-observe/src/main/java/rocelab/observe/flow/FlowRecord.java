package rocelab.observe.flow;

/**
 * What happened to one flow. Times in picoseconds; -1 when it did not happen.
 *
 * @param idealFctPs completion time of the same flow alone on an idle fabric (closed form)
 * @param udpSourcePort the UDP source port of the flow's QP, RoCEv2's ECMP entropy; {@link #NO_UDP_SOURCE_PORT} when
 *     its packets have no UDP header (InfiniBand: a switch forwards by the destination LID)
 * @param failed it was posted and its QP ran out of retries before its last ACK
 * @param rateHeldPs packet level: the time its QP had data ready that its congestion control's rate held back during
 *     its life (to the run's end if unfinished); -1 when not known (flow level, or never started)
 * @param notPostedWhy {@link NotPosted#NO} unless it was never posted because a failure reached it first: then
 *     {@code startPs} is -1, and it is not {@code failed} (it sent nothing)
 * @param resentPackets packet level: the data packets its QP sent again during its life (go-back-N or selective
 *     repeat); -1 when not known
 * @param ackTimeouts packet level: its QP's local ACK timeouts during its life; -1 when not known
 * @param qpWaitPs when it was posted while its QP still had packets of earlier messages to send (a QP sends its
 *     messages in the order they were posted): the time from its post until its first packet left (flow level: its
 *     fluid started), to the run's end if it never did; 0 when it was not posted behind them; -1 when not known
 * @param deliveredBytes the payload bytes of the flow its receiver had in order by the run's end: {@code sizeBytes}
 *     once delivered, 0 when never posted, part of it for a flow the run ended during (or that failed); -1 when not
 *     known (a flow-level fluid still under way, or a record read from a flows.csv without the column)
 */
public record FlowRecord(
        int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs, long idealFctPs,
        boolean failed, int queuePair, int udpSourcePort, long rateHeldPs, NotPosted notPostedWhy, long resentPackets,
        long ackTimeouts, long qpWaitPs, long deliveredBytes) {

    public FlowRecord {
        if (failed && notPostedWhy != NotPosted.NO) {
            throw new IllegalArgumentException("flow " + id + " is failed and not posted: a failed flow was posted");
        }
    }

    /**
     * A record whose delivered bytes are known only when the whole flow was delivered (then its size); -1 otherwise.
     */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort, long rateHeldPs, NotPosted notPostedWhy,
            long resentPackets, long ackTimeouts, long qpWaitPs) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                rateHeldPs, notPostedWhy, resentPackets, ackTimeouts, qpWaitPs,
                deliveredPs >= 0 || finishPs >= 0 ? sizeBytes : -1);
    }

    /** A record with no wait behind its QP's earlier messages known. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort, long rateHeldPs, NotPosted notPostedWhy,
            long resentPackets, long ackTimeouts) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                rateHeldPs, notPostedWhy, resentPackets, ackTimeouts, -1);
    }

    /** A record with no recovery known. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort, long rateHeldPs, NotPosted notPostedWhy) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                rateHeldPs, notPostedWhy, -1, -1);
    }

    /** A record of a flow that was posted, or that the run never reached. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort, long rateHeldPs) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                rateHeldPs, NotPosted.NO);
    }

    /** Whether a flow was kept from being posted by a failure, and which. */
    public enum NotPosted {
        /** Posted, or not reached when the run ended. */
        NO,
        /** Something it waited for (a flow, or a task waiting on one) failed. */
        WAITED_ON_FAILURE,
        /** Its own QP ran out of retries (on an earlier flow) before its turn, with nothing it waited for failed. */
        QUEUE_PAIR_FAILED_FIRST,
        /** One of the two, which is not known (a record read back from flows.csv, whose status says only this). */
        A_FAILURE_REACHED_IT
    }

    /** It was never posted because a failure reached it first. */
    public boolean notPosted() {
        return notPostedWhy != NotPosted.NO;
    }

    /** A record with no rate-held time known. */
    public FlowRecord(int id, int src, int dst, long sizeBytes, long startPs, long deliveredPs, long finishPs,
            long idealFctPs, boolean failed, int queuePair, int udpSourcePort) {
        this(id, src, dst, sizeBytes, startPs, deliveredPs, finishPs, idealFctPs, failed, queuePair, udpSourcePort,
                -1);
    }

    /** The flow's packets carry no UDP header (InfiniBand), so no UDP source port: an empty udp_sport. */
    public static final int NO_UDP_SOURCE_PORT = -1;

    /** Whether the flow's packets carry a UDP source port (RoCEv2; not InfiniBand). */
    public boolean hasUdpSourcePort() {
        return udpSourcePort != NO_UDP_SOURCE_PORT;
    }

    public boolean completed() {
        return finishPs >= 0;
    }

    /** Neither completed, nor failed, nor kept from being posted by a failure: the run ended first. */
    public boolean unfinished() {
        return !completed() && !failed && !notPosted();
    }

    /** Its status in flows.csv: {@code completed}, {@code failed}, {@code not_posted} or {@code unfinished}. */
    public String status() {
        return failed ? "failed" : notPosted() ? "not_posted" : completed() ? "completed" : "unfinished";
    }

    public long fctPs() {
        return finishPs < 0 ? -1 : finishPs - startPs;
    }

    /**
     * FCT less its wait behind its QP's earlier messages ({@link #qpWaitPs}, when known and positive), divided by the
     * ideal FCT: {@link #slowdown} from when its first packet could go; NaN as {@link #slowdown} is.
     */
    public double slowdownAfterQpWait() {
        return finishPs < 0 || idealFctPs <= 0 ? Double.NaN
                : (double) (fctPs() - Math.max(0, qpWaitPs)) / idealFctPs;
    }

    /** FCT divided by the ideal FCT (1.0 = as fast as an idle fabric allows). */
    public double slowdown() {
        return finishPs < 0 || idealFctPs <= 0 ? Double.NaN : (double) fctPs() / idealFctPs;
    }
}
