package rocelab.fabric.nic;

import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;

/**
 * An RDMA NIC (RNIC) with one Ethernet (or InfiniBand) port. It hands what arrives to its queue pairs and its
 * parts, each with one job: the {@link Transmitter} (control frames first, then data from the
 * {@link QueuePairRotation}, each QP paced at the rate its congestion control allows), the {@link ReceivePipeline}
 * (a slow receive path with its own PFC), the {@link PauseReaction} to its switch's PFC frames, the
 * {@link NotificationPoint} (CNPs), the {@link AckTimers} and an injected {@link PauseStorm}. Packets are built only
 * when they go on the wire, so a posted 1 GB message costs no memory. The RNIC is one event handler; the kind of a
 * wake-up ({@link NicEvent}) says which part it is for.
 */
public final class Nic implements PacketSink, EventHandler, RateListener {
    private final int host;
    private final long lineRateBps;
    private final NicParameters params;
    private final FrameFormat frames;
    private final PacketPool pool;
    private final QueuePairTable queuePairs;
    private final AckFeedback feedback = new AckFeedback();
    private final long[] counters = new long[NicCounter.COUNT];
    private final PauseState pause = new PauseState();
    private final QueuePairRotation rotation;
    private final Transmitter transmitter;
    private final ReceivePipeline receive;
    private final PauseReaction pauseReaction;
    private final PauseStorm storm;
    private final NotificationPoint notificationPoint;
    private final AckTimers ackTimers;
    private JourneyProbe journey = JourneyProbe.NONE;
    private CreditGate credits;
    private CreditReturn creditReturn;
    private long managementReceived;

    public Nic(Simulator sim, int host, long lineRateBps, NicParameters params, FrameFormat frames, PacketPool pool,
            QueuePairTable queuePairs, NotificationPointParameters notification) {
        this.host = host;
        this.lineRateBps = lineRateBps;
        this.params = params;
        this.frames = frames;
        this.pool = pool;
        this.queuePairs = queuePairs;
        int handlerId = sim.register(this);
        LineRate line = new LineRate(lineRateBps);
        this.rotation = new QueuePairRotation(sim, handlerId, line);
        this.transmitter = new Transmitter(sim, handlerId, host, params, line, pool, counters, pause, rotation);
        this.receive = new ReceivePipeline(sim, handlerId, host, lineRateBps, frames, pool, counters, transmitter, this,
                params.dataPriority());
        this.pauseReaction = new PauseReaction(sim, handlerId, host, lineRateBps, params.dataPriority(), counters,
                pause, transmitter, rotation);
        this.storm = new PauseStorm(sim, handlerId, lineRateBps, frames, pool, counters, transmitter);
        this.notificationPoint = new NotificationPoint(host, notification, frames, pool, counters, transmitter);
        this.ackTimers = new AckTimers(sim, handlerId);
    }

    public void connect(Link outgoingLink) {
        transmitter.connect(outgoingLink);
    }

    /**
     * InfiniBand: packets start only when {@code gate} holds credits for their lane, and this HCA returns credits
     * for its receive buffer with the flow-control packets of {@code returns}.
     */
    public void credits(CreditGate gate, CreditReturn returns) {
        this.credits = gate;
        this.creditReturn = returns;
        transmitter.credits(gate, returns);
        receive.creditBound(returns != null);
    }

    public CreditGate creditGate() {
        return credits;
    }

    public CreditReturn creditReturn() {
        return creditReturn;
    }

    /** InfiniBand subnet management packets (VL15) this HCA received. */
    public long managementReceived() {
        return managementReceived;
    }

    /** Credits arrived or an update became due: start sending if the port is free. */
    public void wakeTransmitter(long nowPs) {
        transmitter.kick(nowPs);
    }

    /**
     * Sets the receive pipeline; with {@code pfc} the RNIC pauses its switch (on the data priority) when its
     * receive buffer fills, otherwise it drops what does not fit.
     */
    public void receivePipeline(ReceiveParameters params, boolean pfc) {
        receive.configure(params, pfc);
    }

    /**
     * PFC on the RNIC (mlnx_qos --pfc): it honours its switch's PFC frames only for the priorities in
     * {@code enabledMask}, and files received RoCE frames under {@code receivePriority} (what its trust mode makes of
     * them), the priority its own PFC frames pause.
     */
    public void priorityFlowControl(int enabledMask, int receivePriority) {
        pauseReaction.enabledPriorities(enabledMask);
        receive.pausePriority(receivePriority);
    }

    public void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
        transmitter.journeyProbe(probe);
    }

    /**
     * How long after a PFC frame arrives the RNIC acts on it (IEEE 802.3 Annex 31B response time, in which it still
     * starts frames); 0 until the builder sets the configured value.
     */
    public void pauseResponse(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("pause response must not be negative");
        }
        pauseReaction.responseTime(ps);
    }

    public void pfcProbe(PfcProbe probe) {
        receive.pfcProbe(probe);
        pauseReaction.pfcProbe(probe);
    }

    /**
     * Fault injection: from {@code startPs} to {@code endPs} this RNIC behaves as if its receive pipeline were
     * stuck, sending PFC XOFF for {@code priority} to its switch and refreshing it every half pause (a pause
     * storm), then XON.
     */
    public void schedulePauseStorm(long startPs, long endPs, int priority) {
        storm.schedule(startPs, endPs, priority);
    }

    // ---------------------------------------------------------------- receive

    @Override
    public void receive(long nowPs, Packet p) {
        if (p.kind() == PacketKind.CREDIT) {
            credits.onUpdate(nowPs, p.priority(), p.creditLimit());
            pool.release(p);
            return;
        }
        if (p.kind() == PacketKind.MANAGEMENT) {
            managementReceived++;
            pool.release(p);
            return;
        }
        if (creditReturn != null) {
            creditReturn.onReceived(p.priority(), p.frameBytes());
        }
        if (receive.limited() && p.kind() != PacketKind.PFC) {
            receive.arrive(nowPs, p);
            return;
        }
        process(nowPs, p);
    }

    /** A packet is through the receive path: it goes to its queue pair (or, a PFC frame, to the pause reaction). */
    void process(long nowPs, Packet p) {
        journey.onArrive(nowPs, host, p);
        QueuePair qp = p.kind() == PacketKind.PFC ? null : queuePairs.get(p.queuePair());
        switch (p.kind()) {
            case DATA:
                counters[NicCounter.RX_DATA_PACKETS.ordinal()]++;
                if (p.ecn() == Ecn.CE) {
                    counters[NicCounter.NP_ECN_MARKED_ROCE_PACKETS.ordinal()]++;
                }
                qp.onData(nowPs, p);
                break;
            case ACK:
                counters[NicCounter.RX_ACKS.ordinal()]++;
                if (p.cnpFlag()) {
                    onCongestionNotification(nowPs, qp, p);
                }
                qp.onAck(nowPs, p, feedback);
                break;
            case NAK:
                counters[NicCounter.RX_NAKS.ordinal()]++;
                qp.onNak(nowPs, p, feedback);
                break;
            case CNP:
                onCongestionNotification(nowPs, qp, p);
                break;
            case PFC:
                pauseReaction.onPauseFrame(nowPs, p.priority(), p.pauseQuanta(), p.sentAtPs());
                break;
            default:
                break;
        }
        if (creditReturn != null) {
            creditReturn.onFreed(nowPs, p.priority(), p.frameBytes());
        }
        pool.release(p);
    }

    /**
     * Reaction point: a CNP (or an ACK with the CNP flag) reached the sender of {@code qp}; the congestion control
     * hears its number, so a rate change it causes names it.
     */
    private void onCongestionNotification(long nowPs, QueuePair qp, Packet notice) {
        qp.cnpsReceived++;
        queuePairs.changed(qp.id);
        boolean reacted = qp.cc.onCnp(nowPs, notice.notification());
        NicCounter c = reacted ? NicCounter.RP_CNP_HANDLED : NicCounter.RP_CNP_IGNORED;
        counters[c.ordinal()]++;
        journey.onCnpHandled(nowPs, host, notice, reacted, qp.cc.rateBps());
    }

    /** Notification point: the CE-marked data packet {@code data} of {@code qp} arrived. */
    void onCongestionExperienced(long nowPs, QueuePair qp, Packet data) {
        notificationPoint.onCongestionExperienced(nowPs, qp, data);
    }

    /** A congestion control of one of this RNIC's QPs changed its rate or window: tell the journey. */
    @Override
    public void onRateChange(long nowPs, int queuePair, long fromBps, long toBps, long windowBytes, RateCause cause,
            long value, int index) {
        queuePairs.changed(queuePair);
        journey.onRateChange(nowPs, host, queuePair, fromBps, toBps, windowBytes, cause, value, index);
    }

    /** A message was posted on {@code qp} (what a sampler of the QPs looks at changed). */
    void posted(QueuePair qp) {
        queuePairs.changed(qp.id);
    }

    /**
     * Queues an ACK or NAK of {@code qp} back to its requester, answering {@code data}: it echoes the data
     * packet's timestamp and telemetry, and carries the ECN echo and CNP flag the responder collected.
     */
    void sendAck(long nowPs, QueuePair qp, PacketKind kind, long psn, Packet data, boolean ecnEcho, boolean cnp) {
        Packet ack = pool.acquire()
                .initAck(data.sentAtPs(), kind, host, qp.sourceHost(), qp.id, psn, frames.ackFrameBytes())
                .qos(qp.lane, qp.dscp, Ecn.NOT_ECT)
                .entropy(qp.entropy)
                .ecnEcho(ecnEcho)
                .cnpFlag(cnp);
        SelectiveRepeat selective = qp.selective;
        if (kind == PacketKind.NAK && selective != null && selective.nakMissingToPsn >= 0) {
            ack.selectiveNak(selective.nakCumulativePsn, selective.nakMissingToPsn, selective.nakPreviousMissingToPsn);
        }
        ack.copyTelemetryFrom(data);
        counters[(kind == PacketKind.NAK ? NicCounter.TX_NAKS : NicCounter.TX_ACKS).ordinal()]++;
        if (cnp) {
            counters[NicCounter.NP_CNP_SENT.ordinal()]++;
            CongestionNotice notice = qp.notice;
            ack.notificationCause(notice.pendingCausePsn, notice.pendingMarkNode, notice.pendingMarkPort,
                    notice.pendingMarkAtPs, ++notice.notificationsSent);
        }
        transmitter.sendControl(nowPs, ack);
    }

    // ---------------------------------------------------------------- transmit and timers

    /** A QP may have something to send (new message, ACK, NAK or timeout): put it in the rotation. */
    void wake(long nowPs, QueuePair qp) {
        rotation.wake(nowPs, qp);
        transmitter.kick(nowPs);
    }

    /** Arms (or re-arms) the local ACK timer of {@code qp} for {@code deadlinePs}. */
    void scheduleAckTimer(QueuePair qp, long deadlinePs) {
        ackTimers.schedule(qp, deadlinePs);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        switch (kind) {
            case NicEvent.TX_COMPLETE -> transmitter.onTransmitted(nowPs);
            case NicEvent.PACER -> transmitter.onPacer(nowPs, arg);
            case NicEvent.ACK_TIMER -> ackTimers.onWakeUp(nowPs, arg);
            case NicEvent.RESUME -> pauseReaction.onExpiry(nowPs, arg);
            case NicEvent.PAUSE_ACTS -> pauseReaction.onResponseTimeOver(nowPs);
            case NicEvent.STORM -> storm.onWakeUp(nowPs);
            case NicEvent.RX_DONE -> receive.onDone(nowPs);
            case NicEvent.RX_REFRESH -> receive.onRefresh(nowPs, arg);
            default -> throw new IllegalStateException("unknown RNIC event kind " + kind);
        }
    }

    // ---------------------------------------------------------------- counters and state

    void count(NicCounter counter) {
        counters[counter.ordinal()]++;
    }

    void count(NicCounter counter, long delta) {
        counters[counter.ordinal()] += delta;
    }

    public long counter(NicCounter counter) {
        return counters[counter.ordinal()];
    }

    public int host() {
        return host;
    }

    public long lineRateBps() {
        return lineRateBps;
    }

    public NicParameters parameters() {
        return params;
    }

    /** Packets held by this RNIC: control frames waiting (a frame being sent is already owned by the link). */
    public int packetsHeld() {
        return transmitter.packetsHeld() + receive.packetsHeld();
    }

    /** Whether a pause from the switch holds {@code priority}. */
    public boolean isPaused(int priority) {
        return pause.isPaused(priority);
    }
}
