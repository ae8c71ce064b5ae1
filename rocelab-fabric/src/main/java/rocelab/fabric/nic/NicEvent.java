package rocelab.fabric.nic;

/**
 * The kinds of an RNIC's wake-ups. An RNIC registers one event handler and its parts schedule under it, so the
 * calendar holds O(RNICs) entries; the kind says which part the wake-up is for.
 */
final class NicEvent {
    /** {@link Transmitter}: the frame on the wire is done and another waits (argument: the port, its plane). */
    static final int TX_COMPLETE = 1;
    /** {@link QueuePairRotation}: the earliest paced QP may send (argument: the pacer epoch; per-QP planes: epoch mod planes is
     * the port). */
    static final int PACER = 2;
    /** {@link AckTimers}: the earliest local ACK timer expires (argument: the timer epoch). */
    static final int ACK_TIMER = 3;
    /** {@link PauseReaction}: a pause from the switch expires (argument: the pause's epoch and priority, times
     * the planes, plus the port). */
    static final int RESUME = 4;
    /** {@link PauseStorm}: the next XOFF (or the closing XON) of an injected pause storm. */
    static final int STORM = 5;
    /** {@link ReceivePipeline}: the packet at the head of the receive buffer is through the pipeline. */
    static final int RX_DONE = 6;
    /** {@link ReceivePipeline}: refresh the RNIC's own XOFF (argument: the refresh epoch). */
    static final int RX_REFRESH = 7;
    /** {@link PauseReaction}: the oldest PFC frame received takes effect after the pause response time
     * (argument: the port). */
    static final int PAUSE_ACTS = 8;

    private NicEvent() {
    }
}
