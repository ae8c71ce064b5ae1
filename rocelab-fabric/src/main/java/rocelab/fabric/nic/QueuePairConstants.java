package rocelab.fabric.nic;

import rocelab.fabric.packet.FrameFormat;

/**
 * What every QP of one sending RNIC holds alike: its listener, the RNIC's MTU, ACK timeout, retry limit and ACK
 * coalescing, and the frame format. One object shared by them instead of 28 bytes in each QP (28 MB at the
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

    private QueuePairConstants(MessageListener listener, NicParameters params, FrameFormat frames) {
        this.listener = listener;
        this.params = params;
        this.mtu = params.mtuBytes();
        this.ackTimeoutPs = params.ackTimeoutPs();
        this.retryLimit = params.retryCount();
        this.ackEvery = params.ackEvery();
        this.frames = frames;
    }

    /**
     * {@code last} when it was made of the same listener, parameters and frame format (the same objects: QPs are
     * opened host after host, so consecutive ones share them), else a new one.
     */
    static QueuePairConstants of(QueuePairConstants last, MessageListener listener, NicParameters params,
            FrameFormat frames) {
        return last != null && last.listener == listener && last.params == params && last.frames == frames ? last
                : new QueuePairConstants(listener, params, frames);
    }
}
