package rocelab.observe.victim;

import java.util.ArrayList;
import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;

/**
 * Whether a place is on a flow's own round trip: the flow's receiver or sender, or a switch port its data leave by on
 * their way to the receiver, or its ACKs on their way back (a switch's buffer, with no port: a switch they cross). The
 * way is followed from the sending host through the switches' current routes (the ECMP choice for the QP's entropy, or
 * every equal-cost port where a switch spreads load), so a switch the flow never crosses is not on its way even when
 * its routes towards the flow's receiver use the port.
 */
public final class FlowPaths {
    private final Network network;
    private final Topology topo;
    /** Per node, the walk that last visited it: a switch forwards the same whatever way a packet came in. */
    private final int[] visited;
    private int walk;

    public FlowPaths(Network network) {
        this.network = network;
        this.topo = network.topology();
        this.visited = new int[topo.nodeCount()];
    }

    /**
     * Whether (node, port) is on the round trip of {@code queuePair}. A switch with no port to tell (-1: its buffer)
     * is on it when the flow's data or ACKs pass through that switch.
     */
    public boolean onRoundTrip(int queuePair, int node, int port) {
        QueuePairTable qps = network.queuePairs();
        int src = qps.sourceHost(queuePair);
        int dst = qps.destinationHost(queuePair);
        if (topo.isHost(node)) {
            return dst == node || src == node;
        }
        int entropy = qps.entropy(queuePair);
        if (port < 0) {
            return leavesBy(src, dst, entropy, node, -1) || leavesBy(dst, src, entropy, node, -1);
        }
        // Cheap first: a switch that would not send the flow's data or ACKs by that port is off its way, wherever
        // they come from; only one that would is walked to, to see that the flow passes there at all.
        Switch at = network.switchAt(node - topo.hostCount());
        return at.forwardsThrough(src, dst, entropy, port) && leavesBy(src, dst, entropy, node, port)
                || at.forwardsThrough(dst, src, entropy, port) && leavesBy(dst, src, entropy, node, port);
    }

    /**
     * The switch ports the data of {@code queuePair} leave by on their way to its receiver, under the switches'
     * current routes: the ECMP choice for the QP's entropy, or every equal-cost port where a switch may spread them
     * (so more, never fewer, than the packets took), each as {switch index, port}, once, in walk order.
     */
    public List<int[]> dataPorts(int queuePair) {
        QueuePair qp = network.queuePairs().get(queuePair);
        int src = qp.sourceHost();
        int dst = qp.destinationHost();
        List<int[]> out = new ArrayList<>();
        walk++;
        for (int p = 0; p < topo.portCount(src); p++) {
            collect(topo.peer(src, p).node(), src, dst, qp.entropy(), out);
        }
        return out;
    }

    private void collect(int at, int from, int to, int entropy, List<int[]> out) {
        if (topo.isHost(at) || visited[at] == walk) {
            return;
        }
        visited[at] = walk;
        int s = at - topo.hostCount();
        Switch sw = network.switchAt(s);
        int one = sw.forwardingPort(from, to, entropy);
        for (int out1 : one >= 0 ? new int[] {one} : sw.candidates(to)) {
            if (one >= 0 || sw.forwardsThrough(from, to, entropy, out1)) {
                out.add(new int[] {s, out1});
                collect(topo.peer(at, out1).node(), from, to, entropy, out);
            }
        }
    }

    /**
     * Whether packets from {@code from} to {@code to} with {@code entropy} leave switch {@code node} by {@code port}
     * (-1: by any port, they pass through it).
     */
    private boolean leavesBy(int from, int to, int entropy, int node, int port) {
        walk++;
        for (int p = 0; p < topo.portCount(from); p++) {
            if (leavesBy(topo.peer(from, p).node(), from, to, entropy, node, port)) {
                return true;
            }
        }
        return false;
    }

    /** The walk on from switch {@code at}, each switch visited once. */
    private boolean leavesBy(int at, int from, int to, int entropy, int node, int port) {
        if (topo.isHost(at) || visited[at] == walk) {
            return false;
        }
        visited[at] = walk;
        if (at == node && port < 0) {
            return true;
        }
        Switch sw = network.switchAt(at - topo.hostCount());
        int one = sw.forwardingPort(from, to, entropy);
        if (one >= 0) {
            // A hashing switch: one hash, not one per equal-cost port.
            return at == node && one == port || leavesBy(topo.peer(at, one).node(), from, to, entropy, node, port);
        }
        for (int out : sw.candidates(to)) {
            if (!sw.forwardsThrough(from, to, entropy, out)) {
                continue;
            }
            if (at == node && out == port
                    || leavesBy(topo.peer(at, out).node(), from, to, entropy, node, port)) {
                return true;
            }
        }
        return false;
    }
}
