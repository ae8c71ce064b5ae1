package rocelab.fabric.nic;

import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;

/**
 * Fault injection: for a while the RNIC behaves as if its receive pipeline were stuck, sending PFC XOFF for one
 * priority to its switch and refreshing it every half pause (a pause storm), then XON.
 */
final class PauseStorm {
    private final Simulator sim;
    private final int handlerId;
    private final long lineRateBps;
    private final FrameFormat frames;
    private final PacketPool pool;
    private final long[] counters;
    private final FrameSender transmitter;
    private long endPs;
    private int priority;
    /** When the storm's first XOFF was sent (-1: not yet, or no storm). */
    private long firstXoffPs = -1;

    PauseStorm(Simulator sim, int handlerId, long lineRateBps, FrameFormat frames, PacketPool pool, long[] counters,
            FrameSender transmitter) {
        this.sim = sim;
        this.handlerId = handlerId;
        this.lineRateBps = lineRateBps;
        this.frames = frames;
        this.pool = pool;
        this.counters = counters;
        this.transmitter = transmitter;
    }

    void schedule(long startPs, long endPs, int priority) {
        this.endPs = endPs;
        this.priority = priority;
        sim.schedule(startPs, handlerId, NicEvent.STORM, 0L);
    }

    /** When the storm's first XOFF went out, -1 if none did. */
    long firstXoffPs() {
        return firstXoffPs;
    }

    /** The priority the storm pauses. */
    int priority() {
        return priority;
    }

    void onWakeUp(long nowPs) {
        boolean on = nowPs < endPs;
        if (on && firstXoffPs < 0) {
            firstXoffPs = nowPs;
        }
        Packet frame = pool.acquire().initPfc(nowPs, priority, on ? 0xFFFF : 0, frames.pfcFrameBytes());
        counters[NicCounter.TX_PAUSE.ordinal()]++;
        transmitter.sendMacControl(nowPs, frame);
        if (on) {
            long half = Headroom.pauseDurationPs(0xFFFF, lineRateBps) / 2;
            sim.schedule(Math.min(nowPs + half, endPs), handlerId, NicEvent.STORM, 0L);
        }
    }
}
