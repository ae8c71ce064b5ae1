package rocelab.fabric.nic;

import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.packet.FrameFormat;

/**
 * What every QP of one sending RNIC holds alike: its listener, the RNIC's MTU, ACK timeout, retry limit and ACK
 * coalescing, the frame format, and the telemetry header its congestion control puts on data and ACKs. One object shared by them instead of 28 bytes in each QP (28 MB at the
 * 1,024-host all-to-all's 1,047,552 QPs).
 */
final class QueuePairConstants {
    final MessageListener listener;
    final NicParameters params;
    final int mtu;
    final long ackTimeoutPs;
    final int retryLimit;
    final int ackEvery;
    final FrameFormat frames;
    /** {@link CongestionControl#telemetryHeaderBytes}: on every data packet and every ACK or NAK of the QP. */
    final int telemetryBytes;

    private QueuePairConstants(MessageListener listener, NicParameters params, FrameFormat frames,
            int telemetryBytes) {
        this.listener = listener;
        this.params = params;
        this.mtu = params.mtuBytes();
        this.ackTimeoutPs = params.ackTimeoutPs();
        this.retryLimit = params.retryCount();
        this.ackEvery = params.ackEvery();
        this.frames = frames;
        this.telemetryBytes = telemetryBytes;
    }

    /**
     * {@code last} when it was made of the same listener, parameters, frame format (the same objects: QPs are
     * opened host after host, so consecutive ones share them) and telemetry header, else a new one.
     */
    static QueuePairConstants of(QueuePairConstants last, MessageListener listener, NicParameters params,
            FrameFormat frames, int telemetryBytes) {
        return last != null && last.listener == listener && last.params == params && last.frames == frames
                && last.telemetryBytes == telemetryBytes ? last
                : new QueuePairConstants(listener, params, frames, telemetryBytes);
    }
}
