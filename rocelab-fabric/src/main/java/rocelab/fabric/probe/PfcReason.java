package rocelab.fabric.probe;

/**
 * Why a device sent a PFC frame, decided by the device at the moment it sent it: a pause that starts (the ingress
 * priority group reached its XOFF threshold, the switch's shared pool had no room left, an RNIC's receive buffer
 * filled), a refresh of a pause that still holds, or the end of a pause (XON).
 */
public enum PfcReason {
    /** A switch's ingress priority group reached its XOFF threshold (or the packet that crossed it went to headroom). */
    THRESHOLD,
    /**
     * A switch's shared pool had no room for the packet while its ingress priority group was still under its XOFF
     * threshold: the packet went to the group's headroom, and that pauses the upstream device.
     */
    SHARED_POOL_FULL,
    /** An RNIC's receive buffer passed its XOFF level. */
    RECEIVE_BUFFER,
    /** XOFF sent again before the peer's pause expires, because the pause still holds: not a new pause. */
    REFRESH,
    /** XON: the group (or receive buffer) drained to its resume level. */
    RESUME
}
