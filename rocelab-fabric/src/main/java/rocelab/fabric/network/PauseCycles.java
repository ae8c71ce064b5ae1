package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.List;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.Topology;

/**
 * Finds a PFC deadlock: a cycle of egress queues, each paused by its peer and holding packets, where the peer
 * cannot resume it because its own queues that would drain that ingress are paused too (a cyclic buffer
 * dependency). On InfiniBand the same with credits (a credit loop): a cycle of lanes whose head packet the peer's
 * credits do not cover, the peer's input buffer full of packets for lanes that wait for credits in turn. Run when a
 * simulation has stalled, not on the hot path.
 */
public final class PauseCycles {
    private PauseCycles() {}

    /**
     * One cycle of held queues: their names in order ({@code spine0/p2->leaf1 prio 3}), and how long after it closed a
     * PFC watchdog on one of its queues has declared a pause storm at the latest, ending the cycle (its queue stops
     * honouring the pause: {@link Switch#watchdogActsWithinPs}); -1 when none of them runs one, and nothing in the
     * fabric will move them again.
     */
    public record Cycle(List<String> queues, long watchdogActsWithinPs) {
        static final Cycle NONE = new Cycle(List.of(), -1);

        public boolean isEmpty() {
            return queues.isEmpty();
        }

        /** Whether a PFC watchdog on one of its queues will break it. */
        public boolean watched() {
            return watchdogActsWithinPs >= 0;
        }
    }

    /** One cycle of held queues, or {@link Cycle#isEmpty() an empty one} when there is none. */
    public static Cycle find(Network network) {
        Topology topo = network.topology();
        int hosts = topo.hostCount();
        int switches = network.switchCount();
        List<int[]> nodes = new ArrayList<>();
        int[][][] index = new int[switches][][];
        for (int s = 0; s < switches; s++) {
            Switch sw = network.switchAt(s);
            index[s] = new int[sw.portCount()][8];
            for (int p = 0; p < sw.portCount(); p++) {
                for (int prio = 0; prio < 8; prio++) {
                    EgressPort port = sw.port(p);
                    index[s][p][prio] = -1;
                    if (held(port, prio)) {
                        index[s][p][prio] = nodes.size();
                        nodes.add(new int[] {s, p, prio});
                    }
                }
            }
        }
        int n = nodes.size();
        List<List<Integer>> next = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] v = nodes.get(i);
            List<Integer> out = new ArrayList<>();
            Topology.End far = topo.peer(hosts + v[0], v[1]);
            if (!topo.isHost(far.node())) {
                int t = far.node() - hosts;
                for (int p = 0; p < network.switchAt(t).portCount(); p++) {
                    if (p != far.port() && index[t][p][v[2]] >= 0) {
                        out.add(index[t][p][v[2]]);
                    }
                }
            }
            next.add(out);
        }
        int[] state = new int[n];
        int[] parent = new int[n];
        for (int start = 0; start < n; start++) {
            List<Integer> cycle = dfs(start, next, state, parent);
            if (cycle != null) {
                // From its lowest switch and port on, whichever queue the search met first: the PFC log names a cycle
                // of pauses the same way, so the two can be read side by side.
                int first = 0;
                for (int k = 1; k < cycle.size(); k++) {
                    int[] a = nodes.get(cycle.get(k));
                    int[] m = nodes.get(cycle.get(first));
                    if (a[0] < m[0] || a[0] == m[0] && a[1] < m[1]) {
                        first = k;
                    }
                }
                List<String> names = new ArrayList<>();
                long watchdog = -1;
                for (int k = 0; k < cycle.size(); k++) {
                    int[] v = nodes.get(cycle.get((first + k) % cycle.size()));
                    Switch sw = network.switchAt(v[0]);
                    names.add(sw.name() + "/p" + v[1] + "->" + topo.nodeName(topo.peer(sw.nodeId(), v[1]).node())
                            + (sw.port(v[1]).creditGate() != null ? " VL " : " prio ") + v[2]);
                    long within = sw.port(v[1]).creditGate() != null ? -1 : sw.watchdogActsWithinPs(v[2]);
                    if (within >= 0 && (watchdog < 0 || within < watchdog)) {
                        watchdog = within;
                    }
                }
                return new Cycle(List.copyOf(names), watchdog);
            }
        }
        return Cycle.NONE;
    }

    /**
     * Whether the queue of class {@code c} (a lane, on InfiniBand) holds packets that may not leave: paused by the
     * peer's PFC, or, with credits, a head packet the peer's buffer has not granted room for.
     */
    private static boolean held(EgressPort port, int c) {
        if (port.queuedBytes(c) == 0) {
            return false;
        }
        var gate = port.creditGate();
        return gate == null ? port.isPaused(c) : !gate.canSend(c, port.firstQueued(c).frameBytes());
    }

    /** Iterative depth-first search; returns the nodes of the first back edge's cycle. */
    private static List<Integer> dfs(int start, List<List<Integer>> next, int[] state, int[] parent) {
        if (state[start] != 0) {
            return null;
        }
        int[] stack = new int[next.size() + 1];
        int[] edge = new int[next.size()];
        int top = 0;
        stack[top++] = start;
        state[start] = 1;
        parent[start] = -1;
        while (top > 0) {
            int v = stack[top - 1];
            if (edge[v] < next.get(v).size()) {
                int w = next.get(v).get(edge[v]++);
                if (state[w] == 1) {
                    List<Integer> cycle = new ArrayList<>();
                    for (int x = v; x != w; x = parent[x]) {
                        cycle.add(0, x);
                    }
                    cycle.add(0, w);
                    return cycle;
                }
                if (state[w] == 0) {
                    state[w] = 1;
                    parent[w] = v;
                    stack[top++] = w;
                }
            } else {
                state[v] = 2;
                top--;
            }
        }
        return null;
    }
}
