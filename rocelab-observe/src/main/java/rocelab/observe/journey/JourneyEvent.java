package rocelab.observe.journey;

/**
 * One step of a flow's journey. {@code node} and {@code port} say where (a host for RNIC steps), {@code psn} which
 * packet, {@code value} a depth in bytes or a rate in bit/s depending on the kind, {@code flag} a kind detail.
 */
public record JourneyEvent(long timePs, Kind kind, int node, int port, long psn, long value, boolean flag,
        String detail) {
    /** What happened. */
    public enum Kind { SEND, ENQUEUE, MARK, DROP, DATA_ARRIVED, ACK_ARRIVED, NAK_ARRIVED, CNP_SENT, CNP_HANDLED,
        PAUSED, RESUMED, COMPLETED }
}
