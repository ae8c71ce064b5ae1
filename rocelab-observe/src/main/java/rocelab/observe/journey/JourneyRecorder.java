package rocelab.observe.journey;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.CreditProbe;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.switching.Switch;

/**
 * Records the journey of one queue pair: every data packet it sends, every queue it enters (with the depth it
 * found), every mark and drop, what reaches each end, the CNPs with the cause they carry, every rate change with
 * the cause its congestion control reported, every wait of its packets behind a pause (or, on InfiniBand, for
 * credits), and the PFC frames.
 * Attached only when a journey is asked for; it allocates one event object per step, which is fine for one flow.
 */
public final class JourneyRecorder implements JourneyProbe, PfcProbe, CreditProbe, EcmpProbe {
    private final Network network;
    private final int queuePair;
    private final List<JourneyEvent> events = new ArrayList<>();
    /** Per transmitter (node, port): how far on its paused clock the flow's waits were already told. */
    private final Map<Long, Long> waitedUpTo = new HashMap<>();
    /** Per transmitter lane (node, port, lane, ACK or data): how far on its credit-stall clock waits were told. */
    private final Map<Long, Long> creditWaitedUpTo = new HashMap<>();
    private final PfcProbe next;
    /** The credit probe that was attached before (the credit log), kept informed. */
    private CreditProbe nextCredit = CreditProbe.NONE;
    /** The ECMP probe that was attached before (the ECMP log), kept informed. */
    private EcmpProbe nextEcmp = EcmpProbe.NONE;
    /**
     * Per (switch, port, PSN, ACK or data): the flow's packets queued there behind collisions, in the order they joined
     * (a FIFO: the first to leave is the first that joined), so each wait finds its own collision.
     */
    private final Map<String, ArrayDeque<JourneyEvent>> collided = new HashMap<>();
    /** Per (switch, port, ACK or data): how far on the clock of time not held the flow's collision waits were told. */
    private final Map<Long, Long> ecmpWaitedUpTo = new HashMap<>();
    /** The detail of a SEND that a selective NAK or a selective timeout caused. */
    static final String SELECTIVE = "selective";
    /** The QP's recoveries so far (NAKs and local ACK timeouts): a re-sent packet names the latest. */
    private int recoveries;

    /**
     * The flow followed on the QP (its message cookie), or -1 for all of the QP's: a QP carries one flow after another
     * (every step of a ring collective on one connection), and a journey is one flow's.
     */
    private final long flowCookie;
    /** The PSNs the followed flow's packets carry, as its sends showed them (-1: none sent yet). */
    private long firstPsn = -1;
    private long lastPsn = -1;
    /** When the followed flow's first packet left (Long.MAX_VALUE: not yet). */
    private long firstSendPs = Long.MAX_VALUE;
    /**
     * The QP's packets of other flows sent before the followed flow's first packet: time, the flow (its cookie) and
     * whether it was a re-send, in the order sent. A QP sends its messages in the order they were posted, so those
     * sent after the followed flow was posted are what it queued behind.
     */
    private final List<long[]> sentBefore = new ArrayList<>();

    /** @param next the PFC probe that was attached before (kept informed) */
    public JourneyRecorder(Network network, int queuePair, PfcProbe next) {
        this(network, queuePair, -1, next);
    }

    /**
     * Records the journey of flow {@code flowCookie} (the cookie its message was posted with: its flow id) on
     * {@code queuePair}; {@link #eventsOf} keeps its events only.
     */
    public JourneyRecorder(Network network, int queuePair, long flowCookie, PfcProbe next) {
        this.network = network;
        this.queuePair = queuePair;
        this.flowCookie = flowCookie;
        this.next = next;
    }

    /** Keeps {@code credits} (the credit log attached before) informed of every wait for credits. */
    public JourneyRecorder creditsTo(CreditProbe credits) {
        this.nextCredit = credits;
        return this;
    }

    /** Keeps {@code ecmp} (the ECMP log attached before) informed of every collision and wait. */
    public JourneyRecorder ecmpTo(EcmpProbe ecmp) {
        this.nextEcmp = ecmp;
        return this;
    }

    /** Attaches the recorder to every RNIC and switch of the network. */
    public void attach() {
        boolean credits = network.isInfiniband();
        for (int h = 0; h < network.hostCount(); h++) {
            network.nic(h).journeyProbe(this);
            network.nic(h).pfcProbe(this);
            if (credits) {
                network.nic(h).creditProbe(this);
            }
        }
        for (int s = 0; s < network.switchCount(); s++) {
            network.switchAt(s).journeyProbe(this);
            network.switchAt(s).pfcProbe(this);
            network.switchAt(s).ecmpProbe(this);
            if (credits) {
                network.switchAt(s).creditProbe(this);
            }
        }
        network.journeyProbe(this);
    }

    private boolean ours(Packet p) {
        return p.kind() != PacketKind.PFC && p.queuePair() == queuePair;
    }

    private void add(long t, JourneyEvent.Kind k, int node, int port, long psn, long value, boolean flag, String d) {
        events.add(new JourneyEvent(t, k, node, port, psn, value, flag, d));
    }

    @Override
    public void onSend(long nowPs, int host, Packet p, long rateBps, boolean retransmission) {
        if (ours(p)) {
            if (flowCookie >= 0 && p.cookie() == flowCookie) {
                // The flow's PSNs, by the identity each data packet carries.
                firstPsn = firstPsn < 0 ? p.psn() : Math.min(firstPsn, p.psn());
                firstSendPs = Math.min(firstSendPs, nowPs);
                lastPsn = Math.max(lastPsn, p.psn());
            } else if (flowCookie >= 0 && firstSendPs == Long.MAX_VALUE) {
                sentBefore.add(new long[] {nowPs, p.cookie(), retransmission ? 1 : 0});
            }
            // A re-send of a QP that repeats selectively says so: it is not the start of a go-back-N. A re-send is
            // the QP's answer to its latest recovery (the QP reported it before it sent anything again).
            events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.SEND, host, 0, p.psn(), rateBps, retransmission,
                    retransmission && network.queuePairs().get(queuePair).selectiveRepeat() ? SELECTIVE : null,
                    retransmission && recoveries > 0 ? new JourneyEvent.Resend(recoveries) : null));
        }
    }

    @Override
    public void onRecovery(long nowPs, int host, int qp, boolean timeout, long fromPsn, long sentThroughPsn,
            long packets, long timerStartPs, long noAckSincePs, int retry, int retryLimit) {
        if (qp != queuePair) {
            return;
        }
        recoveries++;
        boolean selective = network.queuePairs().get(queuePair).selectiveRepeat();
        events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.RECOVERY, host, 0, fromPsn, packets, timeout,
                timeout ? "timeout" : "nak", new JourneyEvent.Recovery(recoveries, timeout, selective, fromPsn,
                        sentThroughPsn, packets, timerStartPs, noAckSincePs,
                        network.nic(host).parameters().ackTimeoutPs(), retry, retryLimit)));
    }

    @Override
    public void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet p) {
        if (ours(p)) {
            add(nowPs, JourneyEvent.Kind.ENQUEUE, node, port, p.psn(), queueBytes, p.kind() != PacketKind.DATA,
                    p.kind().name());
        }
    }

    @Override
    public void onDrop(long nowPs, int node, int port, DropReason reason, Packet p) {
        if (ours(p)) {
            add(nowPs, JourneyEvent.Kind.DROP, node, port, p.psn(), 0, p.kind() != PacketKind.DATA,
                    reason.key());
        }
    }

    @Override
    public void onBufferFullDrop(long nowPs, int node, int port, Packet p, int holderPort, int holderTc,
            long holderBytes, long poolUsedBytes, long poolBytes) {
        if (ours(p)) {
            // The drop's own port's queue of the holder's class, read now: the switch names the first queue holding
            // the most, and its own may hold as much (lossy-incast: 498,960 bytes each).
            Switch sw = node >= network.hostCount() ? network.switchAt(node - network.hostCount()) : null;
            long own = holderPort >= 0 && holderTc >= 0 && sw != null ? sw.port(port).queuedBytes(holderTc) : -1;
            // An egress queue counts its lossless packets held in headroom too, which the pool's use does not: the
            // headroom in use is read now, so the holder is told against what the buffer held in all (a lossy packet
            // dropped beside a pausing lossless class: its queue held more than the pool had in use).
            long headroom = sw == null ? 0 : sw.buffer().usedBytes() - sw.buffer().sharedUsedBytes();
            events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.DROP, node, port, p.psn(), 0,
                    p.kind() != PacketKind.DATA, DropReason.BUFFER_FULL.key(), new JourneyEvent.BufferHeld(holderPort,
                            holderTc, holderBytes, poolUsedBytes, poolBytes, own, headroom)));
        }
    }

    @Override
    public void onWatchdogDrop(long nowPs, int node, int port, int priority, Packet p, long xoffSentPs) {
        if (ours(p)) {
            events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.DROP, node, port, p.psn(), 0,
                    p.kind() != PacketKind.DATA, DropReason.PFC_WATCHDOG.key(),
                    new JourneyEvent.WatchdogDrop(priority, xoffSentPs)));
        }
    }

    @Override
    public void onWatchdogDrop(long nowPs, int node, int port, int priority, int qp, long flowCookie, boolean ack,
            long xoffSentPs) {
        next.onWatchdogDrop(nowPs, node, port, priority, qp, flowCookie, ack, xoffSentPs);
    }

    @Override
    public void onBufferFullDrop(long nowPs, int node, int port, long flowCookie, boolean ack, int holderPort,
            int holderTc, long holderBytes) {
        nextEcmp.onBufferFullDrop(nowPs, node, port, flowCookie, ack, holderPort, holderTc, holderBytes);
    }

    @Override
    public void onMark(long nowPs, int node, int port, long queueBytes, Packet p) {
        if (ours(p)) {
            add(nowPs, JourneyEvent.Kind.MARK, node, port, p.psn(), queueBytes, false, null);
        }
    }

    /**
     * Where an arriving data packet stands against what its go-back-N responder expects, read before the responder
     * takes it: null in sequence (or with selective repeat, which places any PSN), {@code ahead N} or {@code behind N}
     * (N the expected PSN): the responder discards it.
     */
    private String sequence(Packet p) {
        QueuePair qp = network.queuePairs().get(p.queuePair());
        if (qp.selectiveRepeat() || p.psn() == qp.expectedPsn()) {
            return null;
        }
        return (p.psn() > qp.expectedPsn() ? "ahead " : "behind ") + qp.expectedPsn();
    }

    @Override
    public void onArrive(long nowPs, int host, Packet p) {
        if (!ours(p)) {
            return;
        }
        switch (p.kind()) {
            case DATA -> add(nowPs, JourneyEvent.Kind.DATA_ARRIVED, host, 0, p.psn(), p.payloadBytes(),
                    p.ecn() == Ecn.CE, sequence(p));
            case ACK -> add(nowPs, JourneyEvent.Kind.ACK_ARRIVED, host, 0, p.psn(), 0, p.cnpFlag(), null);
            case NAK -> {
                if (p.selective()) {
                    // value: the last missing PSN it asks for; detail: the cumulative PSN it acknowledges
                    add(nowPs, JourneyEvent.Kind.NAK_ARRIVED, host, 0, p.psn(), p.missingToPsn(), true,
                            Long.toString(p.cumulativePsn()));
                } else {
                    add(nowPs, JourneyEvent.Kind.NAK_ARRIVED, host, 0, p.psn(), 0, false, null);
                }
            }
            default -> {
            }
        }
    }

    private static JourneyEvent.Notice notice(Packet n) {
        return new JourneyEvent.Notice(n.notification(), n.notifySentPs(), n.causePsn(), n.markNode(), n.markPort(),
                n.markAtPs(), n.markHeldByPause());
    }

    /** value: when the last CNP went out; flag: the interval is per port; detail: the interval (ps). */
    @Override
    public void onCnpWithheld(long nowPs, int host, Packet data, long lastCnpPs, long intervalPs, boolean perPort) {
        if (ours(data)) {
            add(nowPs, JourneyEvent.Kind.CNP_WITHHELD, host, 0, data.psn(), lastCnpPs, perPort, Long.toString(intervalPs));
        }
    }

    @Override
    public void onCnpSent(long nowPs, int host, Packet notification) {
        if (notification.queuePair() == queuePair) {
            events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.CNP_SENT, host, 0, notification.causePsn(), 0,
                    notification.kind() == PacketKind.ACK, null, notice(notification)));
        }
    }

    @Override
    public void onCnpHandled(long nowPs, int host, Packet notification, boolean reacted, long rateBps) {
        if (notification.queuePair() == queuePair) {
            // Told before the rate changes it caused at this instant (a control that reacts at once, such as ib-cc,
            // reports them while it handles the notification, so they were recorded first).
            int at = events.size();
            while (at > 0 && events.get(at - 1).timePs() == nowPs && events.get(at - 1).kind() == JourneyEvent.Kind.RATE
                    && events.get(at - 1).node() == host) {
                at--;
            }
            events.add(at, new JourneyEvent(nowPs, JourneyEvent.Kind.CNP_HANDLED, host, 0, notification.causePsn(),
                    rateBps, reacted, null, notice(notification)));
        }
    }

    @Override
    public void onRateChange(long nowPs, int host, int qp, long fromBps, long toBps, long windowBytes,
            RateCause cause, long value, int index) {
        if (qp == queuePair) {
            QueuePair q = network.queuePairs().get(qp);
            events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.RATE, host, 0, -1, toBps, false, cause.name(),
                    new JourneyEvent.RateChange(fromBps, toBps, windowBytes, cause, value, index,
                            q.sndNxt() < q.postedPsns() && !q.failed())));
        }
    }

    @Override
    public void onPfcSent(long nowPs, int node, int port, int priority, int quanta, long groupBytes,
            long thresholdBytes, PfcReason reason, long poolUsedBytes, long poolBytes) {
        next.onPfcSent(nowPs, node, port, priority, quanta, groupBytes, thresholdBytes, reason, poolUsedBytes,
                poolBytes);
        events.add(new JourneyEvent(nowPs, quanta == 0 ? JourneyEvent.Kind.RESUMED : JourneyEvent.Kind.PAUSED, node,
                port, priority, groupBytes, false, Integer.toString(quanta),
                new JourneyEvent.Pause(reason, thresholdBytes, poolUsedBytes, poolBytes)));
    }

    @Override
    public void onPauseInForce(long nowPs, int node, int port, int priority, long xoffSentPs, long clockPs) {
        next.onPauseInForce(nowPs, node, port, priority, xoffSentPs, clockPs);
    }

    @Override
    public void onPausedWait(long nowPs, int node, int port, int priority, int qp, long flowCookie, boolean ack,
            long fromClockPs, long toClockPs, long xoffSentPs) {
        next.onPausedWait(nowPs, node, port, priority, qp, flowCookie, ack, fromClockPs, toClockPs, xoffSentPs);
        if (qp != queuePair || this.flowCookie >= 0 && flowCookie != this.flowCookie) {
            return;
        }
        // Each of the flow's packets held in a paused queue reports its whole interval on the transmitter's paused
        // clock; they overlap (a FIFO's packets wait through the same pause), so only what extends the hop's
        // high-water mark is new, as in the PFC log: the journey's waits then add up to the flow's paused wait.
        long key = (long) node << 32 | port & 0x7FFFFFFFL | (ack ? 1L << 31 : 0);
        long from = newPart(waitedUpTo, key, fromClockPs, toClockPs);
        if (from == Long.MAX_VALUE) {
            return;
        }
        // The probe names the flow, not the packet: no PSN is claimed for the wait.
        events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.WAITED, node, port, -1, toClockPs - from, false, null,
                new JourneyEvent.Wait(priority, from, toClockPs, xoffSentPs, ack)));
    }

    @Override
    public void onCreditWait(long nowPs, int node, int port, int vl, int qp, long flowCookie, long psn, boolean ack,
            long fromClockPs, long toClockPs, long root) {
        nextCredit.onCreditWait(nowPs, node, port, vl, qp, flowCookie, psn, ack, fromClockPs, toClockPs, root);
        if (qp != queuePair || this.flowCookie >= 0 && flowCookie != this.flowCookie) {
            return;
        }
        // As for pauses: the flow's packets queued together at one lane wait through the same stall and each reports
        // its whole interval on the lane's stall clock; only what extends the lane's high-water mark is new, so the
        // journey's credit waits at a hop add up to the time the flow had a packet waiting there for credits.
        long key = ((long) node << 32 | (long) port << 4 | vl) << 1 | (ack ? 1 : 0);
        long from = newPart(creditWaitedUpTo, key, fromClockPs, toClockPs);
        if (from == Long.MAX_VALUE) {
            return;
        }
        events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.CREDIT_WAIT, node, port, -1, toClockPs - from, ack, null,
                new JourneyEvent.CreditWait(vl, from, toClockPs, psn, ack, root)));
    }

    private boolean followed(Packet p) {
        return ours(p) && (flowCookie < 0 || p.cookie() == flowCookie);
    }

    @Override
    public void onCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idlePort, long idlePs) {
        nextEcmp.onCollision(nowPs, node, port, tc, queueBytes, packet, ahead, directly, idlePort, idlePs);
        collision(nowPs, node, port, tc, queueBytes, packet, ahead, directly, idlePort, idlePs, false);
    }

    @Override
    public void onIdleCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idlePort, long idlePs) {
        nextEcmp.onIdleCollision(nowPs, node, port, tc, queueBytes, packet, ahead, directly, idlePort, idlePs);
        collision(nowPs, node, port, tc, queueBytes, packet, ahead, directly, idlePort, idlePs, true);
    }

    private void collision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet, Packet ahead,
            boolean directly, int idlePort, long idlePs, boolean fellIdle) {
        if (!followed(packet)) {
            return;
        }
        boolean ack = packet.kind() != PacketKind.DATA;
        JourneyEvent e = new JourneyEvent(nowPs, JourneyEvent.Kind.ECMP_COLLISION, node, port, packet.psn(),
                queueBytes, ack, null, new JourneyEvent.EcmpCollision(tc, queueBytes, ahead.cookie(),
                        ahead.queuePair(), ahead.psn(), directly, idlePort, idlePs, ack, fellIdle));
        events.add(e);
        collided.computeIfAbsent(node + "/" + port + "/" + packet.psn() + "/" + ack, k -> new ArrayDeque<>())
                .add(e);
    }

    @Override
    public void onCollisionWait(long nowPs, int node, int port, int tc, Packet packet, long fromPs, long toPs) {
        nextEcmp.onCollisionWait(nowPs, node, port, tc, packet, fromPs, toPs);
        if (!followed(packet)) {
            return;
        }
        boolean ack = packet.kind() != PacketKind.DATA;
        var joined = collided.get(node + "/" + port + "/" + packet.psn() + "/" + ack);
        // A packet told at the run's end is still queued, but the run is over: nothing of it is told again.
        JourneyEvent c = joined == null ? null : joined.poll();
        // As for pauses: only what extends the hop's high-water mark is new, so the journey's collision waits at a hop
        // add up to the flow's ecmp_wait_us there.
        long key = (long) node << 32 | port & 0x7FFFFFFFL | (ack ? 1L << 31 : 0);
        long from = newPart(ecmpWaitedUpTo, key, fromPs, toPs);
        events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.ECMP_WAIT, node, port, packet.psn(), toPs - fromPs, ack,
                null, new JourneyEvent.EcmpWait(tc, fromPs, toPs, from == Long.MAX_VALUE ? 0 : toPs - from, ack,
                        c == null ? null : (JourneyEvent.EcmpCollision) c.cause(), c == null ? -1 : c.timePs())));
    }

    /**
     * The part of the interval [{@code fromClockPs}, {@code toClockPs}] on a hop's clock beyond the hop's high-water
     * mark in {@code upTo} (which it then raises): its start, or {@code Long.MAX_VALUE} when nothing of it is new.
     */
    private static long newPart(Map<Long, Long> upTo, long key, long fromClockPs, long toClockPs) {
        long from = Math.max(fromClockPs, upTo.getOrDefault(key, Long.MIN_VALUE));
        if (toClockPs <= from) {
            return Long.MAX_VALUE;
        }
        upTo.put(key, toClockPs);
        return from;
    }

    @Override
    public void onLinkState(long nowPs, int nodeA, int portA, int nodeB, int portB, boolean up) {
        // Every link's: whether it is on the flow's way is told from the ports the flow's packets used.
        events.add(new JourneyEvent(nowPs, JourneyEvent.Kind.LINK, nodeA, portA, -1, 0, up, null,
                new JourneyEvent.LinkChange(nodeB, portB, up)));
    }

    /** Adds the completion (the sender saw the last ACK). */
    public void completed(long nowPs, int host) {
        add(nowPs, JourneyEvent.Kind.COMPLETED, host, 0, -1, 0, false, null);
    }

    public List<JourneyEvent> events() {
        return List.copyOf(events);
    }

    /**
     * The events of the followed flow: its packets and the notifications about them (by the PSNs its own sends
     * carried), its waits (by the cookie the waits named), and the QP's other events (rate changes, recoveries,
     * pauses) from the flow's first packet on (the QP served earlier flows before it) until it completed
     * ({@code endPs}; {@code startPs} when it sent nothing). All of the QP's without a followed flow.
     */
    public List<JourneyEvent> eventsOf(long startPs, long endPs) {
        if (flowCookie < 0) {
            return events();
        }
        List<JourneyEvent> out = new ArrayList<>();
        long from = firstSendPs == Long.MAX_VALUE ? startPs : firstSendPs;
        for (JourneyEvent e : events) {
            boolean keep = switch (e.kind()) {
                case SEND, ENQUEUE, MARK, DROP, DATA_ARRIVED, ACK_ARRIVED, CNP_SENT, CNP_HANDLED, CNP_WITHHELD ->
                        e.psn() >= firstPsn && e.psn() <= lastPsn;
                case WAITED, CREDIT_WAIT, ECMP_COLLISION, ECMP_WAIT -> true; // kept at recording by the flow's cookie
                default -> e.timePs() >= from && e.timePs() <= endPs;
            };
            if (keep) {
                out.add(e);
            }
        }
        return List.copyOf(out);
    }

    public int queuePair() {
        return queuePair;
    }

    /**
     * The flows whose packets the QP sent from {@code postedPs} (when the followed flow was posted) until the followed
     * flow's first packet left, in the order their first such packet was sent: the messages posted on the QP before it
     * that it queued behind (by the flow each packet carries). Empty when the followed flow followed no one or sent
     * nothing.
     */
    public List<QueuedBehind> queuedBehind(long postedPs) {
        List<QueuedBehind> out = new ArrayList<>();
        if (firstSendPs == Long.MAX_VALUE) {
            return out;
        }
        Map<Long, Integer> index = new HashMap<>();
        for (long[] s : sentBefore) {
            if (s[0] < postedPs) {
                continue;
            }
            Integer i = index.get(s[1]);
            if (i == null) {
                index.put(s[1], out.size());
                out.add(new QueuedBehind(s[1], 1, (int) s[2], s[0], s[0]));
            } else {
                QueuedBehind q = out.get(i);
                out.set(i, new QueuedBehind(q.flow(), q.packets() + 1, q.resent() + (int) s[2], q.firstSentPs(), s[0]));
            }
        }
        return out;
    }

    /** When the followed flow's first packet left (Long.MAX_VALUE: it sent none). */
    public long firstSendPs() {
        return firstSendPs;
    }

    /**
     * A flow posted earlier on the same QP whose packets the QP sent while the followed flow waited for its turn:
     * {@code packets} of them ({@code resent} of those sent again), the first at {@code firstSentPs}, the last at
     * {@code lastSentPs}.
     */
    public record QueuedBehind(long flow, int packets, int resent, long firstSentPs, long lastSentPs) {
    }
}
