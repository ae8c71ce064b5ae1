package rocelab.fabric.congestion;

/**
 * The sender-side congestion control of one queue pair (the reaction point). The RNIC paces the QP at
 * {@link #rateBps()} and keeps at most {@link #windowBytes()} of payload unacknowledged. Implementations keep
 * their own state and timers (registering with the simulator through their factory's context); the RNIC only
 * calls these hooks, so a new algorithm never touches RNIC or switch code. Every change of rate or window is
 * reported, with its {@link RateCause}, to the {@link RateListener} of the factory's context.
 */
public interface CongestionControl {
    /** Current sending rate in bit/s (at most the line rate). */
    long rateBps();

    /** Maximum unacknowledged payload bytes; {@code Long.MAX_VALUE} for a purely rate-based control. */
    long windowBytes();

    /**
     * Whether this control ever limits the bytes in flight ({@link #windowBytes} below {@code Long.MAX_VALUE}); a
     * purely rate-based one answers false once, so the RNIC need not ask for the window of every QP it looks at.
     */
    default boolean windowed() {
        return true;
    }

    /** Whether data packets of this QP should collect in-band telemetry from the switches (HPCC). */
    default boolean wantsTelemetry() {
        return false;
    }

    /**
     * Bytes of the telemetry header this control puts on the wire: every data packet of the QP carries it and every
     * ACK or NAK answering one echoes it (HPCC's INT header, {@code FrameFormat.intHeaderBytes}). 0 for a control
     * whose signal costs no bytes; Swift's telemetry, the simulator's stand-in for the IP TTL, is one. A constant of
     * the QP: its frames are sized with it once per QP, not per packet.
     */
    default int telemetryHeaderBytes() {
        return 0;
    }

    /** A data packet of {@code wireBytes} left the RNIC. */
    void onSend(long nowPs, int wireBytes);

    /** An ACK arrived (it may acknowledge nothing new); the view is valid only during the call. */
    void onAck(long nowPs, AckFeedback ack);

    /**
     * A congestion notification for this QP arrived (a CNP, or an ACK carrying the CNP flag).
     *
     * @return true if the control reacted (counted as {@code rp_cnp_handled}), false if it ignores CNPs
     *     ({@code rp_cnp_ignored}, the default)
     */
    default boolean onCnp(long nowPs) {
        return false;
    }

    /**
     * As {@link #onCnp(long)}, naming the notification: {@code notification} is its number among this QP's
     * notifications, which the control reports as the value of a {@link RateCause#CNP} rate change it causes.
     */
    default boolean onCnp(long nowPs, long notification) {
        return onCnp(nowPs);
    }

    /** A loss was detected (NAK or retransmission timeout); controls that do not react to loss ignore it. */
    default void onLoss(long nowPs) {}

    /** How many times this control has cut its rate or window so far (for the summary). */
    default long rateCuts() {
        return 0;
    }

    /**
     * What {@link #rateCuts()} counts, in this control's words (summary.json {@code counters.rate_cuts_unit}): the
     * controls cut different things at different paces (a DCQCN cut at most once per decrease period, an HPCC window
     * update at most once per window of data), so their counts are not one unit side by side.
     */
    default String cutsCounted() {
        return "none: this control never cuts its rate or window";
    }
}
