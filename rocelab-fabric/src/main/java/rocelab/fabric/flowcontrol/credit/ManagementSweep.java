package rocelab.fabric.flowcontrol.credit;

import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.switching.Switch;

/**
 * The subnet manager's periodic sweep as traffic on VL15, the management lane: every interval each switch port
 * sends one subnet management packet (a 256-byte MAD) to the device on its other end. VL15 is not flow-controlled
 * and goes ahead of every data lane (the port's control queue), so management reaches a device even when every
 * data lane toward it has run out of credits. One pending wake-up: the next sweep.
 */
public final class ManagementSweep implements EventHandler {
    private final Simulator sim;
    private final int handlerId;
    private final long intervalPs;
    private final Switch[] switches;
    private final PacketPool pool;
    private final int frameBytes;
    private long sent;

    public ManagementSweep(Simulator sim, long intervalPs, Switch[] switches, PacketPool pool, FrameFormat frames) {
        if (intervalPs <= 0) {
            throw new IllegalArgumentException("the sweep interval must be positive");
        }
        this.sim = sim;
        this.intervalPs = intervalPs;
        this.switches = switches.clone();
        this.pool = pool;
        this.frameBytes = frames.managementFrameBytes();
        this.handlerId = sim.register(this);
        sim.schedule(intervalPs, handlerId, 0, 0L);
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        for (Switch sw : switches) {
            for (int p = 0; p < sw.portCount(); p++) {
                sw.port(p).sendControl(nowPs, pool.acquire().initManagement(nowPs, frameBytes));
                sent++;
            }
        }
        sim.schedule(nowPs + intervalPs, handlerId, 0, 0L);
    }

    /** Subnet management packets sent so far. */
    public long sent() {
        return sent;
    }
}
