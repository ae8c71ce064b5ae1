package rocelab.fabric.nic;

import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.topology.PlaneSelection;

/**
 * The ports of a multi-plane RNIC, one {@link Transmitter} per plane, and which one a frame leaves by. Per-QP: a
 * QP's ACKs, NAKs and CNPs take its plane, as its data does. Spraying: a control frame takes the first free port
 * after the last one used whose plane reaches its destination, else the one that frees first. A PFC frame of the
 * RNIC (its receive buffer, shared by all ports, is full) goes out on every port.
 */
final class PlanePorts implements FrameSender {
    private final Transmitter[] ports;
    private final PlaneRouting routing;
    private final QueuePairTable queuePairs;
    private final PacketPool pool;
    private final long[] counters;
    private final int host;
    private int lastControlPlane = -1;

    PlanePorts(Transmitter[] ports, PlaneRouting routing, QueuePairTable queuePairs, PacketPool pool,
            long[] counters, int host) {
        this.ports = ports;
        this.routing = routing;
        this.queuePairs = queuePairs;
        this.pool = pool;
        this.counters = counters;
        this.host = host;
    }

    @Override
    public void sendControl(long nowPs, Packet frame) {
        int plane = routing.selection() == PlaneSelection.PER_QP ? queuePairs.get(frame.queuePair()).plane
                : sprayedControlPlane(nowPs, frame.dstHost());
        ports[plane].sendControl(nowPs, frame);
    }

    private int sprayedControlPlane(long nowPs, int dst) {
        int best = -1;
        for (int k = 1; k <= ports.length; k++) {
            int p = (lastControlPlane + k + ports.length) % ports.length;
            if (!routing.usable(p, host, dst)) {
                continue;
            }
            if (ports[p].idle(nowPs)) {
                best = p;
                break;
            }
            if (best < 0 || ports[p].busyUntilPs() < ports[best].busyUntilPs()) {
                best = p;
            }
        }
        lastControlPlane = best;
        return best;
    }

    @Override
    public void sendMacControl(long nowPs, Packet frame) {
        for (int p = 1; p < ports.length; p++) {
            Packet copy = pool.acquire().initPfc(nowPs, frame.priority(), frame.pauseQuanta(), frame.frameBytes());
            counters[NicCounter.TX_PAUSE.ordinal()]++;
            ports[p].sendMacControl(nowPs, copy);
        }
        ports[0].sendMacControl(nowPs, frame);
    }

    /** Spraying: offers the shared rotation to every port, the one after the last that sent data first. */
    void kickAll(long nowPs, int lastPlane) {
        for (int k = 1; k <= ports.length; k++) {
            ports[(lastPlane + k + ports.length) % ports.length].kick(nowPs);
        }
    }
}
