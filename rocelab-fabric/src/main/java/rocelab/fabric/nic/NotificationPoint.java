package rocelab.fabric.nic;

import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.NicCounter;

/**
 * The RNIC as congestion notification point: a CE-marked data packet makes it send a CNP to the packet's sender
 * (at most one per interval, per QP or per port), or flag the next ACK, depending on the configured mode.
 */
final class NotificationPoint {
    private final int host;
    private final NotificationPointParameters notification;
    private final FrameFormat frames;
    private final PacketPool pool;
    private final long[] counters;
    private final FrameSender transmitter;
    /** Hears the CE-marked packets that got no CNP, and why (the journey). */
    private JourneyProbe journey = JourneyProbe.NONE;

    void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
    }

    /** How this RNIC notifies senders (what its {@code np_cnp_sent} counts). */
    NotificationPointParameters parameters() {
        return notification;
    }

    /** When this port last sent a CNP (for a CNP interval that holds per port). */
    private long lastCnpPs = Long.MIN_VALUE;

    NotificationPoint(int host, NotificationPointParameters notification, FrameFormat frames, PacketPool pool,
            long[] counters, FrameSender transmitter) {
        this.host = host;
        this.notification = notification;
        this.frames = frames;
        this.pool = pool;
        this.counters = counters;
        this.transmitter = transmitter;
    }

    /**
     * The CE-marked data packet {@code data} of {@code qp} arrived. Sends a CNP carrying its cause (the packet's PSN
     * and where it was marked) unless one went out for this QP (or, with a per-port interval, from this port) within
     * the interval, or flags the next ACK (with the same cause) when notifications ride on ACKs.
     */
    void onCongestionExperienced(long nowPs, QueuePair qp, Packet data) {
        if (notification.mode() == NotificationPointParameters.Mode.NONE) {
            return;
        }
        CongestionNotice notice = qp.notice();
        if (notification.mode() == NotificationPointParameters.Mode.ACK_FLAG) {
            if (!notice.cnpFlagPending) {
                notice.cnpFlagPending = true;
                notice.pendingCausePsn = data.psn();
                notice.pendingMarkNode = data.markNode();
                notice.pendingMarkPort = data.markPort();
                notice.pendingMarkAtPs = data.markAtPs();
                notice.pendingMarkHeldByPause = data.markHeldByPause();
            }
            return;
        }
        long last = notification.intervalPerPort() ? lastCnpPs : notice.lastCnpPs;
        if (last != Long.MIN_VALUE && nowPs - last < notification.cnpIntervalPs()) {
            journey.onCnpWithheld(nowPs, host, data, last, notification.cnpIntervalPs(), notification.intervalPerPort());
            return;
        }
        notice.lastCnpPs = nowPs;
        lastCnpPs = nowPs;
        Packet cnp = pool.acquire()
                .initCnp(nowPs, host, qp.sourceHost(), qp.id, frames.cnpFrameBytes())
                .qos(notification.cnpPriority(), notification.cnpDscp(), Ecn.NOT_ECT)
                .entropy(qp.entropy)
                .notificationCause(data, ++notice.notificationsSent);
        counters[NicCounter.NP_CNP_SENT.ordinal()]++;
        transmitter.sendControl(nowPs, cnp);
    }
}
