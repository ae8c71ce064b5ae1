package rocelab.fabric.congestion;

/**
 * The sender-side congestion control of one queue pair (the reaction point). The RNIC paces the QP at
 * {@link #rateBps()} and keeps at most {@link #windowBytes()} of data unacknowledged. Implementations keep their
 * own state and timers; the RNIC only calls these hooks.
 */
public interface CongestionControl {
    /** Current sending rate in bit/s (at most the line rate). */
    long rateBps();

    /** Maximum unacknowledged wire bytes; {@code Long.MAX_VALUE} for a purely rate-based control. */
    long windowBytes();

    /** A data packet of {@code wireBytes} left the RNIC. */
    void onSend(long nowPs, int wireBytes);

    /**
     * An ACK advanced the acknowledged PSN.
     *
     * @param newlyAckedBytes payload bytes this ACK acknowledged for the first time
     * @param rttPs round-trip sample measured on the packet this ACK answers, or -1 if none
     */
    void onAck(long nowPs, long newlyAckedBytes, long rttPs);

    /** A Congestion Notification Packet for this QP arrived. */
    void onCnp(long nowPs);

    /** A loss was detected (NAK or retransmission timeout). */
    void onLoss(long nowPs);
}
