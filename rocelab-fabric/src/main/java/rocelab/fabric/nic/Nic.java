package rocelab.fabric.nic;

import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.topology.PlaneSelection;

/**
 * An RDMA NIC (RNIC) with one Ethernet (or InfiniBand) port, or on a multi-plane fabric one port per plane (see
 * {@link PlaneRouting}; each port its own transmitter, PFC state and pause reaction). It hands what arrives to its queue pairs and its
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
    private final PacketPool pool;
    private final QueuePairTable queuePairs;
    /** The partition this RNIC runs in: the bits it marks in {@link #queuePairs} are that partition's. */
    private final int partition;
    private final AckFeedback feedback = new AckFeedback();
    private final long[] counters = new long[NicCounter.COUNT];
    private final QueuePairRotation rotation;
    private final Transmitter transmitter;
    private final ReceivePipeline receive;
    private final PauseReaction pauseReaction;
    /**
     * A multi-plane RNIC's ports, one per plane (index 0 is {@link #transmitter}, ...): each its own
     * transmitter, PFC state and pause reaction; per-QP, each its own rotation, spraying one rotation shared.
     */
    private final int planes;
    private final long portRateBps;
    private final Transmitter[] ports;
    private final PauseState[] pauses;
    private final PauseReaction[] pauseReactions;
    private final QueuePairRotation[] rotations;
    private final PlanePorts planePorts;
    private final PlaneRouting planeRouting;
    private final boolean spraying;
    /** Where ACKs, NAKs, CNPs and the RNIC's own PFC frames go: the one port, or {@link #planePorts}. */
    private final FrameSender sender;
    private final PauseStorm storm;
    private final NotificationPoint notificationPoint;
    private final AckTimers ackTimers;
    private JourneyProbe journey = JourneyProbe.NONE;
    private RetryExhaustionListener retryExhaustion = RetryExhaustionListener.NONE;
    private CreditGate credits;
    private CreditReturn creditReturn;
    private long managementReceived;

    public Nic(Simulator sim, int host, long lineRateBps, NicParameters params, FrameFormat frames, PacketPool pool,
            QueuePairTable queuePairs, NotificationPointParameters notification) {
        this(sim, host, lineRateBps, params, frames, pool, queuePairs, notification, null);
    }

    /**
     * An RNIC with one port per plane of {@code routing} (null: one port), each at {@code lineRateBps / planes}: its
     * line rate is the sum of its ports.
     */
    public Nic(Simulator sim, int host, long lineRateBps, NicParameters params, FrameFormat frames, PacketPool pool,
            QueuePairTable queuePairs, NotificationPointParameters notification, PlaneRouting routing) {
        this.host = host;
        this.lineRateBps = lineRateBps;
        this.params = params;
        this.pool = pool;
        this.queuePairs = queuePairs;
        this.partition = sim.partition();
        int handlerId = sim.register(this);
        this.planes = routing == null ? 1 : routing.planes();
        if (lineRateBps % planes != 0) {
            throw new IllegalArgumentException("an RNIC of " + lineRateBps + " b/s does not split into " + planes
                    + " equal ports");
        }
        this.portRateBps = lineRateBps / planes;
        this.planeRouting = routing;
        this.spraying = routing != null && routing.selection() == PlaneSelection.SPRAY;
        LineRate line = new LineRate(portRateBps);
        this.ports = new Transmitter[planes];
        this.pauses = new PauseState[planes];
        this.pauseReactions = new PauseReaction[planes];
        this.rotations = new QueuePairRotation[spraying ? 1 : planes];
        if (spraying) {
            rotations[0] = new QueuePairRotation(sim, handlerId, new LineRate(lineRateBps), 0, 1, routing, host);
        } else {
            for (int p = 0; p < planes; p++) {
                rotations[p] = planes == 1 ? new QueuePairRotation(sim, handlerId, line)
                        : new QueuePairRotation(sim, handlerId, line, p, planes, null, host);
            }
        }
        for (int p = 0; p < planes; p++) {
            pauses[p] = new PauseState();
            QueuePairRotation r = rotations[spraying ? 0 : p];
            ports[p] = new Transmitter(sim, handlerId, host, params, line, pool, counters, pauses[p], r, p);
            pauseReactions[p] = new PauseReaction(sim, handlerId, host, portRateBps, params.dataPriority(), counters,
                    pauses[p], ports[p], spraying ? null : r, p, planes);
        }
        this.rotation = rotations[0];
        this.transmitter = ports[0];
        this.pauseReaction = pauseReactions[0];
        this.planePorts = planes == 1 ? null : new PlanePorts(ports, routing, queuePairs, pool, counters, host);
        FrameSender sender = planes == 1 ? transmitter : planePorts;
        this.receive = new ReceivePipeline(sim, handlerId, host, lineRateBps, frames, pool, counters, sender, this,
                params.dataPriority());
        this.storm = new PauseStorm(sim, handlerId, portRateBps, frames, pool, counters, sender);
        this.notificationPoint = new NotificationPoint(host, notification, frames, pool, counters, sender);
        this.ackTimers = new AckTimers(sim, handlerId);
        this.sender = sender;
    }

    /** Ports (planes) of this RNIC: 1 unless it is on a multi-plane fabric. */
    public int planes() {
        return planes;
    }

    /** The rate of each port: the line rate divided by the planes. */
    public long portRateBps() {
        return portRateBps;
    }

    /**
     * The rate a QP's congestion control starts from and aims at: the port's when each QP keeps to one plane, the
     * whole RNIC's when it sprays.
     */
    public long queuePairLineRateBps() {
        return spraying || planes == 1 ? lineRateBps : portRateBps;
    }

    /** Data packets and payload bytes that left by the port of {@code plane}. */
    public long portDataPackets(int plane) {
        return ports[plane].dataPackets();
    }

    public long portDataBytes(int plane) {
        return ports[plane].dataBytes();
    }

    /** Whether a pause from the switch of {@code plane} holds {@code priority} on that port. */
    public boolean isPaused(int plane, int priority) {
        return pauses[plane].isPaused(priority);
    }

    /** Time the port of {@code plane} spent paused on {@code priority} until {@code nowPs}. */
    public long pausedPs(int plane, int priority, long nowPs) {
        return pauses[plane].pausedPs(priority, nowPs);
    }

    /** The frames arriving on the port of {@code plane} (the link from that plane's leaf delivers here). */
    public PacketSink port(int plane) {
        if (planes == 1) {
            return this;
        }
        return (nowPs, p) -> receiveOn(nowPs, p, plane);
    }

    /** The outgoing link of the port of {@code plane}. */
    public void connect(int plane, Link outgoingLink) {
        ports[plane].connect(outgoingLink);
    }

    /**
     * Per-QP planes: {@code qp} moves to {@code plane} (its own no longer reaches its destination, or does again):
     * out of the old port's rotation, into the new one's. Frames already queued on the old port still leave by it.
     */
    void movePlane(long nowPs, QueuePair qp, int plane) {
        rotations[qp.plane].remove(qp);
        qp.plane = plane;
        wake(nowPs, qp);
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
        for (Transmitter t : ports) {
            t.kick(nowPs);
        }
    }

    /**
     * Sets the receive pipeline; with {@code pfc} the RNIC pauses its switch (on the data priority) when its
     * receive buffer fills, otherwise it drops what does not fit.
     */
    public void receivePipeline(ReceiveParameters params, boolean pfc) {
        receive.configure(params, pfc);
    }

    /**
     * The rate at which the receive pipeline ({@code nic.rx}) takes in frames, in bits per second of their wire bytes
     * (each frame's time is its wire bytes at this rate, after all of it has arrived); 0 when there is no limit.
     */
    public long receiveRateBps() {
        return receive.rateBps();
    }

    /**
     * PFC on the RNIC (mlnx_qos --pfc): it honours its switch's PFC frames only for the priorities in
     * {@code enabledMask}, and files received RoCE frames under {@code receivePriority} (what its trust mode makes of
     * them), the priority its own PFC frames pause.
     */
    public void priorityFlowControl(int enabledMask, int receivePriority) {
        for (PauseReaction r : pauseReactions) {
            r.enabledPriorities(enabledMask);
        }
        receive.pausePriority(receivePriority);
    }

    /** A QP of this RNIC starts to recover lost packets (a NAK, or its local ACK timeout): the journey hears it. */
    void recovering(long nowPs, int queuePair, boolean timeout, long fromPsn, long sentThroughPsn, long packets,
            long timerStartPs, long noAckSincePs, int retry, int retryLimit) {
        journey.onRecovery(nowPs, host, queuePair, timeout, fromPsn, sentThroughPsn, packets, timerStartPs,
                noAckSincePs, retry, retryLimit);
    }

    /** A QP of this RNIC ran out of retries: the listener hears it before the workload does. */
    void retriesExhausted(long nowPs, QueuePair qp, long lastTimerStartPs) {
        retryExhaustion.onRetriesExhausted(nowPs, qp, lastTimerStartPs);
    }

    /** Who hears that a QP of this RNIC ran out of retries (the network, which tells what was down then). */
    public void retryExhaustionListener(RetryExhaustionListener listener) {
        this.retryExhaustion = listener;
    }

    public void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
        notificationPoint.journeyProbe(probe);
        for (Transmitter t : ports) {
            t.journeyProbe(probe);
        }
    }

    /** InfiniBand: hears this HCA's waits for credits (its QPs' packets, its flows' last ACKs), with their roots. */
    public void creditProbe(CreditProbe probe) {
        for (Transmitter t : ports) {
            t.creditProbe(probe);
        }
    }

    /**
     * InfiniBand: from now on each credit update this HCA sends names what its receive buffer holds: packets its
     * receive path has not taken yet, so this HCA is where the congestion starts ({@link CreditRoot#RECEIVER}).
     */
    public void traceCreditRoots() {
        if (creditReturn != null) {
            long self = CreditRoot.of(CreditRoot.RECEIVER, host, 0, -1, 0);
            creditReturn.holder((port, vl) -> self, 0);
        }
    }

    /**
     * How long after a PFC frame arrives the RNIC acts on it (IEEE 802.3 Annex 31B response time, in which it still
     * starts frames); 0 until the builder sets the configured value.
     */
    public void pauseResponse(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("pause response must not be negative");
        }
        for (PauseReaction r : pauseReactions) {
            r.responseTime(ps);
        }
    }

    /** The link of port {@code plane} went down: the pauses on it are lifted ({@link PauseReaction#linkDown}). */
    public void linkDown(long nowPs, int plane) {
        pauseReactions[plane].linkDown(nowPs);
    }

    /**
     * The run ends at {@code nowPs}: pauses of this RNIC's ports still in force count as paused time so far, and the
     * waits behind them are told (see {@link rocelab.fabric.port.EgressPort#settlePauses}).
     */
    public void settlePauses(long nowPs) {
        for (PauseReaction r : pauseReactions) {
            r.settle(nowPs);
        }
        // InfiniBand: the waits for credits still open are told as well.
        for (Transmitter t : ports) {
            t.settleCreditWaits(nowPs);
        }
    }

    public void pfcProbe(PfcProbe probe) {
        receive.pfcProbe(probe);
        for (PauseReaction r : pauseReactions) {
            r.pfcProbe(probe);
        }
    }

    /**
     * Fault injection: from {@code startPs} to {@code endPs} this RNIC behaves as if its receive pipeline were
     * stuck, sending PFC XOFF for {@code priority} to its switch and refreshing it every half pause (a pause
     * storm), then XON.
     */
    public void schedulePauseStorm(long startPs, long endPs, int priority) {
        storm.schedule(startPs, endPs, priority);
    }

    /**
     * When this RNIC's injected pause storm sent its first XOFF (-1: it has none, or it has not started). The storm's
     * frames pause the switch port of every plane and are not a receive buffer's: PFC logs do not record them.
     */
    public long pauseStormStartPs() {
        return storm.firstXoffPs();
    }

    /** The priority this RNIC's pause storm pauses (meaningful when {@link #pauseStormStartPs} is set). */
    public int pauseStormPriority() {
        return storm.priority();
    }

    // ---------------------------------------------------------------- receive

    /**
     * A frame arrived on the port of {@code plane} of a multi-plane RNIC: a PFC frame pauses that port only;
     * everything else goes where a single port's would (one receive path, one set of QPs).
     */
    private void receiveOn(long nowPs, Packet p, int plane) {
        if (p.kind() == PacketKind.PFC) {
            journey.onArrive(nowPs, host, p);
            pauseReactions[plane].onPauseFrame(nowPs, p.priority(), p.pauseQuanta(), p.sentAtPs());
            pool.release(p);
            return;
        }
        receive(nowPs, p);
    }

    @Override
    public void receive(long nowPs, Packet p) {
        if (p.kind() == PacketKind.CREDIT) {
            credits.onUpdate(nowPs, p.priority(), p.creditLimit(), p.creditRoot());
            pool.release(p);
            return;
        }
        if (p.kind() == PacketKind.MANAGEMENT) {
            managementReceived++;
            pool.release(p);
            return;
        }
        if (creditReturn != null) {
            creditReturn.onReceived(nowPs, p.priority(), p.frameBytes());
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
        qp.notified(notice.markNode(), notice.markPort(), notice.markHeldByPause());
        queuePairs.changed(partition, qp.id);
        long before = qp.cc.rateBps();
        boolean reacted = qp.cc.onCnp(nowPs, notice.notification());
        NicCounter c = reacted ? NicCounter.RP_CNP_HANDLED : NicCounter.RP_CNP_IGNORED;
        counters[c.ordinal()]++;
        journey.onCnpHandled(nowPs, host, notice, reacted, before);
    }

    /** Notification point: the CE-marked data packet {@code data} of {@code qp} arrived. */
    void onCongestionExperienced(long nowPs, QueuePair qp, Packet data) {
        notificationPoint.onCongestionExperienced(nowPs, qp, data);
    }

    /** A congestion control of one of this RNIC's QPs changed its rate or window: tell the journey. */
    @Override
    public void onRateChange(long nowPs, int queuePair, long fromBps, long toBps, long windowBytes, RateCause cause,
            long value, int index) {
        queuePairs.changed(partition, queuePair);
        journey.onRateChange(nowPs, host, queuePair, fromBps, toBps, windowBytes, cause, value, index);
    }

    /** A message was posted on {@code qp} (what a sampler of the QPs looks at changed). */
    void posted(QueuePair qp) {
        queuePairs.changed(partition, qp.id);
    }

    /** This RNIC, the responder of {@code qp}, received payload of it in order (a sampler of bytes delivered looks). */
    void deliveredInOrder(QueuePair qp) {
        queuePairs.delivered(partition, qp.id);
    }

    /**
     * Queues an ACK or NAK of {@code qp} back to its requester, answering {@code data}: it echoes the data
     * packet's timestamp and telemetry, and carries the ECN echo and CNP flag the responder collected.
     */
    void sendAck(long nowPs, QueuePair qp, PacketKind kind, long psn, Packet data, boolean ecnEcho, boolean cnp) {
        Packet ack = pool.acquire()
                .initAck(data.sentAtPs(), kind, host, qp.sourceHost(), qp.id, psn, qp.ackFrameBytes())
                .qos(qp.ackLane, qp.ackDscp, Ecn.NOT_ECT)
                .entropy(qp.entropy)
                .ecnEcho(ecnEcho)
                .cnpFlag(cnp)
                // The ACK of a message's last packet names that packet's flow: the sender sees the message complete
                // only when it arrives, so if it waits behind a pause, the flow waits. Earlier ACKs delay the sender
                // only when its window is full, which is not followed; a NAK, or an ACK that answers another packet
                // than the one it acknowledges (a filled hole), is not attributed either.
                .cookie(kind == PacketKind.ACK && psn == data.psn() && Opcodes.isLast(data.opcode()) ? data.cookie()
                        : -1);
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
                    notice.pendingMarkAtPs, notice.pendingMarkHeldByPause, ++notice.notificationsSent);
        }
        sender.sendControl(nowPs, ack);
    }

    // ---------------------------------------------------------------- transmit and timers

    /** A QP may have something to send (new message, ACK, NAK or timeout): put it in the rotation. */
    void wake(long nowPs, QueuePair qp) {
        if (planes == 1) {
            rotation.wake(nowPs, qp);
            transmitter.kick(nowPs);
        } else if (spraying) {
            rotation.wake(nowPs, qp);
            planePorts.kickAll(nowPs, rotation.lastPlane());
        } else {
            rotations[qp.plane].wake(nowPs, qp);
            ports[qp.plane].kick(nowPs);
        }
    }

    /** Arms (or re-arms) the local ACK timer of {@code qp} for {@code deadlinePs}. */
    void scheduleAckTimer(QueuePair qp, long deadlinePs) {
        ackTimers.schedule(qp, deadlinePs);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        switch (kind) {
            case NicEvent.TX_COMPLETE -> ports[(int) arg].onTransmitted(nowPs);
            case NicEvent.PACER -> onPacer(nowPs, arg);
            case NicEvent.ACK_TIMER -> ackTimers.onWakeUp(nowPs, arg);
            case NicEvent.RESUME -> pauseReactions[(int) (arg % planes)].onExpiry(nowPs, arg / planes);
            case NicEvent.PAUSE_ACTS -> pauseReactions[(int) arg].onResponseTimeOver(nowPs);
            case NicEvent.STORM -> storm.onWakeUp(nowPs);
            case NicEvent.RX_DONE -> receive.onDone(nowPs);
            case NicEvent.RX_REFRESH -> receive.onRefresh(nowPs, arg);
            default -> throw new IllegalStateException("unknown RNIC event kind " + kind);
        }
    }

    /** A pacer wake-up: per-QP planes tell their rotations apart by the epoch; a sprayer offers it to every port. */
    private void onPacer(long nowPs, long arg) {
        if (planes == 1) {
            transmitter.onPacer(nowPs, arg);
        } else if (spraying) {
            if (rotation.onPacer(arg)) {
                planePorts.kickAll(nowPs, rotation.lastPlane());
            }
        } else {
            ports[(int) (arg % planes)].onPacer(nowPs, arg);
        }
    }

    // ---------------------------------------------------------------- counters and state

    void count(NicCounter counter) {
        counters[counter.ordinal()]++;
    }

    void count(NicCounter counter, long delta) {
        counters[counter.ordinal()] += delta;
    }

    /** How this RNIC, as a receiver, notifies senders of CE-marked packets (what its {@code np_cnp_sent} counts). */
    public NotificationPointParameters notificationParameters() {
        return notificationPoint.parameters();
    }

    public long counter(NicCounter counter) {
        if (counter == NicCounter.TX_LOST_LINK_DOWN) {
            long n = 0;
            for (Transmitter t : ports) {
                n += t.linkLost();
            }
            return n;
        }
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
        int n = receive.packetsHeld();
        for (Transmitter t : ports) {
            n += t.packetsHeld();
        }
        return n;
    }

    /** Whether a pause from the switch holds {@code priority} (on a multi-plane RNIC: on any port). */
    public boolean isPaused(int priority) {
        for (PauseState s : pauses) {
            if (s.isPaused(priority)) {
                return true;
            }
        }
        return false;
    }
}
