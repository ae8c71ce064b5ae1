package rocelab.observe.pfc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;

/**
 * Likely victims of PFC head-of-line blocking: flows that were slowed (slowdown >= 2) although they do not go to a
 * congested receiver, i.e. a host whose switch port had a queue of at least half the run's deepest one. Such a flow
 * was held back by pauses meant for other traffic sharing its upstream queues.
 */
public final class PfcVictims {
    /** Slowdown at or above which a flow counts as harmed. */
    public static final double MIN_SLOWDOWN = 2.0;

    private PfcVictims() {}

    public static List<FlowRecord> find(Network network, List<FlowRecord> flows) {
        Topology topo = network.topology();
        long deepest = 0;
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                deepest = Math.max(deepest, sw.port(p).peakQueuedBytes());
            }
        }
        boolean[] hotReceiver = new boolean[topo.hostCount()];
        for (int s = 0; s < network.switchCount(); s++) {
            Switch sw = network.switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                int peer = topo.peer(sw.nodeId(), p).node();
                if (topo.isHost(peer) && deepest > 0 && sw.port(p).peakQueuedBytes() * 2 >= deepest) {
                    hotReceiver[peer] = true;
                }
            }
        }
        List<FlowRecord> victims = new ArrayList<>();
        for (FlowRecord f : flows) {
            if (f.completed() && !hotReceiver[f.dst()] && f.slowdown() >= MIN_SLOWDOWN) {
                victims.add(f);
            }
        }
        victims.sort(Comparator.comparingDouble(FlowRecord::slowdown).reversed());
        return victims;
    }
}
