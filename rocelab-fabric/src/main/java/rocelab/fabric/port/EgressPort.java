package rocelab.fabric.port;

import java.util.Arrays;
import rocelab.engine.Prefetching;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.flowcontrol.PauseHistory;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.flowcontrol.PendingPauses;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.IngressLists;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PortCounter;

/**
 * A switch output port: one FIFO per traffic class, a scheduler between classes, ECN marking per class at
 * dequeue, and one frame on the wire at a time. It keeps at most one pending wake-up: the end of the current
 * transmission, and only while more frames wait. The port also holds the counters of its physical port (receive side included).
 */
public final class EgressPort implements Prefetching {
    private static final int TX_COMPLETE = 1;
    private static final int RESUME = 2;
    private static final int PAUSE_ACTS = 3;
    private static final int ALL_CLASSES = 0xff;

    private final Simulator sim;
    private final int handlerId;
    private final int portIndex;
    private final long rateBps;
    private final long psPerByte;
    private final PacketFifo[] queues;
    private final TransmitScheduler scheduler;
    private final EcnMarking[] marking;
    private final SharedBuffer buffer;
    private final boolean markAtEnqueue;
    private final long[] counters = new long[PortCounter.COUNT];
    private final long[] markedByClass;
    private Link link;
    private long busyUntilPs;
    private boolean wakeupPending;
    private long queuedBytes;
    private long peakQueuedBytes;
    private int backlog;
    private final PacketFifo control = new PacketFifo();
    private final long[] pausedUntilPs;
    private final long[] pauseSent;
    private final long[] pauseReceived;
    private final PauseState pause = new PauseState();
    private int ignorePauseMask;
    private long responsePs;
    private final PendingPauses pending = new PendingPauses();
    private JourneyProbe journey = JourneyProbe.NONE;
    private int ownerNode;
    private PfcProbe pfcProbe = PfcProbe.NONE;
    private final long[] lastPauseFramePs;
    /** When the peer sent the XOFF that last paused each class (it names that XOFF in the peer's PFC log). */
    private final long[] lastXoffSentPs;
    /** The XOFFs that held each class, along its paused clock (kept only while a PFC probe listens). */
    private final PauseHistory pauseHistory = new PauseHistory();
    private final long[] txByClass;
    /** Frames of each class the PFC watchdog drained from the queue (rare). */
    private final long[] drainedByClass;
    private CreditGate credits;
    private CreditReturn creditReturn;
    /**
     * InfiniBand with a credit probe attached: queued packets carry the lane's credit-stall clock, so a packet of a
     * flow that waited for credits reports it when it leaves (false otherwise: no cost).
     */
    private boolean tellCreditWaits;
    /**
     * Per class (lane), the bytes still queued of those that were queued behind the last packet that had waited for
     * credits (InfiniBand with a credit log) or behind a pause (with a PFC probe) when it left: the backlog that stall
     * or pause held back ({@link #heldBacklog}). Set when such a packet leaves, counted down as the packets behind it
     * leave.
     */
    private final long[] stallBacklogBytes;
    /**
     * InfiniBand with a credit log: per lane, its credit-stall clock when its queue last went from empty to holding a
     * packet, the start of the queue's busy period ({@link #stalledThisBusyPeriod}).
     */
    private final long[] busyStallClockPs;
    private CreditProbe creditProbe = CreditProbe.NONE;
    /** The owning switch's queues linked by ingress (null unless a PFC log asked for them: no cost otherwise). */
    private IngressLists ingressLists;
    /** Hears the waits of packets queued behind ECMP collisions ({@link #enqueueAfterCollision}). */
    private EcmpProbe ecmpProbe = EcmpProbe.NONE;
    /** Told when this port starts its last frame with nothing left to send (null: no one asks; no cost). */
    private DrainListener drainListener;

    /**
     * Hears a port start the last frame it has to send: from {@code freeAtPs} its wire is free with nothing queued,
     * unless something arrives. Called once per such frame, in the transmit path's branch that schedules no wake-up.
     */
    public interface DrainListener {
        void onDrained(long nowPs, int port, long freeAtPs);
    }

    public EgressPort(Simulator sim, int portIndex, long rateBps, int classes, TransmitScheduler scheduler,
            EcnMarking[] marking, boolean markAtEnqueue, SharedBuffer buffer) {
        this.sim = sim;
        this.portIndex = portIndex;
        this.rateBps = rateBps;
        this.psPerByte = Rates.exactPsPerByte(rateBps);
        this.queues = new PacketFifo[classes];
        this.stallBacklogBytes = new long[classes];
        this.busyStallClockPs = new long[classes];
        this.markedByClass = new long[classes];
        this.pausedUntilPs = new long[classes];
        this.pauseSent = new long[classes];
        this.pauseReceived = new long[classes];
        this.lastPauseFramePs = new long[classes];
        this.lastXoffSentPs = new long[classes];
        Arrays.fill(lastXoffSentPs, -1);
        this.txByClass = new long[classes];
        this.drainedByClass = new long[classes];
        for (int i = 0; i < classes; i++) {
            queues[i] = new PacketFifo();
        }
        this.scheduler = scheduler;
        this.marking = marking.clone();
        this.buffer = buffer;
        this.markAtEnqueue = markAtEnqueue;
        this.handlerId = sim.register(this);
    }

    public void connect(Link outgoingLink) {
        this.link = outgoingLink;
    }

    /**
     * InfiniBand: packets of a lane (traffic class) start only when {@code gate} holds credits for them, and this
     * port sends the flow-control packets of {@code returns} (its receive side) ahead of data.
     */
    public void credits(CreditGate gate,
            CreditReturn returns) {
        this.credits = gate;
        this.creditReturn = returns;
        this.tellCreditWaits = credits != null && creditProbe != CreditProbe.NONE;
    }

    /** The sending side of this port's credit flow control (null unless InfiniBand). */
    public CreditGate creditGate() {
        return credits;
    }

    /** The receiving side of this port's credit flow control (null unless InfiniBand). */
    public CreditReturn creditReturn() {
        return creditReturn;
    }

    /** Credits arrived or an update became due: start sending if the wire is free. */
    public void wakeTransmitter(long nowPs) {
        kick(nowPs);
    }

    /** Queues an admitted packet in its class ({@code packet.priority()} holds the traffic class here). */
    public void enqueue(long nowPs, Packet packet) {
        add(nowPs, packet, false);
    }

    /**
     * As {@link #enqueue}, for a packet the switch found queued behind an ECMP collision ({@link
     * EcmpProbe}): when it leaves, its wait here (less the time its class was held) goes to the
     * ECMP probe. It carries the mark in its held-clock field ({@link Packet#collisionClockPs}) and its arrival time in
     * {@code dueAtPs} (which the link that brought it set to now), so the port keeps nothing per packet.
     */
    public void enqueueAfterCollision(long nowPs, Packet packet) {
        packet.dueAtPs(nowPs);
        add(nowPs, packet, true);
    }

    private void add(long nowPs, Packet packet, boolean collided) {
        int tc = packet.priority();
        if (markAtEnqueue) {
            mark(nowPs, tc, queues[tc].bytes(), packet);
        }
        long clock;
        if (tellCreditWaits) {
            clock = credits.stallPs(tc, nowPs);
            if (queues[tc].isEmpty()) {
                busyStallClockPs[tc] = clock;
            }
        } else {
            clock = pause.pausedPs(tc, nowPs);
        }
        if (collided) {
            packet.collisionClockPs(clock);
        } else {
            packet.pausedClockPs(clock);
        }
        queues[tc].add(packet);
        backlog |= 1 << tc;
        queuedBytes += packet.frameBytes();
        if (queuedBytes > peakQueuedBytes) {
            peakQueuedBytes = queuedBytes;
        }
        kick(nowPs);
    }

    /** Something may be sendable: start now if the wire is free, else wake up when it frees. */
    private void kick(long nowPs) {
        if (!wakeupPending) {
            if (nowPs >= busyUntilPs) {
                startNext(nowPs);
            } else {
                wakeupPending = true;
                sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
            }
        }
    }

    /**
     * Sends a MAC control frame (PFC) out of this port: it goes next, ahead of every queue, is never paused, and
     * does not use the shared buffer.
     */
    public void sendControl(long nowPs, Packet frame) {
        control.add(frame);
        if (frame.kind() == PacketKind.PFC) {
            counters[PortCounter.PAUSE_SENT.ordinal()]++;
            pauseSent[frame.priority()]++;
        }
        kick(nowPs);
    }

    /**
     * How long after a PFC frame arrives this port acts on it (IEEE 802.3 Annex 31B allows a transmitter a response
     * time, in which it still starts frames); 0 by default, the builder sets the port's configured value.
     */
    public void pauseResponse(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("pause response must not be negative");
        }
        this.responsePs = ps;
    }

    /**
     * A PFC frame arrived on this port from the peer: after the response time, stop starting frames of
     * {@code priority} for {@code quanta} x 512 bit times (a frame already on the wire finishes), or resume when
     * quanta is 0 (XON). Every frame acts after the same delay, so they act in the order they arrived; the one
     * wake-up per PFC frame is rare next to the data.
     */
    public void onPauseFrame(long nowPs, int priority, int quanta) {
        onPauseFrame(nowPs, priority, quanta, -1);
    }

    /** As {@link #onPauseFrame(long, int, int)}, for the frame the peer sent at {@code sentPs}. */
    public void onPauseFrame(long nowPs, int priority, int quanta, long sentPs) {
        counters[PortCounter.PAUSE_RECEIVED.ordinal()]++;
        pauseReceived[priority]++;
        lastPauseFramePs[priority] = nowPs;
        if ((ignorePauseMask & (1 << priority)) != 0) {
            return;
        }
        if (responsePs > 0) {
            pending.add(priority, quanta, sentPs);
            sim.schedule(nowPs + responsePs, handlerId, PAUSE_ACTS, 0L);
            return;
        }
        actOnPause(nowPs, priority, quanta, sentPs);
    }

    private void actOnPause(long nowPs, int priority, int quanta, long sentPs) {
        if ((ignorePauseMask & (1 << priority)) != 0) {
            return;
        }
        if (quanta == 0) {
            resume(nowPs, priority);
            return;
        }
        lastXoffSentPs[priority] = sentPs;
        if (pfcProbe != PfcProbe.NONE) {
            // Which XOFF holds the class from here on its paused clock: a packet that waits through several pauses
            // tells each part to the XOFF that held it. Only the oldest queued packet's wait reaches further back.
            Packet head = queues[priority].peek();
            long clock = pause.pausedPs(priority, nowPs);
            pauseHistory.xoff(priority, clock, sentPs, head == null ? clock : head.enteredClockPs());
        }
        long until = nowPs + Headroom.pauseDurationPs(quanta, rateBps);
        pausedUntilPs[priority] = until;
        sim.schedule(until, handlerId, RESUME, pause.pause(nowPs, priority));
        if (pfcProbe != PfcProbe.NONE) {
            pfcProbe.onPauseInForce(nowPs, ownerNode, portIndex, priority, sentPs, pause.pausedPs(priority, nowPs));
        }
    }

    private void resume(long nowPs, int priority) {
        long lasted = pause.resume(nowPs, priority);
        if (lasted >= 0) {
            if (pfcProbe != PfcProbe.NONE) {
                pfcProbe.onPauseInForce(nowPs, ownerNode, portIndex, priority, -1, pause.pausedPs(priority, nowPs));
            }
            counters[PortCounter.PAUSED_PS.ordinal()] += lasted;
            kick(nowPs);
        }
    }

    /**
     * The run ends at {@code nowPs}: a pause still in force counts as paused time so far ({@code rx_pause_duration}),
     * and every packet still queued that waited behind pauses (one in force, or one that ended while it stayed
     * queued) tells its wait now, as it would have when it left: a run that ends paused (a PFC deadlock, a pause storm,
     * a stop time) reports the waits it ended in. Nothing is sent; the port stays paused.
     */
    public void settlePauses(long nowPs) {
        for (int priority = 0; priority < 8; priority++) {
            long lasted = pause.settle(nowPs, priority);
            if (lasted > 0) {
                counters[PortCounter.PAUSED_PS.ordinal()] += lasted;
            }
        }
        boolean pauses = !tellCreditWaits && pfcProbe != PfcProbe.NONE;
        boolean collisions = ecmpProbe != EcmpProbe.NONE;
        if (tellCreditWaits) {
            settleCreditWaits(nowPs, collisions);
            return;
        }
        if (!pauses && !collisions) {
            return;
        }
        for (int tc = 0; tc < queues.length; tc++) {
            long clock = heldClock(tc, nowPs);
            for (Packet p = queues[tc].peek(); p != null; p = queues[tc].after(p)) {
                long entered = p.enteredClockPs();
                boolean collided = p.ecmpCollision();
                if (collided && collisions) {
                    settleCollisionWait(nowPs, tc, p, entered, clock);
                }
                if (pauses && clock != entered && p.cookie() >= 0) {
                    pauseHistory.report(pfcProbe, nowPs, ownerNode, portIndex, tc, p.queuePair(), p.cookie(),
                            p.kind() != PacketKind.DATA, entered, clock);
                    if (collided) {
                        p.collisionClockPs(clock);
                        p.dueAtPs(nowPs);
                    } else {
                        p.pausedClockPs(clock);
                    }
                }
            }
        }
    }

    /** The clock of time class {@code tc} was held here: paused by PFC, or on InfiniBand waiting for credits. */
    private long heldClock(int tc, long nowPs) {
        return tellCreditWaits ? credits.stallPs(tc, nowPs) : pause.pausedPs(tc, nowPs);
    }

    @Override
    public void prefetch(int kind, long arg) {
        if (kind == TX_COMPLETE) {
            // The frames a dequeue may take: the head of each class with frames.
            long t = 0;
            for (int b = backlog & ALL_CLASSES; b != 0; b &= b - 1) {
                Packet head = queues[Integer.numberOfTrailingZeros(b)].peek();
                if (head != null) {
                    t += head.touch();
                }
            }
            touched = t;
        }
    }

    /** What {@link #prefetch} read, kept so that its loads are not optimised away. */
    private long touched;

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (kind == TX_COMPLETE) {
            // The previous frame's last bit is out: start the next one.
            wakeupPending = false;
            startNext(nowPs);
        } else if (kind == PAUSE_ACTS) {
            int priority = pending.priority();
            int quanta = pending.quanta();
            long sent = pending.sentPs();
            pending.poll();
            if (sent < 0 || sent >= linkDownAtPs) { // a frame from before the link went down acts no more
                actOnPause(nowPs, priority, quanta, sent);
            }
        } else {
            if (pause.isCurrent(arg)) {
                resume(nowPs, (int) (arg & 7));
            }
        }
    }

    /**
     * Dequeues the next frame, marks it if its class's marking says so, and puts it on the link. The frame leaves
     * the shared buffer when it is dequeued (as the ns-3 RDMA switch MMU accounts it); the port wakes up again at
     * the end of the transmission only if more frames wait.
     */
    private void startNext(long nowPs) {
        if (!control.isEmpty()) {
            Packet frame = control.poll();
            counters[PortCounter.TX_PACKETS.ordinal()]++;
            counters[PortCounter.TX_BYTES.ordinal()] += frame.frameBytes();
            transmit(nowPs, frame);
            return;
        }
        if (creditReturn != null && creditReturn.hasUpdate()) {
            Packet update = creditReturn.nextUpdate(nowPs);
            counters[PortCounter.TX_PACKETS.ordinal()]++;
            counters[PortCounter.TX_BYTES.ordinal()] += update.frameBytes();
            transmit(nowPs, update);
            return;
        }
        int ready = backlog & ALL_CLASSES & ~pause.mask();
        if (credits != null && ready != 0) {
            ready = credits.sendable(nowPs, queues, ready);
        }
        if (ready == 0) {
            return;
        }
        int tc = scheduler.nextClass(queues, ready);
        PacketFifo q = queues[tc];
        long depth = q.bytes();
        Packet p = q.poll();
        if (ingressLists != null) {
            ingressLists.remove(portIndex, tc, p);
        }
        if (q.isEmpty()) {
            backlog &= ~(1 << tc);
        }
        if (!markAtEnqueue) {
            mark(nowPs, tc, depth - p.frameBytes(), p);
        }
        if (tellCreditWaits) {
            // The packets behind one that waited for credits are what its stall held back; each that leaves is one
            // fewer (FIFO: they leave before anything queued after).
            stallBacklogBytes[tc] = credits.lostTimeToCredits(tc) ? q.bytes()
                    : Math.max(0, stallBacklogBytes[tc] - p.frameBytes());
            if (p.cookie() >= 0) {
                tellCreditWait(nowPs, tc, p);
            }
        } else {
            long clock = pause.pausedPs(tc, nowPs);
            long entered = p.pausedClockPs();
            if (pfcProbe != PfcProbe.NONE) {
                // The packets behind one that waited here behind a pause are what the pause held back, as for
                // credits above (a collision's mark is the flipped clock).
                stallBacklogBytes[tc] = clock != (entered < 0 ? ~entered : entered) ? q.bytes()
                        : Math.max(0, stallBacklogBytes[tc] - p.frameBytes());
            }
            if (clock != entered && p.cookie() >= 0) {
                if (entered < 0) {
                    // Queued behind an ECMP collision (the mark is the flipped clock: no other packet pays for it).
                    entered = ~entered;
                    tellCollisionWait(nowPs, tc, p, entered, clock);
                }
                if (clock != entered) {
                    // The packet (a flow's data, or the last ACK its sender waits for) sat here while the class was
                    // paused: a wait behind the pause, for the flow's account, each part told to the XOFF that held it.
                    pauseHistory.report(pfcProbe, nowPs, ownerNode, portIndex, tc, p.queuePair(), p.cookie(),
                            p.kind() != PacketKind.DATA, entered, clock);
                    // If this port marked it, the notification that answers the mark says the pause held it here.
                    p.heldByPauseAt(ownerNode, portIndex);
                }
            }
        }
        int bytes = p.frameBytes();
        if (credits != null) {
            credits.consume(tc, bytes);
        }
        txByClass[tc]++;
        queuedBytes -= bytes;
        buffer.release(nowPs, p.ingressPort(), portIndex, tc, bytes);
        counters[PortCounter.TX_PACKETS.ordinal()]++;
        counters[PortCounter.TX_BYTES.ordinal()] += bytes;
        if (p.kind() == PacketKind.DATA) {
            counters[PortCounter.TX_DATA_PACKETS.ordinal()]++;
        }
        if (p.telemetryRequested()) {
            p.stampTelemetry(nowPs, counters[PortCounter.TX_BYTES.ordinal()], queuedBytes, rateBps);
        }
        transmit(nowPs, p);
    }

    /**
     * {@code p} (a flow's data, or the last ACK its sender waits for) leaves lane {@code vl} now; if the lane waited for
     * credits from the next hop while it was queued, that is its wait, each part behind the root of the stall it was in
     * ({@link CreditGate#tellWait}).
     */
    private void tellCreditWait(long nowPs, int vl, Packet p) {
        long clock = credits.stallPs(vl, nowPs);
        long entered = p.creditClockPs();
        if (clock > entered) {
            if (entered < 0) {
                // Queued behind an ECMP collision (the flipped clock, as at a PFC port).
                entered = ~entered;
                tellCollisionWait(nowPs, vl, p, entered, clock);
                if (clock <= entered) {
                    return;
                }
            }
            credits.tellWait(creditProbe, nowPs, ownerNode, portIndex, vl, p.queuePair(), p.cookie(), p.psn(),
                    p.kind() != PacketKind.DATA, entered, clock);
        }
    }

    /**
     * InfiniBand, the run's end: the packets (a flow's data, or the last ACK its sender waits for) still queued in a lane
     * that waited for credits since they were queued have waited so far, as their departure would tell: the part
     * through each stall that ended behind that stall's root, the part in the stall still in force behind no root named
     * ({@link CreditRoot#NONE}: the update that would end it carries it; {@link CreditGate#tellWait}).
     */
    private void settleCreditWaits(long nowPs, boolean collisions) {
        for (int vl = 0; vl < queues.length; vl++) {
            long clock = credits.stallPs(vl, nowPs);
            for (Packet p = queues[vl].peek(); p != null; p = queues[vl].after(p)) {
                // The clock as it entered (a packet queued behind an ECMP collision carries it flipped).
                long entered = p.enteredClockPs();
                boolean collided = p.ecmpCollision();
                if (collided && collisions) {
                    settleCollisionWait(nowPs, vl, p, entered, clock);
                }
                if (p.cookie() < 0 || clock <= entered) {
                    continue;
                }
                boolean ack = p.kind() != PacketKind.DATA;
                credits.tellWait(creditProbe, nowPs, ownerNode, portIndex, vl, p.queuePair(), p.cookie(), p.psn(), ack,
                        entered, clock);
                if (collided) {
                    p.collisionClockPs(clock);
                    p.dueAtPs(nowPs);
                } else {
                    p.creditClockPs(clock);
                }
            }
        }
    }

    /**
     * The run's end: {@code p}, queued behind an ECMP collision, tells its wait there so far, less the time its class
     * was held (a pause's or a credit stall's, told on their own), and counts on from now: nothing is told twice.
     */
    private void settleCollisionWait(long nowPs, int tc, Packet p, long entered, long clock) {
        ecmpProbe.onCollisionWait(nowPs, ownerNode, portIndex, tc, p, p.dueAtPs() - entered, nowPs - clock);
        p.dueAtPs(nowPs - (clock - entered));
    }

    /**
     * {@code p}, queued behind an ECMP collision, leaves: its wait here from its arrival ({@code dueAtPs}) to now, on
     * the clock of time its class was not held ({@code entered} and {@code clock}: the held clock then and now).
     */
    private void tellCollisionWait(long nowPs, int tc, Packet p, long entered, long clock) {
        ecmpProbe.onCollisionWait(nowPs, ownerNode, portIndex, tc, p, p.dueAtPs() - entered, nowPs - clock);
    }

    /** The time {@code wireBytes} take on this port's wire. */
    private long txPs(long wireBytes) {
        return psPerByte > 0 ? wireBytes * psPerByte : Rates.serializationPs(wireBytes, rateBps);
    }

    private void transmit(long nowPs, Packet p) {
        long txPs = txPs(p.wireBytes());
        busyUntilPs = nowPs + txPs;
        wireFrameBytes = p.frameBytes();
        wireFrameStartPs = nowPs;
        link.transmit(nowPs, txPs, p);
        if ((backlog & ~pause.mask()) != 0 || !control.isEmpty() || creditReturn != null && creditReturn.hasUpdate()) {
            wakeupPending = true;
            sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
        } else if (drainListener != null) {
            drainListener.onDrained(nowPs, portIndex, busyUntilPs);
        }
    }

    /** Tells {@code listener} when this port starts the last frame it has (null: no one; nothing is done). */
    public void drainListener(DrainListener listener) {
        this.drainListener = listener;
    }

    /** When this port's wire is (or was last) free: the end of its current or last frame. */
    public long freeAtPs() {
        return busyUntilPs;
    }

    /**
     * Frames of class {@code tc} that have left its queue (sent, or drained by the PFC watchdog): the queue's k-th
     * packet from its head was the (this + k)-th to join it, counting from 0, so a packet's place in the order of
     * arrival is known without a field of its own.
     */
    public long dequeued(int tc) {
        return txByClass[tc] + drainedByClass[tc];
    }

    /** Packets queued in class {@code tc}. */
    public int queuedPackets(int tc) {
        return queues[tc].size();
    }

    /** The time {@code wireBytes} (a frame with its framing) take on this port's wire. */
    public long wireTimePs(int wireBytes) {
        return txPs(wireBytes);
    }

    /**
     * {@code p}, queued here in class {@code tc}, waits behind an ECMP collision from now on (the switch found an
     * equal-cost port idle while it was queued, {@link EcmpProbe}). Its held clock keeps the value it entered with,
     * now carrying the collision's mark, so its waits behind pauses (or for credits) are told as before when it leaves;
     * {@code dueAtPs} is set back by the time its class was held since it entered, so that its collision wait, told
     * from {@code dueAtPs} less that clock, starts now on the clock of time not held.
     */
    public void collideFromNow(long nowPs, int tc, Packet p) {
        long entered = p.enteredClockPs();
        p.collisionClockPs(entered);
        p.dueAtPs(nowPs - (heldClock(tc, nowPs) - entered));
    }

    /** The frame on the wire (or the last one): its bytes as {@link PortCounter#TX_BYTES} counts them, its start. */
    private long wireFrameBytes;
    private long wireFrameStartPs;

    /**
     * The bytes this port has put on its link by {@code nowPs}: {@link PortCounter#TX_BYTES} (counted as a frame
     * starts) less the part of the frame on the wire still to go, so that bytes over any interval never exceed the
     * line rate's (a 25 Gb/s port sampled every microsecond showed 167 %: a whole frame counted in the interval it
     * began).
     */
    public long txBytesBy(long nowPs) {
        long tx = counters[PortCounter.TX_BYTES.ordinal()];
        if (nowPs < busyUntilPs && busyUntilPs > wireFrameStartPs) {
            // In double: a frame's bytes times its picoseconds overflow a long on a slow enough link.
            tx -= (long) Math.ceil((double) wireFrameBytes * (busyUntilPs - nowPs) / (busyUntilPs - wireFrameStartPs));
        }
        return tx;
    }

    /** When this port's link last went down (-1: never): pause frames its peer sent before then act no more. */
    private long linkDownAtPs = -1;

    /**
     * The port's link went down: the pauses its peer put on it are lifted, as a MAC that loses its link forgets them
     * (a pause frame sent on a down link never arrives, so none could ever lift them), and its queues drain onto the
     * dead link, their frames lost there, instead of waiting out the pause.
     */
    public void linkDown(long nowPs) {
        linkDownAtPs = nowPs;
        for (int priority = 0; priority < 8; priority++) {
            resume(nowPs, priority);
        }
    }

    /**
     * PFC watchdog: ignore (or again honour) pause frames for {@code priority}; ignoring lifts a pause in force.
     */
    public void ignorePause(long nowPs, int priority, boolean ignore) {
        if (ignore) {
            ignorePauseMask |= 1 << priority;
            resume(nowPs, priority);
        } else {
            ignorePauseMask &= ~(1 << priority);
        }
    }

    /** When the last PFC frame for {@code priority} arrived (0 if none). */
    public long lastPauseFramePs(int priority) {
        return lastPauseFramePs[priority];
    }

    /** Frames of class {@code tc} this port has started to transmit. */
    public long transmitted(int tc) {
        return txByClass[tc];
    }

    /**
     * Removes every queued frame of class {@code tc} (PFC watchdog, action drop): they leave the buffer and go
     * back to the pool. Returns how many there were. A frame (a flow's data, or the last ACK its sender waits for)
     * that sat here while the class was paused tells that wait first, as its transmission would have: it did wait
     * behind those pauses, each part to the XOFF that held it, and then was lost (the resends and timeouts that cost
     * are its QP's, told apart). Untold, a flow's waits at the hops where the watchdog dropped its packets vanished
     * from its paused wait and its victim line.
     */
    public int drainClass(long nowPs, int tc, PacketPool pool) {
        PacketFifo q = queues[tc];
        // The watchdog drains only PFC queues, so the held clock is the paused one; the watchdog lifted the pause
        // before it drains, so the clock stands where the pause ended.
        long clock = pause.pausedPs(tc, nowPs);
        int n = 0;
        Packet p;
        while ((p = q.poll()) != null) {
            long entered = p.enteredClockPs();
            if (p.ecmpCollision() && ecmpProbe != EcmpProbe.NONE && p.cookie() >= 0) {
                // Queued behind an ECMP collision, then drained: it waited there all the same, as a sent one tells.
                tellCollisionWait(nowPs, tc, p, entered, clock);
            }
            if (pfcProbe != PfcProbe.NONE && clock != entered && p.cookie() >= 0) {
                pauseHistory.report(pfcProbe, nowPs, ownerNode, portIndex, tc, p.queuePair(), p.cookie(),
                        p.kind() != PacketKind.DATA, entered, clock);
            }
            if (ingressLists != null) {
                ingressLists.remove(portIndex, tc, p);
            }
            int bytes = p.frameBytes();
            queuedBytes -= bytes;
            buffer.release(nowPs, p.ingressPort(), portIndex, tc, bytes);
            counters[PortCounter.DROPPED_PACKETS.ordinal()]++;
            counters[PortCounter.DROPPED_BYTES.ordinal()] += bytes;
            counters[PortCounter.DROPPED_PFC_WATCHDOG.ordinal()]++;
            drainedByClass[tc]++;
            // Told with the PFC frame that held this queue paused: its root is the storm's, by identity.
            journey.onWatchdogDrop(nowPs, ownerNode, portIndex, tc, p, lastXoffSentPs[tc]);
            if (p.cookie() >= 0) {
                pfcProbe.onWatchdogDrop(nowPs, ownerNode, portIndex, tc, p.queuePair(), p.cookie(),
                        p.kind() != PacketKind.DATA, lastXoffSentPs[tc]);
            }
            pool.release(p);
            n++;
        }
        backlog &= ~(1 << tc);
        stallBacklogBytes[tc] = 0;
        return n;
    }

    /** Whether frames of {@code priority} are held by a pause from the peer. */
    public boolean isPaused(int priority) {
        return pause.isPaused(priority);
    }

    /** PFC frames sent for {@code priority} (XOFF and XON). */
    public long pauseFramesSent(int priority) {
        return pauseSent[priority];
    }

    /** PFC frames received for {@code priority}. */
    public long pauseFramesReceived(int priority) {
        return pauseReceived[priority];
    }

    /** Time {@code priority} spent paused (completed pauses), in picoseconds. */
    public long pausedPs(int priority) {
        return pause.completedPausedPs(priority);
    }

    /** Time {@code priority} spent paused up to {@code nowPs}, a pause still in force included. */
    public long pausedPs(int priority, long nowPs) {
        return pause.pausedPs(priority, nowPs);
    }

    /** ECN: only ECN-capable packets can be marked; {@code depth} is the class queue the decision sees. */
    private void mark(long nowPs, int tc, long depth, Packet p) {
        if (credits != null && credits.waitedForCredits(tc) && !marking[tc].marksVictims()) {
            return;
        }
        if (p.ecn().isCapable() && marking[tc].shouldMark(nowPs, depth, p)
                && p.markCongestionExperienced(nowPs, ownerNode, portIndex)) {
            counters[PortCounter.ECN_MARKED.ordinal()]++;
            markedByClass[tc]++;
            journey.onMark(nowPs, ownerNode, portIndex, depth, p);
        }
    }

    /** Packets this port marked CE in traffic class {@code tc}. */
    public long ecnMarked(int tc) {
        return markedByClass[tc];
    }

    /** Reports ECN marks to a journey probe, as port {@code portIndex} of node {@code node}. */
    public void journeyProbe(JourneyProbe probe, int node) {
        this.journey = probe;
        this.ownerNode = node;
    }

    /**
     * Whether lane (class) {@code vl} still queues packets that were queued when its last packet that had waited for
     * credits (InfiniBand with a credit log) or behind a PFC pause (with a PFC probe) left: the backlog that stall or
     * pause held back (a packet queued behind them waits for them, not only for this port's rate). Once they have all
     * left, every packet in the lane was queued after the lane last waited and has waited only for this port's rate:
     * a backlog it keeps then is its own (its inputs bring more than it sends). False without a credit log or a PFC
     * probe.
     */
    public boolean heldBacklog(int vl) {
        return (tellCreditWaits || pfcProbe != PfcProbe.NONE) && stallBacklogBytes[vl] > 0;
    }

    /**
     * InfiniBand with a credit log: whether lane {@code vl} waited for credits (for some time) since its queue last went
     * from empty to holding a packet, with that stall ended (its credit-stall clock over ended stalls has moved since).
     * False without a credit log.
     */
    public boolean stalledThisBusyPeriod(int vl) {
        return tellCreditWaits && !queues[vl].isEmpty() && credits.endedStallPs(vl) > busyStallClockPs[vl];
    }

    /**
     * InfiniBand: reports the waits of flows' packets for credits, with their roots, to {@code probe}; from then on
     * queued packets carry the lane's credit-stall clock ({@code CreditProbe.NONE}: none, no cost). Packets queued
     * before carry no clock: attach before the run.
     */
    public void creditProbe(CreditProbe probe) {
        this.creditProbe = probe;
        this.tellCreditWaits = credits != null && probe != CreditProbe.NONE;
    }

    /** The switch this port belongs to (its node id): the marks it makes and the waits it reports name it. */
    public void owner(int node) {
        this.ownerNode = node;
    }

    /** Reports the waits of data packets behind pauses of this port to {@code probe}. */
    public void pfcProbe(PfcProbe probe) {
        this.pfcProbe = probe;
    }

    /** Unlinks each packet from {@code lists} as it leaves a queue (the switch links it there as it is queued). */
    public void ingressLists(IngressLists lists) {
        this.ingressLists = lists;
    }

    /** The last packet queued in class {@code tc} (the one a packet queued now would follow), or null. */
    public Packet lastQueued(int tc) {
        return queues[tc].last();
    }

    /**
     * How long this port has been idle for a packet of class {@code tc} taking {@code wireBytes} on the wire: the time
     * since its last frame left, if nothing of the class is queued, the class is not paused (on InfiniBand: the credits
     * cover the packet), no control frame waits, and that time is at least the packet's own time on this wire (a port
     * that sends back to back is busy, not idle between frames); else -1.
     */
    public long idleFor(long nowPs, int tc, int wireBytes, int frameBytes) {
        if (!queues[tc].isEmpty() || !control.isEmpty() || pause.isPaused(tc)
                || credits != null && !credits.canSend(tc, frameBytes)) {
            return -1;
        }
        long idle = nowPs - busyUntilPs;
        return idle >= txPs(wireBytes) ? idle : -1;
    }

    /** Reports the waits of packets queued behind ECMP collisions here to {@code probe}. */
    public void ecmpProbe(EcmpProbe probe) {
        this.ecmpProbe = probe;
    }

    /** How many classes (queues) the port has. */
    public int classCount() {
        return queues.length;
    }

    /** The first packet queued in class {@code tc}, or null: with {@link #queuedAfter} a walk that removes nothing. */
    public Packet firstQueued(int tc) {
        return queues[tc].peek();
    }

    /** The packet queued behind {@code p} in class {@code tc}, or null. */
    public Packet queuedAfter(int tc, Packet p) {
        return queues[tc].after(p);
    }

    /** When the peer sent the XOFF that last paused class {@code tc} (-1: never paused, or unknown). */
    public long lastXoffSentPs(int tc) {
        return lastXoffSentPs[tc];
    }

    /** Counts a packet arriving on this physical port. */
    public void countReceived(int frameBytes) {
        counters[PortCounter.RX_PACKETS.ordinal()]++;
        counters[PortCounter.RX_BYTES.ordinal()] += frameBytes;
    }

    public void count(PortCounter counter, long delta) {
        counters[counter.ordinal()] += delta;
    }

    /**
     * A counter's value. Frames this port sent into its link while the link was down, or that were on the wire when
     * it went down, are this port's drops for link down (the link counts them, as it is where they are lost).
     */
    public long counter(PortCounter counter) {
        long n = counters[counter.ordinal()];
        if (link == null) {
            return n;
        }
        return switch (counter) {
            case DROPPED_PACKETS, DROPPED_LINK_DOWN -> n + link.lost();
            case DROPPED_BYTES -> n + link.lostBytes();
            default -> n;
        };
    }

    public int portIndex() {
        return portIndex;
    }

    public long rateBps() {
        return rateBps;
    }

    /** Bytes waiting or in service on this port, all classes. */
    public long queuedBytes() {
        return queuedBytes;
    }

    public long queuedBytes(int tc) {
        return queues[tc].bytes();
    }

    public long peakQueuedBytes() {
        return peakQueuedBytes;
    }

    /** Packets held by this port: queued (the frame being transmitted is already owned by the link). */
    public int packetsHeld() {
        int n = control.size();
        for (PacketFifo q : queues) {
            n += q.size();
        }
        return n;
    }
}
