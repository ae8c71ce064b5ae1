package rocelab.fabric.nic;

import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.PauseHistory;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.probe.PfcProbe;

/**
 * Which queue pair sends the RNIC's next data packet: the QPs with data ready take turns (round robin), and a QP
 * whose congestion control holds it below line rate waits out its gap in a heap of paced QPs, with one pacer
 * wake-up in the calendar for the earliest of them.
 */
final class QueuePairRotation {
    /** Longest a paced QP waits before its gap is re-derived from its (possibly raised) rate. */
    static final long PACER_RECHECK_PS = 10_000_000L;

    private final Simulator sim;
    private final int handlerId;
    private final LineRate line;
    private QueuePair activeHead;
    private QueuePair activeTail;
    private final QueuePairHeap paced = new QueuePairHeap();
    private long pacerEpoch;
    private long pacerAtPs = -1;
    /** Pacer wake-ups of this rotation carry epochs {@code base + k * step}: the RNIC tells its rotations apart. */
    private final long epochStep;
    /**
     * Spraying over planes: every port of a multi-plane RNIC pulls from this one rotation, a QP may send again as
     * soon as its rate allows (not when one port frees), and a port takes only QPs its plane reaches. Null otherwise.
     */
    private final PlaneRouting spray;
    private final int host;
    /** Spraying: the plane that took the last data packet (the next free port after it takes the next). */
    private int lastPlane = -1;
    /**
     * InfiniBand with a credit probe attached: the port's credits, whose stall clock a QP notes as it becomes ready (null
     * otherwise: no cost).
     */
    private CreditGate creditClock;

    QueuePairRotation(Simulator sim, int handlerId, LineRate line) {
        this(sim, handlerId, line, 0, 1, null, -1);
    }

    QueuePairRotation(Simulator sim, int handlerId, LineRate line, int epochBase, int epochStep, PlaneRouting spray,
            int host) {
        this.sim = sim;
        this.handlerId = handlerId;
        this.line = line;
        this.pacerEpoch = epochBase;
        this.epochStep = epochStep;
        this.spray = spray;
        this.host = host;
    }

    int lastPlane() {
        return lastPlane;
    }

    /** A credit probe listens on InfiniBand: each QP notes {@code gate}'s stall clock as it becomes ready (null: not). */
    void creditClock(CreditGate gate) {
        this.creditClock = gate;
    }

    /** A QP may have something to send: an idle one joins the rotation now or after its gap. */
    void wake(long nowPs, QueuePair qp) {
        if (qp.txState == QueuePair.TxState.IDLE && qp.canSend()) {
            refreshPacing(qp);
            if (qp.nextSendPs <= nowPs) {
                appendActive(qp);
            } else {
                // At line rate it could send now, or, while its last packet is still on the wire (a message posted
                // behind one whose last packet just started), when that packet ends: its rate holds it from there.
                qp.rateHeldFromPs = Math.max(nowPs, qp.lastSendPs + line.wirePs(qp.lastWireBytes));
                pushPaced(qp, nowPs);
            }
        }
    }

    boolean hasActive() {
        return activeHead != null;
    }

    /**
     * The QP whose turn it is and that may send now (its gap over, and with InfiniBand credits for its next frame on
     * its lane), or null. QPs with nothing left drop out of the rotation; QPs blocked on credits keep their turn.
     */
    QueuePair next(long nowPs, CreditGate credits) {
        return next(nowPs, credits, 0);
    }

    /** As {@link #next(long, CreditGate)}, for the port of {@code plane} (spraying: a QP it reaches). */
    QueuePair next(long nowPs, CreditGate credits, int plane) {
        while (!paced.isEmpty() && paced.minKey() <= nowPs) {
            QueuePair waiting = paced.pop();
            refreshPacing(waiting);
            if (waiting.nextSendPs <= nowPs) {
                // Its rate let it go at nextSendPs; a later pop waited for the port, not for its rate.
                waiting.rateHeldPs += Math.max(0, waiting.nextSendPs - waiting.rateHeldFromPs);
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
            } else if ((spray == null || spray.usable(plane, host, qp.destination.host()))
                    && (credits == null || credits.admit(nowPs, qp.lane, qp.nextFrameBytes()))) {
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
        if (qp != null) {
            lastPlane = plane;
        }
        return qp;
    }

    /**
     * {@code qp} just started a packet of {@code wireBytes} that ends at {@code txEndPs}: its next send time follows
     * from its rate, and it goes back into the rotation (or the pacer) if it has more.
     */
    void sent(QueuePair qp, long nowPs, long wireBytes, long txEndPs) {
        long rate = qp.cc.rateBps();
        // Spraying: the QP's rate is the RNIC's (all planes), not the one port's that carries this packet.
        long lineEnd = spray == null ? txEndPs : nowPs + line.wirePs(wireBytes);
        qp.nextSendPs = rate >= line.bps() ? lineEnd : nowPs + Rates.serializationPs(wireBytes, rate);
        qp.lastSendPs = nowPs;
        qp.lastWireBytes = wireBytes;
        qp.txState = QueuePair.TxState.IDLE;
        if (qp.canSend()) {
            if (qp.nextSendPs <= (spray == null ? txEndPs : nowPs)) {
                appendActive(qp);
            } else {
                qp.rateHeldFromPs = lineEnd; // at line rate it could send again when this packet ends
                pushPaced(qp, nowPs);
            }
        }
    }

    /** Schedules the pacer for the earliest paced QP, not before the port is free at {@code busyUntilPs}. */
    void armPacer(long busyUntilPs) {
        if (paced.isEmpty()) {
            return;
        }
        // Spraying: another port may be free before this one; the wake-up offers the QP to every port. Several ports
        // arm it, so it moves only earlier: a pending earlier wake-up finds nothing due and re-arms (no stale pile-up).
        long t = Math.max(paced.minKey(), spray == null ? busyUntilPs : sim.nowPs());
        if (spray == null ? t != pacerAtPs : pacerAtPs < 0 || t < pacerAtPs) {
            pacerAtPs = t;
            pacerEpoch += epochStep;
            sim.schedule(t, handlerId, NicEvent.PACER, pacerEpoch);
        }
    }

    /** Whether a pacer wake-up with {@code arg} is the current one (and so the transmitter should look again). */
    boolean onPacer(long arg) {
        if (arg != pacerEpoch) {
            return false;
        }
        pacerAtPs = -1;
        return true;
    }

    /**
     * A pause of the data priority that lasted {@code lastedPs} just ended: every QP that had data ready meanwhile
     * waited behind it, from the pause's start (or from when it became ready) to now. Pauses are rare, so walking the
     * ready QPs here is cheap.
     */
    void reportPausedWaits(PfcProbe probe, PauseHistory history, long nowPs, int host, int port, int priority,
            long lastedPs, long clockPs) {
        long since = nowPs - lastedPs;
        for (QueuePair qp = activeHead; qp != null; qp = qp.nextActive) {
            long from = Math.max(since, qp.readyPs);
            if (from < nowPs && qp.canSend()) {
                history.report(probe, nowPs, host, port, priority, qp.id, qp.cookieOf(qp.sndNxt()), false,
                        clockPs - (nowPs - from), clockPs);
            }
        }
        for (int i = 0; i < paced.size(); i++) {
            QueuePair qp = paced.at(i);
            long from = Math.max(since, Math.max(qp.readyPs, qp.nextSendPs));
            if (from < nowPs && qp.canSend()) {
                history.report(probe, nowPs, host, port, priority, qp.id, qp.cookieOf(qp.sndNxt()), false,
                        clockPs - (nowPs - from), clockPs);
            }
        }
    }

    /** The first QP of the active list (ready to send), or null; the others follow by {@code nextActive}. */
    QueuePair activeHead() {
        return activeHead;
    }

    /** Takes {@code qp} out of the rotation (it moves to another plane's); rare, so a walk is fine. */
    void remove(QueuePair qp) {
        if (qp.txState == QueuePair.TxState.ACTIVE) {
            QueuePair prev = null;
            for (QueuePair q = activeHead; q != null; prev = q, q = q.nextActive) {
                if (q == qp) {
                    if (prev == null) {
                        activeHead = q.nextActive;
                    } else {
                        prev.nextActive = q.nextActive;
                    }
                    if (activeTail == q) {
                        activeTail = prev;
                    }
                    break;
                }
            }
            qp.nextActive = null;
        } else if (qp.txState == QueuePair.TxState.PACED) {
            qp.rateHeldPs = qp.rateHeldPs(sim.nowPs());
            paced.remove(qp);
        }
        qp.txState = QueuePair.TxState.IDLE;
    }

    private void appendActive(QueuePair qp) {
        if (qp.txState == QueuePair.TxState.IDLE) {
            qp.readyPs = sim.nowPs();
        }
        if (creditClock != null && qp.txState != QueuePair.TxState.ACTIVE) {
            // Ready to send from now (idle or paced before): a wait for credits counts from here.
            qp.creditClockPs = creditClock.stallPs(qp.lane, sim.nowPs());
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
        long gap = rate >= line.bps() ? line.wirePs(qp.lastWireBytes) : Rates.serializationPs(qp.lastWireBytes, rate);
        qp.nextSendPs = Math.min(qp.nextSendPs, qp.lastSendPs + gap);
    }
}
