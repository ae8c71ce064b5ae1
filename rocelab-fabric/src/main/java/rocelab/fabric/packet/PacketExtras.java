package rocelab.fabric.packet;

/**
 * The fields of a {@link Packet} that only some features write: selective repeat's placement offset and NAK ranges
 * ({@code nic.ooo}), where a data packet was first CE-marked and what a notification answers (ECN), and in-band
 * telemetry (HPCC). One per packet, made with it by the pool and reused with it; kept apart so that the packet's own
 * lines, which every hop reads, hold only what every hop needs. In its cleared state unless the packet's
 * {@code hasExtras} is set, so the packet answers the defaults without reading it.
 */
final class PacketExtras {
    /** Data with out-of-order placement: the byte offset of its payload in its WRITE, carried in a RETH on every
     * packet (as direct data placement needs); -1 when only the first packet carries a RETH. */
    long placementOffset = -1;
    /** Selective NAK: the last PSN of the missing range that starts at the packet's PSN, and the cumulative PSN (the
     * receiver has every PSN up to it); -1 on every other packet. */
    long missingToPsn = -1;
    long cumulativePsn = -1;
    /** Selective NAK: the last PSN of the range the receiver asked for before this one (-1: none). */
    long previousMissingToPsn = -1;
    long markAtPs;
    /** CNP or flagged ACK: the CE-marked data packet it answers, its number among its QP's notifications, and when
     * its first bit left the notifying RNIC. */
    long causePsn = -1;
    long notification;
    long notifySentPs = -1;
    /** Data: where a switch first marked it CE (-1: unmarked). CNP or flagged ACK: the mark that caused it. */
    int markNode = -1;
    int markPort;
    /**
     * Data: it waited behind a PFC pause at the port that first marked it (the port's paused-time clock moved while
     * it sat there). A notification: the packet it answers did.
     */
    boolean markHeldByPause;
    int telemetryHops;
    /** Kept across the packet's lives once made (HPCC asks for it on every data packet and its ACK). */
    long[] telemetry;

    void clear() {
        placementOffset = -1;
        missingToPsn = -1;
        cumulativePsn = -1;
        previousMissingToPsn = -1;
        markAtPs = 0;
        causePsn = -1;
        notification = 0;
        notifySentPs = -1;
        markNode = -1;
        markPort = 0;
        markHeldByPause = false;
        telemetryHops = 0;
    }

    void startTelemetry() {
        telemetryHops = 0;
        if (telemetry == null) {
            telemetry = new long[Packet.MAX_TELEMETRY_HOPS * Packet.TELEMETRY_FIELDS];
        }
    }

    void copyTelemetryFrom(PacketExtras data) {
        startTelemetry();
        telemetryHops = data.telemetryHops;
        System.arraycopy(data.telemetry, 0, telemetry, 0, telemetryHops * Packet.TELEMETRY_FIELDS);
    }
}
