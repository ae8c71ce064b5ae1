package rocelab.fabric.packet;

/**
 * The fields of a {@link Packet} that only some features write: selective repeat's placement offset and NAK ranges
 * ({@code nic.ooo}), what a notification answers (ECN), and in-band telemetry (HPCC). A packet takes one from its
 * pool at the first write of one of them and gives it back when it is released, so a run whose data packets write
 * none (DCQCN without {@code nic.ooo}) holds extras only for its notifications and NAKs in flight; kept apart so that
 * the packet's own lines, which every hop reads, hold only what every hop needs.
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
    /** CNP or flagged ACK: the CE-marked data packet it answers (the packet's mark fields hold that packet's mark),
     * its number among its QP's notifications, and when its first bit left the notifying RNIC. */
    long causePsn = -1;
    long notification;
    long notifySentPs = -1;
    int telemetryHops;
    /** Kept across the packet's lives once made (HPCC asks for it on every data packet and its ACK). */
    long[] telemetry;

    void clear() {
        placementOffset = -1;
        missingToPsn = -1;
        cumulativePsn = -1;
        previousMissingToPsn = -1;
        causePsn = -1;
        notification = 0;
        notifySentPs = -1;
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
