package rocelab.fabric.nic;

import rocelab.engine.Simulator;

/**
 * The local ACK timers of an RNIC's queue pairs, in one small heap with a single calendar wake-up for the earliest.
 * Progress moves a QP's deadline without touching the heap: the QP re-arms itself lazily when an old entry fires.
 */
final class AckTimers {
    private final Simulator sim;
    private final int handlerId;
    private final QueuePairHeap timers = new QueuePairHeap();
    private long epoch;
    private long atPs = -1;

    AckTimers(Simulator sim, int handlerId) {
        this.sim = sim;
        this.handlerId = handlerId;
    }

    /** Arms (or re-arms) the local ACK timer of {@code qp} for {@code deadlinePs}. */
    void schedule(QueuePair qp, long deadlinePs) {
        timers.push(qp, deadlinePs);
        if (atPs < 0 || deadlinePs < atPs) {
            atPs = deadlinePs;
            sim.schedule(deadlinePs, handlerId, NicEvent.ACK_TIMER, ++epoch);
        }
    }

    /** A wake-up with {@code arg} fired: if it is the current one, every timer due expires. */
    void onWakeUp(long nowPs, long arg) {
        if (arg != epoch) {
            return;
        }
        atPs = -1;
        while (!timers.isEmpty() && timers.minKey() <= nowPs) {
            timers.pop().onAckTimer(nowPs);
        }
        if (!timers.isEmpty() && atPs < 0) {
            atPs = timers.minKey();
            sim.schedule(atPs, handlerId, NicEvent.ACK_TIMER, ++epoch);
        }
    }
}
