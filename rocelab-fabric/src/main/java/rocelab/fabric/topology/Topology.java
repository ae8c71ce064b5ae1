package rocelab.fabric.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The graph of a fabric: hosts (RNIC endpoints) are nodes {@code 0..hostCount-1}, switches follow. Each node's
 * ports are numbered in the order its links were added. Built once during assembly, never on the hot path.
 */
public final class Topology {
    /** One end of a link: a node and its local port number. */
    public record End(int node, int port) {}

    /** A full-duplex link between two node ports. */
    public record Edge(int index, End a, End b, LinkParameters parameters) {}

    private final int hostCount;
    private final List<String> switchNames = new ArrayList<>();
    private final List<Integer> switchTiers = new ArrayList<>();
    private final List<List<Edge>> portsByNode = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final int[] serverOfHost;

    public Topology(int hostCount) {
        if (hostCount < 1) {
            throw new IllegalArgumentException("a topology needs at least one host");
        }
        this.hostCount = hostCount;
        this.serverOfHost = new int[hostCount];
        for (int h = 0; h < hostCount; h++) {
            portsByNode.add(new ArrayList<>());
            serverOfHost[h] = h;
        }
    }

    public int addSwitch(String name, int tier) {
        switchNames.add(name);
        switchTiers.add(tier);
        portsByNode.add(new ArrayList<>());
        return hostCount + switchNames.size() - 1;
    }

    public Edge addLink(int nodeA, int nodeB, LinkParameters parameters) {
        if (nodeA == nodeB) {
            throw new IllegalArgumentException("a link cannot connect " + nodeName(nodeA) + " to itself");
        }
        if (isHost(nodeA) && isHost(nodeB)) {
            throw new IllegalArgumentException("hosts must connect through switches: " + nodeName(nodeA) + " - "
                    + nodeName(nodeB));
        }
        if (isHost(nodeA) && !portsByNode.get(nodeA).isEmpty() || isHost(nodeB) && !portsByNode.get(nodeB).isEmpty()) {
            throw new IllegalArgumentException("a host (RNIC) has exactly one port; "
                    + (isHost(nodeA) && !portsByNode.get(nodeA).isEmpty() ? nodeName(nodeA) : nodeName(nodeB))
                    + " is already connected");
        }
        End a = new End(nodeA, portsByNode.get(nodeA).size());
        End b = new End(nodeB, portsByNode.get(nodeB).size());
        Edge e = new Edge(edges.size(), a, b, parameters);
        portsByNode.get(nodeA).add(e);
        portsByNode.get(nodeB).add(e);
        edges.add(e);
        return e;
    }

    void setServer(int host, int server) {
        serverOfHost[host] = server;
    }

    public int hostCount() {
        return hostCount;
    }

    public int switchCount() {
        return switchNames.size();
    }

    public int nodeCount() {
        return hostCount + switchNames.size();
    }

    public boolean isHost(int node) {
        return node < hostCount;
    }

    /** The server a host's RNIC belongs to (several RNICs per server in rail-optimised fabrics). */
    public int serverOf(int host) {
        return serverOfHost[host];
    }

    public String nodeName(int node) {
        return isHost(node) ? "h" + node : switchNames.get(node - hostCount);
    }

    public int switchTier(int node) {
        return switchTiers.get(node - hostCount);
    }

    public int portCount(int node) {
        return portsByNode.get(node).size();
    }

    public Edge edgeAt(int node, int port) {
        return portsByNode.get(node).get(port);
    }

    /** The node and port at the far end of {@code node}'s port. */
    public End peer(int node, int port) {
        Edge e = edgeAt(node, port);
        return e.a().node() == node && e.a().port() == port ? e.b() : e.a();
    }

    /** The node with this name ({@code h3}, {@code leaf0}, ...), or -1. */
    public int nodeByName(String name) {
        for (int n = 0; n < nodeCount(); n++) {
            if (nodeName(n).equals(name)) {
                return n;
            }
        }
        return -1;
    }

    public List<Edge> edges() {
        return List.copyOf(edges);
    }

    /** Hosts that cannot reach host 0 (empty when the fabric is connected); hosts never forward. */
    public List<Integer> unreachableHosts() {
        int[] dist = distancesTo(0);
        List<Integer> out = new ArrayList<>();
        for (int h = 0; h < hostCount; h++) {
            if (dist[h] < 0) {
                out.add(h);
            }
        }
        return out;
    }

    /** Hop distance from every node to host {@code dst}; -1 when unreachable. Only switches relay. */
    public int[] distancesTo(int dst) {
        return distancesTo(dst, null);
    }

    /** As {@link #distancesTo(int)}, ignoring the links marked in {@code down} (by edge index; null: none). */
    public int[] distancesTo(int dst, boolean[] down) {
        int[] dist = new int[nodeCount()];
        Arrays.fill(dist, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        dist[dst] = 0;
        queue.add(dst);
        while (!queue.isEmpty()) {
            int n = queue.poll();
            if (isHost(n) && n != dst) {
                continue;
            }
            for (Edge e : portsByNode.get(n)) {
                if (down != null && down[e.index()]) {
                    continue;
                }
                int m = e.a().node() == n ? e.b().node() : e.a().node();
                if (dist[m] < 0) {
                    dist[m] = dist[n] + 1;
                    queue.add(m);
                }
            }
        }
        return dist;
    }

    /**
     * Equal-cost next hops: for each switch (index {@code node - hostCount}) and destination host, the local ports
     * that lie on a shortest path, in port order. Identical port sets are shared to keep the table small.
     */
    public int[][][] shortestPathPorts() {
        return shortestPathPorts(null);
    }

    /** As {@link #shortestPathPorts()}, routing around the links marked in {@code down} (null: none). */
    public int[][][] shortestPathPorts(boolean[] down) {
        int[][][] table = new int[switchCount()][hostCount][];
        java.util.Map<String, int[]> interned = new java.util.HashMap<>();
        for (int dst = 0; dst < hostCount; dst++) {
            int[] dist = distancesTo(dst, down);
            for (int s = 0; s < switchCount(); s++) {
                int node = hostCount + s;
                if (dist[node] < 0) {
                    table[s][dst] = new int[0];
                    continue;
                }
                List<Edge> ports = portsByNode.get(node);
                int[] tmp = new int[ports.size()];
                int n = 0;
                for (int p = 0; p < ports.size(); p++) {
                    if (down != null && down[ports.get(p).index()]) {
                        continue;
                    }
                    End far = peer(node, p);
                    boolean relay = !isHost(far.node()) || far.node() == dst;
                    if (relay && dist[far.node()] == dist[node] - 1) {
                        tmp[n++] = p;
                    }
                }
                int[] set = Arrays.copyOf(tmp, n);
                table[s][dst] = interned.computeIfAbsent(Arrays.toString(set), k -> set);
            }
        }
        return table;
    }
}
