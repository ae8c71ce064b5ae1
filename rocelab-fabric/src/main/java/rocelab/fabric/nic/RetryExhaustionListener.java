package rocelab.fabric.nic;

/** Hears that a queue pair ran out of retries (IBTA "retry exceeded"): the moment its failure is decided. */
public interface RetryExhaustionListener {
    RetryExhaustionListener NONE = (nowPs, qp, lastTimerStartPs) -> {};

    /**
     * @param lastTimerStartPs when its local ACK timer last started: from then on no new ACK came, to its last firing
     *     now
     */
    void onRetriesExhausted(long nowPs, QueuePair qp, long lastTimerStartPs);
}
