package rocelab.fabric.nic;

import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.link.Link;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;

/**
 * An RDMA NIC (RNIC) with one Ethernet port. Its transmitter pulls one frame at a time: control frames (ACK, NAK,
 * CNP) first, then data from the active queue pairs in round-robin order, each QP paced at the rate its
 * congestion control allows. Packets are built only when they go on the wire, so a posted 1 GB message costs
 * no memory. Pending wake-ups: the end of the current transmission and one pacer timer.
 */
public final class Nic implements PacketSink, EventHandler, rocelab.fabric.congestion.RateListener {
    private static final int TX_COMPLETE = 1;
    private static final int PACER = 2;
    private static final int ACK_TIMER = 3;
    private static final int RESUME = 4;
    private static final int STORM = 5;
    private static final int RX_DONE = 6;
    private static final int RX_REFRESH = 7;
    private static final int PAUSE_ACTS = 8;

    private final Simulator sim;
    private final int handlerId;
    private final int host;
    private final long lineRateBps;
    private final long psPerByte;
    private final NicParameters params;
    private final FrameFormat frames;
    private final PacketPool pool;
    private final QueuePairTable queuePairs;
    private final NotificationPointParameters notification;
    private final AckFeedback feedback = new AckFeedback();
    private final long[] counters = new long[NicCounter.COUNT];
    private final PacketFifo[] control = new PacketFifo[8];
    private final rocelab.fabric.flowcontrol.PauseState pause = new rocelab.fabric.flowcontrol.PauseState();
    private final PacketFifo macControl = new PacketFifo();
    private long stormEndPs;
    private ReceiveParameters rx = ReceiveParameters.unlimited();
    private boolean rxPfc;
    private final PacketFifo rxQueue = new PacketFifo();
    private boolean rxBusy;
    private boolean rxPausing;
    private long rxRefreshEpoch;
    private rocelab.fabric.probe.PfcProbe pfcProbe = rocelab.fabric.probe.PfcProbe.NONE;
    private rocelab.fabric.probe.JourneyProbe journey = rocelab.fabric.probe.JourneyProbe.NONE;
    private int stormPriority;
    /** When the PFC frame that last paused this RNIC was sent by its switch (it names that XOFF). */
    private long lastXoffSentPs = -1;
    /** Priorities with PFC enabled on this RNIC; all of them until told otherwise. */
    private int pfcMask = 0xFF;
    /** The priority received RoCE is filed under (and the one the RNIC's own PFC frames pause). */
    private int receivePriority;
    private Link link;
    private long busyUntilPs;
    private boolean txPending;
    private QueuePair activeHead;
    private QueuePair activeTail;
    private final QueuePairHeap paced = new QueuePairHeap();
    /** Longest a paced QP waits before its gap is re-derived from its (possibly raised) rate. */
    static final long PACER_RECHECK_PS = 10_000_000L;
    private final QueuePairHeap ackTimers = new QueuePairHeap();
    private long pacerEpoch;
    private long pacerAtPs = -1;
    private long timerEpoch;
    private long timerAtPs = -1;
    private rocelab.fabric.flowcontrol.credit.CreditGate credits;
    private rocelab.fabric.flowcontrol.credit.CreditReturn creditReturn;
    private long managementReceived;
    private long pauseResponsePs;
    private final rocelab.fabric.flowcontrol.PendingPauses pending = new rocelab.fabric.flowcontrol.PendingPauses();
    /** When this port last sent a CNP (for a CNP interval that holds per port). */
    private long lastCnpPs = Long.MIN_VALUE;

    public Nic(Simulator sim, int host, long lineRateBps, NicParameters params, FrameFormat frames, PacketPool pool,
            QueuePairTable queuePairs, NotificationPointParameters notification) {
        this.sim = sim;
        this.host = host;
        this.lineRateBps = lineRateBps;
        this.psPerByte = Rates.exactPsPerByte(lineRateBps);
        this.params = params;
        this.frames = frames;
        this.pool = pool;
        this.queuePairs = queuePairs;
        this.notification = notification;
        this.handlerId = sim.register(this);
        this.receivePriority = params.dataPriority();
        for (int i = 0; i < control.length; i++) {
            control[i] = new PacketFifo();
        }
    }

    public void connect(Link outgoingLink) {
        this.link = outgoingLink;
    }

    /**
     * InfiniBand: packets start only when {@code gate} holds credits for their lane, and this HCA returns credits
     * for its receive buffer with the flow-control packets of {@code returns}.
     */
    public void credits(rocelab.fabric.flowcontrol.credit.CreditGate gate,
            rocelab.fabric.flowcontrol.credit.CreditReturn returns) {
        this.credits = gate;
        this.creditReturn = returns;
    }

    public rocelab.fabric.flowcontrol.credit.CreditGate creditGate() {
        return credits;
    }

    public rocelab.fabric.flowcontrol.credit.CreditReturn creditReturn() {
        return creditReturn;
    }

    /** InfiniBand subnet management packets (VL15) this HCA received. */
    public long managementReceived() {
        return managementReceived;
    }

    /** Credits arrived or an update became due: start sending if the port is free. */
    public void wakeTransmitter(long nowPs) {
        kick(nowPs);
    }

    // ---------------------------------------------------------------- receive

    /**
     * Sets the receive pipeline; with {@code pfc} the RNIC pauses its switch (on the data priority) when its
     * receive buffer fills, otherwise it drops what does not fit.
     */
    public void receivePipeline(ReceiveParameters params, boolean pfc) {
        this.rx = params;
        this.rxPfc = pfc;
    }

    /**
     * PFC on the RNIC (mlnx_qos --pfc): it honours its switch's PFC frames only for the priorities in
     * {@code enabledMask}, and files received RoCE frames under {@code receivePriority} (what its trust mode makes of
     * them), the priority its own PFC frames pause.
     */
    public void priorityFlowControl(int enabledMask, int receivePriority) {
        this.pfcMask = enabledMask;
        this.receivePriority = receivePriority;
    }

    public void journeyProbe(rocelab.fabric.probe.JourneyProbe probe) {
        this.journey = probe;
    }

    /**
     * How long after a PFC frame arrives the RNIC acts on it (IEEE 802.3 Annex 31B response time, in which it still
     * starts frames); 0 until the builder sets the configured value.
     */
    public void pauseResponse(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("pause response must not be negative");
        }
        this.pauseResponsePs = ps;
    }

    public void pfcProbe(rocelab.fabric.probe.PfcProbe probe) {
        this.pfcProbe = probe;
    }

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
        if (rx.limited() && p.kind() != PacketKind.PFC) {
            // With credits the HCA's lane buffers bound what can arrive: nothing is dropped.
            if (creditReturn == null && rxQueue.bytes() + p.frameBytes() > rx.bufferBytes()) {
                counters[NicCounter.OUT_OF_BUFFER.ordinal()]++;
                pool.release(p);
                return;
            }
            rxQueue.add(p);
            if (!rxBusy) {
                startReceive(nowPs);
            }
            if (rxPfc && !rxPausing && rxQueue.bytes() >= rx.xoffBytes()) {
                rxPausing = true;
                sendRxPause(nowPs, 0xFFFF);
            }
            return;
        }
        process(nowPs, p);
    }

    private void startReceive(long nowPs) {
        rxBusy = true;
        sim.schedule(nowPs + Rates.serializationPs(rxQueue.peek().wireBytes(), rx.rateBps()), handlerId, RX_DONE, 0L);
    }

    private void onReceiveDone(long nowPs) {
        Packet p = rxQueue.poll();
        rxBusy = false;
        if (!rxQueue.isEmpty()) {
            startReceive(nowPs);
        }
        if (rxPausing && rxQueue.bytes() <= rx.xonBytes()) {
            rxPausing = false;
            sendRxPause(nowPs, 0);
        }
        process(nowPs, p);
    }

    /** XOFF (refreshed every half pause while the buffer stays full) or XON to the switch above. */
    private void sendRxPause(long nowPs, int quanta) {
        Packet frame = pool.acquire().initPfc(nowPs, receivePriority, quanta, frames.pfcFrameBytes());
        counters[NicCounter.TX_PAUSE.ordinal()]++;
        pfcProbe.onPfcSent(nowPs, host, 0, receivePriority, quanta, rxQueue.bytes(),
                quanta == 0 ? rx.xonBytes() : rx.xoffBytes());
        macControl.add(frame);
        kick(nowPs);
        ++rxRefreshEpoch;
        if (quanta != 0) {
            long half = rocelab.fabric.flowcontrol.Headroom.pauseDurationPs(quanta, lineRateBps) / 2;
            sim.schedule(nowPs + half, handlerId, RX_REFRESH, rxRefreshEpoch);
        }
    }

    private void process(long nowPs, Packet p) {
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
                onPauseFrame(nowPs, p.priority(), p.pauseQuanta(), p.sentAtPs());
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
        boolean reacted = qp.cc.onCnp(nowPs, notice.notification());
        NicCounter c = reacted ? NicCounter.RP_CNP_HANDLED : NicCounter.RP_CNP_IGNORED;
        counters[c.ordinal()]++;
        journey.onCnpHandled(nowPs, host, notice, reacted, qp.cc.rateBps());
    }

    /**
     * Notification point: the CE-marked data packet {@code data} of {@code qp} arrived. Sends a CNP carrying its
     * cause (the packet's PSN and where it was marked) unless one went out for this QP (or, with a per-port
     * interval, from this port) within the interval, or flags the next ACK (with the same cause) when notifications
     * ride on ACKs.
     */
    void onCongestionExperienced(long nowPs, QueuePair qp, Packet data) {
        if (notification.mode() == NotificationPointParameters.Mode.NONE) {
            return;
        }
        if (notification.mode() == NotificationPointParameters.Mode.ACK_FLAG) {
            if (!qp.cnpFlagPending) {
                qp.cnpFlagPending = true;
                qp.pendingCausePsn = data.psn();
                qp.pendingMarkNode = data.markNode();
                qp.pendingMarkPort = data.markPort();
                qp.pendingMarkAtPs = data.markAtPs();
            }
            return;
        }
        long last = notification.intervalPerPort() ? lastCnpPs : qp.lastCnpPs;
        if (last != Long.MIN_VALUE && nowPs - last < notification.cnpIntervalPs()) {
            return;
        }
        qp.lastCnpPs = nowPs;
        lastCnpPs = nowPs;
        Packet cnp = pool.acquire()
                .initCnp(nowPs, host, qp.sourceHost(), qp.id, frames.cnpFrameBytes())
                .qos(notification.cnpPriority(), notification.cnpDscp(), Ecn.NOT_ECT)
                .entropy(qp.entropy)
                .notificationCause(data, ++qp.notificationsSent);
        counters[NicCounter.NP_CNP_SENT.ordinal()]++;
        control[cnp.priority()].add(cnp);
        kick(nowPs);
    }

    /** A congestion control of one of this RNIC's QPs changed its rate or window: tell the journey. */
    @Override
    public void onRateChange(long nowPs, int queuePair, long fromBps, long toBps, long windowBytes,
            rocelab.fabric.congestion.RateCause cause, long value, int index) {
        journey.onRateChange(nowPs, host, queuePair, fromBps, toBps, windowBytes, cause, value, index);
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
        if (kind == PacketKind.NAK && qp.nakMissingToPsn >= 0) {
            ack.selectiveNak(qp.nakCumulativePsn, qp.nakMissingToPsn);
        }
        ack.copyTelemetryFrom(data);
        counters[(kind == PacketKind.NAK ? NicCounter.TX_NAKS : NicCounter.TX_ACKS).ordinal()]++;
        if (cnp) {
            counters[NicCounter.NP_CNP_SENT.ordinal()]++;
            ack.notificationCause(qp.pendingCausePsn, qp.pendingMarkNode, qp.pendingMarkPort, qp.pendingMarkAtPs,
                    ++qp.notificationsSent);
        }
        control[ack.priority()].add(ack);
        kick(nowPs);
    }

    // ---------------------------------------------------------------- transmit

    /** A QP may have something to send (new message, ACK, NAK or timeout): put it in the rotation. */
    void wake(long nowPs, QueuePair qp) {
        if (qp.txState == QueuePair.TxState.IDLE && qp.canSend()) {
            refreshPacing(qp);
            if (qp.nextSendPs <= nowPs) {
                appendActive(qp);
            } else {
                pushPaced(qp, nowPs);
            }
        }
        kick(nowPs);
    }

    /** Something may be ready to send: send now if the port is free, else wake up when it frees. */
    private void kick(long nowPs) {
        if (txPending) {
            return;
        }
        if (nowPs >= busyUntilPs) {
            startNext(nowPs);
        } else {
            txPending = true;
            sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (kind == TX_COMPLETE) {
            txPending = false;
            startNext(nowPs);
        } else if (kind == RESUME) {
            if (pause.isCurrent(arg)) {
                resume(nowPs, (int) (arg & 7));
            }
        } else if (kind == RX_DONE) {
            onReceiveDone(nowPs);
        } else if (kind == RX_REFRESH) {
            if (arg == rxRefreshEpoch && rxPausing) {
                sendRxPause(nowPs, 0xFFFF);
            }
        } else if (kind == PAUSE_ACTS) {
            int priority = pending.priority();
            int quanta = pending.quanta();
            long sent = pending.sentPs();
            pending.poll();
            actOnPause(nowPs, priority, quanta, sent);
        } else if (kind == STORM) {
            onStorm(nowPs);
        } else if (kind == PACER) {
            if (arg == pacerEpoch) {
                pacerAtPs = -1;
                kick(nowPs);
            }
        } else if (arg == timerEpoch) {
            onAckTimers(nowPs);
        }
    }

    /**
     * The switch above paused one of our priorities (quanta 0: resume); it takes effect after the response time,
     * every frame after the same delay, so in the order they arrived. {@code xoffSentPs} is when the switch sent the
     * frame, which names the XOFF in its PFC log.
     */
    private void onPauseFrame(long nowPs, int priority, int quanta, long xoffSentPs) {
        counters[NicCounter.RX_PAUSE.ordinal()]++;
        if ((pfcMask & 1 << priority) == 0) {
            return; // PFC is not enabled on that priority here: the frame changes nothing
        }
        if (pauseResponsePs > 0) {
            pending.add(priority, quanta, xoffSentPs);
            sim.schedule(nowPs + pauseResponsePs, handlerId, PAUSE_ACTS, 0L);
            return;
        }
        actOnPause(nowPs, priority, quanta, xoffSentPs);
    }

    private void actOnPause(long nowPs, int priority, int quanta, long xoffSentPs) {
        if (quanta == 0) {
            resume(nowPs, priority);
            return;
        }
        lastXoffSentPs = xoffSentPs;
        long until = nowPs + rocelab.fabric.flowcontrol.Headroom.pauseDurationPs(quanta, lineRateBps);
        sim.schedule(until, handlerId, RESUME, pause.pause(nowPs, priority));
    }

    private void resume(long nowPs, int priority) {
        long lasted = pause.resume(nowPs, priority);
        if (lasted >= 0) {
            counters[NicCounter.RX_PAUSE_DURATION_PS.ordinal()] += lasted;
            if (priority == params.dataPriority()) {
                reportPausedWaits(nowPs, lasted, priority);
            }
            kick(nowPs);
        }
    }

    /**
     * A pause of the data priority just ended: every QP that had data ready meanwhile waited behind it, from the
     * pause's start (or from when it became ready) to now. Pauses are rare, so walking the ready QPs here is cheap.
     */
    private void reportPausedWaits(long nowPs, long lasted, int priority) {
        long clock = pause.pausedPs(priority, nowPs);
        long since = nowPs - lasted;
        for (QueuePair qp = activeHead; qp != null; qp = qp.nextActive) {
            long from = Math.max(since, qp.readyPs);
            if (from < nowPs && qp.canSend()) {
                pfcProbe.onPausedWait(nowPs, host, 0, priority, qp.id, qp.sndNxt(), clock - (nowPs - from), clock,
                        lastXoffSentPs);
            }
        }
        for (int i = 0; i < paced.size(); i++) {
            QueuePair qp = paced.at(i);
            long from = Math.max(since, Math.max(qp.readyPs, qp.nextSendPs));
            if (from < nowPs && qp.canSend()) {
                pfcProbe.onPausedWait(nowPs, host, 0, priority, qp.id, qp.sndNxt(), clock - (nowPs - from), clock,
                        lastXoffSentPs);
            }
        }
    }

    /**
     * Fault injection: from {@code startPs} to {@code endPs} this RNIC behaves as if its receive pipeline were
     * stuck, sending PFC XOFF for {@code priority} to its switch and refreshing it every half pause (a pause
     * storm), then XON.
     */
    public void schedulePauseStorm(long startPs, long endPs, int priority) {
        stormEndPs = endPs;
        stormPriority = priority;
        sim.schedule(startPs, handlerId, STORM, 0L);
    }

    private void onStorm(long nowPs) {
        boolean on = nowPs < stormEndPs;
        Packet frame = pool.acquire().initPfc(nowPs, stormPriority, on ? 0xFFFF : 0, frames.pfcFrameBytes());
        counters[NicCounter.TX_PAUSE.ordinal()]++;
        macControl.add(frame);
        kick(nowPs);
        if (on) {
            long half = rocelab.fabric.flowcontrol.Headroom.pauseDurationPs(0xFFFF, lineRateBps) / 2;
            sim.schedule(Math.min(nowPs + half, stormEndPs), handlerId, STORM, 0L);
        }
    }

    /**
     * The next control frame of a priority that may send, highest priority first; MAC control frames and
     * InfiniBand flow-control packets first.
     */
    private Packet nextControl(long nowPs) {
        if (!macControl.isEmpty()) {
            return macControl.poll();
        }
        if (creditReturn != null && creditReturn.hasUpdate()) {
            return creditReturn.nextUpdate(nowPs);
        }
        for (int prio = 7; prio >= 0; prio--) {
            if (!control[prio].isEmpty() && !pause.isPaused(prio)
                    && (credits == null || credits.admit(nowPs, prio, control[prio].peek().frameBytes()))) {
                Packet p = control[prio].poll();
                if (credits != null) {
                    credits.consume(prio, p.frameBytes());
                }
                return p;
            }
        }
        return null;
    }

    private boolean controlReady() {
        if (!macControl.isEmpty() || creditReturn != null && creditReturn.hasUpdate()) {
            return true;
        }
        for (int prio = 7; prio >= 0; prio--) {
            if (!control[prio].isEmpty() && !pause.isPaused(prio)
                    && (credits == null || credits.canSend(prio, control[prio].peek().frameBytes()))) {
                return true;
            }
        }
        return false;
    }

    private void startNext(long nowPs) {
        Packet p = nextControl(nowPs);
        if (p == null && !pause.isPaused(params.dataPriority())) {
            p = nextDataPacket(nowPs);
        }
        if (p == null) {
            if (!pause.isPaused(params.dataPriority())) {
                // While data is paused the resume kicks the transmitter; a pacer wake-up would only spin.
                armPacer();
            }
            return;
        }
        long txPs = txTimePs(p.wireBytes());
        busyUntilPs = nowPs + txPs;
        if (p.notification() != 0) {
            // A CNP or flagged ACK: its send time is when its first bit goes on the wire, as a capture shows it.
            p.notifySentPs(nowPs);
            journey.onCnpSent(nowPs, host, p);
        }
        link.transmit(nowPs, txPs, p);
        if (controlReady() || activeHead != null && !pause.isPaused(params.dataPriority())) {
            txPending = true;
            sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
        } else if (!pause.isPaused(params.dataPriority())) {
            armPacer();
        }
    }

    private Packet nextDataPacket(long nowPs) {
        while (!paced.isEmpty() && paced.minKey() <= nowPs) {
            QueuePair waiting = paced.pop();
            refreshPacing(waiting);
            if (waiting.nextSendPs <= nowPs) {
                appendActive(waiting);
            } else {
                pushPaced(waiting, nowPs);
            }
        }
        QueuePair qp = popActive();
        QueuePair firstBlocked = null;
        while (qp != null) {
            if (!qp.canSend()) {
                qp.txState = QueuePair.TxState.IDLE;
            } else if (credits == null || credits.admit(nowPs, qp.lane, qp.nextFrameBytes())) {
                break;
            } else if (qp == firstBlocked) {
                // Every active QP waits for credits on its lane: keep them in turn for when credits arrive.
                appendActive(qp);
                return null;
            } else {
                if (firstBlocked == null) {
                    firstBlocked = qp;
                }
                appendActive(qp);
            }
            qp = popActive();
        }
        if (qp == null) {
            return null;
        }
        long retransmittedBefore = counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()];
        Packet p = qp.nextPacket(nowPs, pool, params, counters);
        if (credits != null) {
            credits.consume(p.priority(), p.frameBytes());
        }
        journey.onSend(nowPs, host, p, qp.cc.rateBps(),
                counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()] != retransmittedBefore);
        counters[NicCounter.TX_DATA_PACKETS.ordinal()]++;
        counters[NicCounter.TX_DATA_BYTES.ordinal()] += p.payloadBytes();
        long wire = p.wireBytes();
        long rate = qp.cc.rateBps();
        long txEnd = nowPs + txTimePs(wire);
        qp.nextSendPs = rate >= lineRateBps ? txEnd : nowPs + Rates.serializationPs(wire, rate);
        qp.lastSendPs = nowPs;
        qp.lastWireBytes = wire;
        qp.txState = QueuePair.TxState.IDLE;
        if (qp.canSend()) {
            if (qp.nextSendPs <= txEnd) {
                appendActive(qp);
            } else {
                pushPaced(qp, nowPs);
            }
        }
        return p;
    }

    private long txTimePs(long wireBytes) {
        return psPerByte > 0 ? wireBytes * psPerByte : Rates.serializationPs(wireBytes, lineRateBps);
    }

    private void armPacer() {
        if (paced.isEmpty()) {
            return;
        }
        long t = Math.max(paced.minKey(), busyUntilPs);
        if (t != pacerAtPs) {
            pacerAtPs = t;
            sim.schedule(t, handlerId, PACER, ++pacerEpoch);
        }
    }

    private void appendActive(QueuePair qp) {
        if (qp.txState == QueuePair.TxState.IDLE) {
            qp.readyPs = sim.nowPs();
        }
        qp.txState = QueuePair.TxState.ACTIVE;
        qp.nextActive = null;
        if (activeTail == null) {
            activeHead = qp;
        } else {
            activeTail.nextActive = qp;
        }
        activeTail = qp;
    }

    private QueuePair popActive() {
        QueuePair qp = activeHead;
        if (qp != null) {
            activeHead = qp.nextActive;
            if (activeHead == null) {
                activeTail = null;
            }
            qp.nextActive = null;
        }
        return qp;
    }

    /**
     * A paced QP is looked at again at least every {@link #PACER_RECHECK_PS}: its congestion control may have raised
     * the rate in the meantime (a DCQCN increase timer), and a packet that waits out a gap computed at a 1 Mb/s
     * floor would otherwise sit for 33 ms after the rate recovered. ns-3's RDMA model moves the pending gap on
     * every rate change instead; this gets the same answer for increases, to within the recheck interval, without
     * a callback from every congestion control.
     */
    private void pushPaced(QueuePair qp, long nowPs) {
        if (qp.txState == QueuePair.TxState.IDLE) {
            qp.readyPs = nowPs;
        }
        qp.txState = QueuePair.TxState.PACED;
        paced.push(qp, Math.min(qp.nextSendPs, nowPs + PACER_RECHECK_PS));
    }

    /**
     * Brings the QP's next send time forward when its rate has risen since its last packet (the gap at the new
     * rate, counted from that packet). A cut made since then applies from the next packet on, as before.
     */
    private void refreshPacing(QueuePair qp) {
        if (qp.lastWireBytes == 0) {
            return;
        }
        long rate = qp.cc.rateBps();
        long gap = rate >= lineRateBps ? txTimePs(qp.lastWireBytes) : Rates.serializationPs(qp.lastWireBytes, rate);
        qp.nextSendPs = Math.min(qp.nextSendPs, qp.lastSendPs + gap);
    }

    // ---------------------------------------------------------------- ACK timers

    /** Arms (or re-arms) the local ACK timer of {@code qp} for {@code deadlinePs}. */
    void scheduleAckTimer(QueuePair qp, long deadlinePs) {
        ackTimers.push(qp, deadlinePs);
        if (timerAtPs < 0 || deadlinePs < timerAtPs) {
            timerAtPs = deadlinePs;
            sim.schedule(deadlinePs, handlerId, ACK_TIMER, ++timerEpoch);
        }
    }

    private void onAckTimers(long nowPs) {
        timerAtPs = -1;
        while (!ackTimers.isEmpty() && ackTimers.minKey() <= nowPs) {
            ackTimers.pop().onAckTimer(nowPs);
        }
        if (!ackTimers.isEmpty() && timerAtPs < 0) {
            timerAtPs = ackTimers.minKey();
            sim.schedule(timerAtPs, handlerId, ACK_TIMER, ++timerEpoch);
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
        int n = macControl.size() + rxQueue.size();
        for (PacketFifo f : control) {
            n += f.size();
        }
        return n;
    }

    /** Whether a pause from the switch holds {@code priority}. */
    public boolean isPaused(int priority) {
        return pause.isPaused(priority);
    }
}
