package rocelab.fabric.nic;

import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.PauseHistory;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;

/**
 * The RNIC's transmitter: it pulls one frame at a time when the port is free. MAC control frames (PFC) and
 * InfiniBand flow-control packets go first, then control frames (ACK, NAK, CNP) of priorities that may send,
 * highest first, then a data packet from the {@link QueuePairRotation}. It wakes up at the end of a transmission
 * only if another frame waits.
 */
final class Transmitter implements FrameSender {
    private final Simulator sim;
    private final int handlerId;
    private final int host;
    private final NicParameters params;
    private final LineRate line;
    private final PacketPool pool;
    private final long[] counters;
    private final PauseState pause;
    private final QueuePairRotation rotation;
    private final PacketFifo[] control = new PacketFifo[8];
    private final PacketFifo macControl = new PacketFifo();
    private JourneyProbe journey = JourneyProbe.NONE;
    private CreditProbe creditProbe = CreditProbe.NONE;
    private boolean tellCreditWaits;
    private CreditGate credits;
    private CreditReturn creditReturn;
    private Link link;
    private long busyUntilPs;
    private boolean txPending;
    /** The port (plane) this transmitter drives: 0 on a single-plane RNIC; its transmit-complete carries it. */
    private final int plane;
    private long dataPackets;
    private long dataBytes;

    Transmitter(Simulator sim, int handlerId, int host, NicParameters params, LineRate line, PacketPool pool,
            long[] counters, PauseState pause, QueuePairRotation rotation) {
        this(sim, handlerId, host, params, line, pool, counters, pause, rotation, 0);
    }

    Transmitter(Simulator sim, int handlerId, int host, NicParameters params, LineRate line, PacketPool pool,
            long[] counters, PauseState pause, QueuePairRotation rotation, int plane) {
        this.plane = plane;
        this.sim = sim;
        this.handlerId = handlerId;
        this.host = host;
        this.params = params;
        this.line = line;
        this.pool = pool;
        this.counters = counters;
        this.pause = pause;
        this.rotation = rotation;
        for (int i = 0; i < control.length; i++) {
            control[i] = new PacketFifo();
        }
    }

    void connect(Link outgoingLink) {
        this.link = outgoingLink;
    }

    void credits(CreditGate gate, CreditReturn returns) {
        this.credits = gate;
        this.creditReturn = returns;
        creditWaits();
    }

    void journeyProbe(JourneyProbe probe) {
        this.journey = probe;
    }

    void creditProbe(CreditProbe probe) {
        this.creditProbe = probe;
        creditWaits();
    }

    /**
     * InfiniBand with a credit probe attached: the QPs and the flows' last ACKs note the lane's credit-stall clock as
     * they become ready, so each reports its wait for credits when it is sent; nothing otherwise.
     */
    private void creditWaits() {
        tellCreditWaits = credits != null && creditProbe != CreditProbe.NONE;
        rotation.creditClock(tellCreditWaits ? credits : null);
    }

    /** Queues an ACK, NAK or CNP on its priority and sends it as soon as the port and its priority allow. */
    @Override
    public void sendControl(long nowPs, Packet frame) {
        if (tellCreditWaits) {
            frame.creditClockPs(credits.stallPs(frame.priority(), nowPs));
        } else {
            frame.pausedClockPs(pause.pausedPs(frame.priority(), nowPs));
        }
        control[frame.priority()].add(frame);
        kick(nowPs);
    }

    /**
     * A pause of {@code priority} just ended, its paused-time clock now at {@code clockPs}: each ACK of a message's
     * last packet held in that priority's control queue meanwhile waited behind it, for its flow's account. Pauses are
     * rare and the queue short, so walking it here is cheap.
     */
    void reportPausedControlWaits(PfcProbe probe, PauseHistory history, long nowPs, int port, int priority,
            long clockPs) {
        for (Packet p = control[priority].peek(); p != null; p = control[priority].after(p)) {
            if (p.cookie() >= 0 && p.pausedClockPs() < clockPs) {
                history.report(probe, nowPs, host, port, priority, p.queuePair(), p.cookie(), true, p.pausedClockPs(),
                        clockPs);
            }
        }
    }

    /**
     * InfiniBand, the run's end: the QPs with data ready and the flows' last ACKs held in the control queues have
     * waited for credits so far, as their start would tell ({@link #settleCreditWait}).
     */
    void settleCreditWaits(long nowPs) {
        if (!tellCreditWaits) {
            return;
        }
        for (int vl = 0; vl < control.length; vl++) {
            for (Packet p = control[vl].peek(); p != null; p = control[vl].after(p)) {
                if (p.cookie() >= 0) {
                    p.creditClockPs(settleCreditWait(nowPs, vl, p.queuePair(), p.cookie(), p.psn(), true,
                            p.creditClockPs()));
                }
            }
        }
        for (QueuePair qp = rotation.activeHead(); qp != null; qp = qp.nextActive) {
            if (qp.canSend()) {
                qp.creditClockPs = settleCreditWait(nowPs, qp.lane, qp.id, qp.cookieOf(qp.sndNxt()), qp.sndNxt(),
                        false, qp.creditClockPs);
            }
        }
    }

    /**
     * A wait for credits on lane {@code vl} still open at the run's end, ready since the lane's clock read
     * {@code fromClockPs}: as a start now would tell it, each part through a stall that ended behind that stall's root,
     * the part in the stall still in force behind no root named (the update that would end it carries it). Returns the
     * clock now.
     */
    private long settleCreditWait(long nowPs, int vl, int queuePair, long cookie, long psn, boolean ack,
            long fromClockPs) {
        long clock = credits.stallPs(vl, nowPs);
        if (clock > fromClockPs) {
            credits.tellWait(creditProbe, nowPs, host, plane, vl, queuePair, cookie, psn, ack, fromClockPs, clock);
        }
        return Math.max(clock, fromClockPs);
    }

    /** The paused clock of {@code priority} when its oldest held control frame was queued (MAX_VALUE: none held). */
    long oldestControlClockPs(int priority) {
        Packet p = control[priority].peek();
        return p == null ? Long.MAX_VALUE : p.pausedClockPs();
    }

    /** Queues a MAC control frame (PFC), which goes ahead of everything and is never paused. */
    @Override
    public void sendMacControl(long nowPs, Packet frame) {
        macControl.add(frame);
        kick(nowPs);
    }

    /** Something may be ready to send: send now if the port is free, else wake up when it frees. */
    void kick(long nowPs) {
        if (txPending) {
            return;
        }
        if (nowPs >= busyUntilPs) {
            startNext(nowPs);
        } else {
            txPending = true;
            sim.schedule(busyUntilPs, handlerId, NicEvent.TX_COMPLETE, plane);
        }
    }

    void onTransmitted(long nowPs) {
        txPending = false;
        startNext(nowPs);
    }

    void onPacer(long nowPs, long arg) {
        if (rotation.onPacer(arg)) {
            kick(nowPs);
        }
    }

    /** When the frame on the wire ends (the port is free from then). */
    long busyUntilPs() {
        return busyUntilPs;
    }

    /** Whether the port is free now and no transmit-complete is pending. */
    boolean idle(long nowPs) {
        return !txPending && nowPs >= busyUntilPs;
    }

    /** Frames lost on this port's link while it was down. */
    long linkLost() {
        return link == null ? 0 : link.lost();
    }

    /** Data packets and payload bytes this port sent. */
    long dataPackets() {
        return dataPackets;
    }

    long dataBytes() {
        return dataBytes;
    }

    /** Control frames waiting (a frame being sent is already owned by the link). */
    int packetsHeld() {
        int n = macControl.size();
        for (PacketFifo f : control) {
            n += f.size();
        }
        return n;
    }

    private void startNext(long nowPs) {
        Packet p = nextControl(nowPs);
        if (p == null && !pause.isPaused(params.dataPriority())) {
            p = nextDataPacket(nowPs);
        }
        if (p == null) {
            if (!pause.isPaused(params.dataPriority())) {
                // While data is paused the resume kicks the transmitter; a pacer wake-up would only spin.
                rotation.armPacer(busyUntilPs);
            }
            return;
        }
        long txPs = line.wirePs(p.wireBytes());
        busyUntilPs = nowPs + txPs;
        if (p.notification() != 0) {
            // A CNP or flagged ACK: its send time is when its first bit goes on the wire, as a capture shows it.
            p.notifySentPs(nowPs);
            journey.onCnpSent(nowPs, host, p);
        }
        link.transmit(nowPs, txPs, p);
        if (controlReady() || rotation.hasActive() && !pause.isPaused(params.dataPriority())) {
            txPending = true;
            sim.schedule(busyUntilPs, handlerId, NicEvent.TX_COMPLETE, plane);
        } else if (!pause.isPaused(params.dataPriority())) {
            rotation.armPacer(busyUntilPs);
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
                    if (tellCreditWaits && p.cookie() >= 0) {
                        tellCreditWait(nowPs, prio, p.queuePair(), p.cookie(), p.psn(), true, p.creditClockPs());
                    }
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

    /**
     * A packet of lane {@code vl} starts now, ready since the lane's credit-stall clock read {@code fromClockPs}; if the
     * lane waited for credits from the switch meanwhile, that is its wait, each part behind the root of the stall it was
     * in ({@link CreditGate#tellWait}).
     */
    private void tellCreditWait(long nowPs, int vl, int queuePair, long cookie, long psn, boolean ack,
            long fromClockPs) {
        long clock = credits.stallPs(vl, nowPs);
        if (clock > fromClockPs) {
            credits.tellWait(creditProbe, nowPs, host, plane, vl, queuePair, cookie, psn, ack, fromClockPs, clock);
        }
    }

    private Packet nextDataPacket(long nowPs) {
        QueuePair qp = rotation.next(nowPs, credits, plane);
        if (qp == null) {
            return null;
        }
        long retransmittedBefore = counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()];
        Packet p = qp.nextPacket(nowPs, pool, params, counters);
        if (credits != null) {
            if (tellCreditWaits) {
                tellCreditWait(nowPs, p.priority(), qp.id, p.cookie(), p.psn(), false, qp.creditClockPs);
            }
            credits.consume(p.priority(), p.frameBytes());
        }
        journey.onSend(nowPs, host, p, qp.cc.rateBps(),
                counters[NicCounter.RETRANSMITTED_PACKETS.ordinal()] != retransmittedBefore);
        counters[NicCounter.TX_DATA_PACKETS.ordinal()]++;
        counters[NicCounter.TX_DATA_BYTES.ordinal()] += p.payloadBytes();
        dataPackets++;
        dataBytes += p.payloadBytes();
        long wire = p.wireBytes();
        rotation.sent(qp, nowPs, wire, nowPs + line.wirePs(wire));
        return p;
    }
}
