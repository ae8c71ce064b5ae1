package rocelab.fabric.nic;

import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.flowcontrol.PauseHistory;
import rocelab.fabric.flowcontrol.PauseState;
import rocelab.fabric.flowcontrol.PendingPauses;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;

/**
 * How the RNIC honours its switch's PFC frames (802.1Qbb): only on the priorities with PFC enabled, after the pause
 * response time, until the pause expires or an XON lifts it. The {@link PauseState} it keeps is what the
 * {@link Transmitter} consults before sending; when a pause ends, the waits it caused (of the QPs with data ready, of
 * the ACKs in its control queue) are reported to the PFC probe.
 */
final class PauseReaction {
    private final Simulator sim;
    private final int handlerId;
    private final int host;
    private final long lineRateBps;
    private final int dataPriority;
    private final long[] counters;
    private final PauseState pause;
    private final Transmitter transmitter;
    private final QueuePairRotation rotation;
    private final PendingPauses pending = new PendingPauses();
    private PfcProbe pfcProbe = PfcProbe.NONE;
    /** The XOFFs that held each priority, along its paused clock: each part of a wait is told to its own XOFF. */
    private final PauseHistory history = new PauseHistory();
    /** Priorities with PFC enabled on this RNIC; all of them until told otherwise. */
    private int pfcMask = 0xFF;
    private long pauseResponsePs;
    /** Multi-plane RNIC: this port's plane, and how many there are (its wake-ups carry the plane). */
    private final int plane;
    private final int planes;

    PauseReaction(Simulator sim, int handlerId, int host, long lineRateBps, int dataPriority, long[] counters,
            PauseState pause, Transmitter transmitter, QueuePairRotation rotation) {
        this(sim, handlerId, host, lineRateBps, dataPriority, counters, pause, transmitter, rotation, 0, 1);
    }

    /**
     * The pause reaction of port {@code plane} of {@code planes}; {@code rotation} the QPs only this port serves, or
     * null when the ports share them (spraying: a QP does not wait behind one plane's pause, so none is reported).
     */
    PauseReaction(Simulator sim, int handlerId, int host, long lineRateBps, int dataPriority, long[] counters,
            PauseState pause, Transmitter transmitter, QueuePairRotation rotation, int plane, int planes) {
        this.plane = plane;
        this.planes = planes;
        this.sim = sim;
        this.handlerId = handlerId;
        this.host = host;
        this.lineRateBps = lineRateBps;
        this.dataPriority = dataPriority;
        this.counters = counters;
        this.pause = pause;
        this.transmitter = transmitter;
        this.rotation = rotation;
    }

    void enabledPriorities(int mask) {
        this.pfcMask = mask;
    }

    void responseTime(long ps) {
        this.pauseResponsePs = ps;
    }

    void pfcProbe(PfcProbe probe) {
        this.pfcProbe = probe;
    }

    /**
     * The switch above paused one of our priorities (quanta 0: resume); it takes effect after the response time,
     * every frame after the same delay, so in the order they arrived. {@code xoffSentPs} is when the switch sent the
     * frame, which names the XOFF in its PFC log.
     */
    void onPauseFrame(long nowPs, int priority, int quanta, long xoffSentPs) {
        counters[NicCounter.RX_PAUSE.ordinal()]++;
        if ((pfcMask & 1 << priority) == 0) {
            return; // PFC is not enabled on that priority here: the frame changes nothing
        }
        if (pauseResponsePs > 0) {
            pending.add(priority, quanta, xoffSentPs);
            sim.schedule(nowPs + pauseResponsePs, handlerId, NicEvent.PAUSE_ACTS, plane);
            return;
        }
        actOnPause(nowPs, priority, quanta, xoffSentPs);
    }

    /** The response time of the oldest pending frame is over. */
    void onResponseTimeOver(long nowPs) {
        int priority = pending.priority();
        int quanta = pending.quanta();
        long sent = pending.sentPs();
        pending.poll();
        if (sent < 0 || sent >= linkDownAtPs) { // a frame from before the link went down acts no more
            actOnPause(nowPs, priority, quanta, sent);
        }
    }

    /** When this port's link last went down (-1: never). */
    private long linkDownAtPs = -1;

    /** The port's link went down: the pauses the switch put on it are lifted (see {@code EgressPort#linkDown}). */
    void linkDown(long nowPs) {
        linkDownAtPs = nowPs;
        for (int priority = 0; priority < 8; priority++) {
            resume(nowPs, priority);
        }
    }

    /** A pause expiry wake-up with {@code arg} fired: it ends the pause unless a later frame refreshed or lifted it. */
    void onExpiry(long nowPs, long arg) {
        if (pause.isCurrent(arg)) {
            resume(nowPs, (int) (arg & 7));
        }
    }

    private void actOnPause(long nowPs, int priority, int quanta, long xoffSentPs) {
        if (quanta == 0) {
            resume(nowPs, priority);
            return;
        }
        if (pfcProbe != PfcProbe.NONE) {
            // Waits reported at this pause's end reach back to its start; a held control frame's to when it was queued.
            history.xoff(priority, pause.pausedPs(priority, nowPs), xoffSentPs,
                    Math.min(pause.completedPausedPs(priority), transmitter.oldestControlClockPs(priority)));
        }
        long until = nowPs + Headroom.pauseDurationPs(quanta, lineRateBps);
        sim.schedule(until, handlerId, NicEvent.RESUME, pause.pause(nowPs, priority) * planes + plane);
        if (pfcProbe != PfcProbe.NONE) {
            pfcProbe.onPauseInForce(nowPs, host, plane, priority, xoffSentPs, pause.pausedPs(priority, nowPs));
        }
    }

    /**
     * The run ends at {@code nowPs}: a pause still in force counts as paused time so far, and the waits behind it (of
     * the QPs with data ready, of the ACKs held in the control queue) are told now, as its end would tell them. The
     * priority stays paused.
     */
    void settle(long nowPs) {
        for (int priority = 0; priority < 8; priority++) {
            long lasted = pause.settle(nowPs, priority);
            if (lasted <= 0) {
                continue;
            }
            counters[NicCounter.RX_PAUSE_DURATION_PS.ordinal()] += lasted;
            if (priority == dataPriority && rotation != null) {
                rotation.reportPausedWaits(pfcProbe, history, nowPs, host, plane, priority, lasted,
                        pause.pausedPs(priority, nowPs));
            }
            transmitter.reportPausedControlWaits(pfcProbe, history, nowPs, plane, priority,
                    pause.pausedPs(priority, nowPs));
        }
    }

    private void resume(long nowPs, int priority) {
        long lasted = pause.resume(nowPs, priority);
        if (lasted >= 0) {
            counters[NicCounter.RX_PAUSE_DURATION_PS.ordinal()] += lasted;
            if (pfcProbe != PfcProbe.NONE) {
                pfcProbe.onPauseInForce(nowPs, host, plane, priority, -1, pause.pausedPs(priority, nowPs));
            }
            if (priority == dataPriority && rotation != null) {
                rotation.reportPausedWaits(pfcProbe, history, nowPs, host, plane, priority, lasted,
                        pause.pausedPs(priority, nowPs));
            }
            transmitter.reportPausedControlWaits(pfcProbe, history, nowPs, plane, priority,
                    pause.pausedPs(priority, nowPs));
            transmitter.kick(nowPs);
        }
    }
}
