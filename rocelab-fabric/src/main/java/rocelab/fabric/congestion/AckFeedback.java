package rocelab.fabric.congestion;

import rocelab.fabric.packet.Packet;

/**
 * What an arriving ACK tells the sender's congestion control: bytes newly acknowledged, an RTT sample, the ECN
 * echo, and the in-band telemetry of the path the acknowledged packet took. One instance per RNIC, refilled for
 * every ACK, so reading it allocates nothing; valid only during {@link CongestionControl#onAck}.
 */
public final class AckFeedback {
    private long newlyAckedBytes;
    private long rttPs;
    private boolean ecnEcho;
    private long ackedPsn;
    private long unackedBytes;
    private Packet ack;

    /** Refills the view (RNIC use). */
    public AckFeedback fill(long newlyAcked, long rtt, long psn, long unacked, Packet ackPacket) {
        this.newlyAckedBytes = newlyAcked;
        this.rttPs = rtt;
        this.ackedPsn = psn;
        this.unackedBytes = unacked;
        this.ack = ackPacket;
        this.ecnEcho = ackPacket != null && ackPacket.ecnEcho();
        return this;
    }

    /** Payload bytes this ACK acknowledged for the first time (0 for a duplicate ACK). */
    public long newlyAckedBytes() {
        return newlyAckedBytes;
    }

    /** Round-trip time measured on the acknowledged packet (send to ACK arrival), or -1. */
    public long rttPs() {
        return rttPs;
    }

    /** Whether a data packet this ACK covers was marked Congestion Experienced. */
    public boolean ecnEcho() {
        return ecnEcho;
    }

    /** The highest PSN acknowledged. */
    public long ackedPsn() {
        return ackedPsn;
    }

    /** Payload bytes sent and still unacknowledged after this ACK. */
    public long unackedBytes() {
        return unackedBytes;
    }

    /** Switch hops that stamped telemetry on the acknowledged packet (0 unless the control asked for it). */
    public int hops() {
        return ack == null ? 0 : ack.telemetryHops();
    }

    public long hopTimePs(int hop) {
        return ack.hopTimePs(hop);
    }

    /** Bytes the hop's egress port had transmitted in total when the packet left it. */
    public long hopTxBytes(int hop) {
        return ack.hopTxBytes(hop);
    }

    /** Bytes queued at the hop's egress port when the packet left it. */
    public long hopQueueBytes(int hop) {
        return ack.hopQueueBytes(hop);
    }

    public long hopRateBps(int hop) {
        return ack.hopRateBps(hop);
    }
}
