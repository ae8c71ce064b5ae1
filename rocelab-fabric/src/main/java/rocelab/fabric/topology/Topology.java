package rocelab.fabric.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    private final List<Integer> switchPlanes = new ArrayList<>();
    /** Ports per host: 1, or P on a multi-plane fabric (port p attached to plane p). */
    private int planes = 1;
    private PlaneSelection planeSelection = PlaneSelection.PER_QP;
    private final List<List<Edge>> portsByNode = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private final int[] serverOfHost;
    /** The routes without failed links, computed on first use; cleared when the graph changes. */
    private int[][][] routes;
    /** Node ids by name, built on first use; cleared when the graph changes. */
    private Map<String, Integer> byName;

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
        return addSwitch(name, tier, 0);
    }

    /** A switch of plane {@code plane} (0 on a single-plane fabric). */
    public int addSwitch(String name, int tier, int plane) {
        if (plane < 0 || plane >= planes) {
            throw new IllegalArgumentException("plane " + plane + " is outside 0.." + (planes - 1));
        }
        routes = null;
        byName = null;
        switchNames.add(name);
        switchTiers.add(tier);
        switchPlanes.add(plane);
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
        if (planes == 1 && (isHost(nodeA) && !portsByNode.get(nodeA).isEmpty()
                || isHost(nodeB) && !portsByNode.get(nodeB).isEmpty())) {
            throw new IllegalArgumentException("a host (RNIC) has exactly one port; "
                    + (isHost(nodeA) && !portsByNode.get(nodeA).isEmpty() ? nodeName(nodeA) : nodeName(nodeB))
                    + " is already connected");
        }
        if (planes > 1) {
            int host = isHost(nodeA) ? nodeA : isHost(nodeB) ? nodeB : -1;
            int sw = host == nodeA ? nodeB : nodeA;
            if (host >= 0 && planeOf(sw) != portsByNode.get(host).size()) {
                throw new IllegalArgumentException("port " + portsByNode.get(host).size() + " of " + nodeName(host)
                        + " belongs to plane " + portsByNode.get(host).size() + ", not to " + nodeName(sw)
                        + "'s plane " + planeOf(sw));
            }
            if (host < 0 && planeOf(nodeA) != planeOf(nodeB)) {
                throw new IllegalArgumentException("planes are independent: " + nodeName(nodeA) + " and "
                        + nodeName(nodeB) + " are in different planes");
            }
        }
        routes = null;
        End a = new End(nodeA, portsByNode.get(nodeA).size());
        End b = new End(nodeB, portsByNode.get(nodeB).size());
        Edge e = new Edge(edges.size(), a, b, parameters);
        portsByNode.get(nodeA).add(e);
        portsByNode.get(nodeB).add(e);
        edges.add(e);
        return e;
    }

    /** Gives link {@code index} new parameters (a per-link override, while the fabric is being built). */
    public void setLinkParameters(int index, LinkParameters parameters) {
        Edge old = edges.get(index);
        Edge e = new Edge(index, old.a(), old.b(), parameters);
        edges.set(index, e);
        portsByNode.get(old.a().node()).set(old.a().port(), e);
        portsByNode.get(old.b().node()).set(old.b().port(), e);
        routes = null; // routes count hops only, but a table made before must not outlive the graph it was made of
    }

    /**
     * Makes this a fabric of {@code count} independent planes, each host's RNIC with one port per plane (port p on
     * plane p), spreading its traffic as {@code selection} says. Call before adding anything.
     */
    public void planes(int count, PlaneSelection selection) {
        if (count < 1) {
            throw new IllegalArgumentException("planes must be >= 1, got " + count);
        }
        if (!switchNames.isEmpty() || !edges.isEmpty()) {
            throw new IllegalStateException("set the planes before adding switches and links");
        }
        this.planes = count;
        this.planeSelection = selection;
    }

    /** Independent planes of the fabric (1: an ordinary fabric); each host has one port on each. */
    public int planes() {
        return planes;
    }

    /** How the RNICs spread their traffic over the planes (meaningful when {@link #planes()} > 1). */
    public PlaneSelection planeSelection() {
        return planeSelection;
    }

    /** The plane a switch belongs to; a host's port p is on plane p. */
    public int planeOf(int switchNode) {
        return switchPlanes.get(switchNode - hostCount);
    }

    /** A host RNIC's total rate: the sum of its ports (one per plane). */
    public long hostRateBps(int host) {
        long r = 0;
        for (Edge e : portsByNode.get(host)) {
            r += e.parameters().rateBps();
        }
        return r;
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
        if (byName == null) {
            Map<String, Integer> names = new HashMap<>();
            for (int n = nodeCount() - 1; n >= 0; n--) {
                names.put(nodeName(n), n); // the first node of a name wins, as a search from 0 would find it
            }
            byName = names;
        }
        return byName.getOrDefault(name, -1);
    }

    /** Every link, in the order added (a read-only view: indexing it costs nothing). */
    public List<Edge> edges() {
        return Collections.unmodifiableList(edges);
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
     * that lie on a shortest path, in port order. Identical port sets are shared to keep the table small. Computed
     * once and kept (the table is read only); building the topology further discards it.
     */
    public int[][][] shortestPathPorts() {
        if (routes == null) {
            routes = shortestPathPorts(null);
        }
        return routes;
    }

    /**
     * As {@link #shortestPathPorts()}, routing around the links marked in {@code down} (null: none). Hosts never
     * relay, so a switch's next hops towards a host other than one of its own depend only on the switch the host
     * hangs off: one breadth-first search per such switch (leaf), not one per host, and one port set per (switch,
     * leaf). Work grows with leaves x links and the table with switches x hosts, never with hosts squared.
     */
    public int[][][] shortestPathPorts(boolean[] down) {
        int switches = switchCount();
        int[][][] table = new int[switches][hostCount][];
        Map<PortSet, int[]> interned = new HashMap<>();
        int[] empty = new int[0];
        // The switch each host's port on each plane hangs off (-1: no port or a failed link).
        int[][] leafOf = new int[planes][hostCount];
        int[] leafSlot = new int[nodeCount()];
        Arrays.fill(leafSlot, -1);
        List<Integer> leaves = new ArrayList<>();
        for (int h = 0; h < hostCount; h++) {
            List<Edge> ports = portsByNode.get(h);
            for (int plane = 0; plane < planes; plane++) {
                if (ports.size() <= plane || down != null && down[ports.get(plane).index()]) {
                    leafOf[plane][h] = -1;
                    continue;
                }
                int leaf = peer(h, plane).node();
                leafOf[plane][h] = leaf;
                if (leafSlot[leaf] < 0) {
                    leafSlot[leaf] = leaves.size();
                    leaves.add(leaf);
                }
            }
        }
        // Each switch port's far node, or -1 for a port towards a host or on a failed link (neither relays here).
        int[][] far = new int[nodeCount()][];
        for (int node = hostCount; node < nodeCount(); node++) {
            List<Edge> ports = portsByNode.get(node);
            far[node] = new int[ports.size()];
            for (int p = 0; p < ports.size(); p++) {
                int m = peer(node, p).node();
                far[node][p] = isHost(m) || down != null && down[ports.get(p).index()] ? -1 : m;
            }
        }
        int[][][] viaLeaf = new int[leaves.size()][][];
        int[] tmp = new int[maxPortCount()];
        int[][] previous = new int[switches][];
        int[] dist = new int[nodeCount()];
        int[] queue = new int[nodeCount()];
        for (int i = 0; i < leaves.size(); i++) {
            int leaf = leaves.get(i);
            switchDistancesTo(leaf, far, dist, queue);
            int[][] bySwitch = new int[switches][];
            for (int s = 0; s < switches; s++) {
                int node = hostCount + s;
                if (node == leaf || dist[node] < 0) {
                    continue;
                }
                int[] ports = far[node];
                int n = 0;
                for (int p = 0; p < ports.length; p++) {
                    if (ports[p] >= 0 && dist[ports[p]] == dist[node] - 1) {
                        tmp[n++] = p;
                    }
                }
                // Most switches keep the same next hops from one leaf to the next (a leaf's uplinks): reuse them
                // without hashing.
                int[] set = previous[s] != null && Arrays.equals(previous[s], 0, previous[s].length, tmp, 0, n)
                        ? previous[s] : intern(interned, Arrays.copyOf(tmp, n));
                bySwitch[s] = set;
                previous[s] = set;
            }
            viaLeaf[i] = bySwitch;
        }
        int[] planeOfSwitch = new int[switches];
        for (int s = 0; s < switches; s++) {
            planeOfSwitch[s] = switchPlanes.get(s);
        }
        for (int dst = 0; dst < hostCount; dst++) {
            for (int s = 0; s < switches; s++) {
                int node = hostCount + s;
                int plane = planeOfSwitch[s];
                int leaf = leafOf[plane][dst];
                int[][] bySwitch = leaf < 0 ? null : viaLeaf[leafSlot[leaf]];
                if (leaf < 0) {
                    table[s][dst] = empty;
                } else if (node == leaf) {
                    table[s][dst] = intern(interned, new int[] {peer(dst, plane).port()});
                } else {
                    table[s][dst] = bySwitch[s] == null ? empty : bySwitch[s];
                }
            }
        }
        return table;
    }

    /** Port sets compared by content, for sharing equal sets. */
    private record PortSet(int[] ports) {
        @Override
        public boolean equals(Object o) {
            return o instanceof PortSet p && Arrays.equals(ports, p.ports);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ports);
        }
    }

    private static int[] intern(Map<PortSet, int[]> interned, int[] set) {
        return interned.computeIfAbsent(new PortSet(set), k -> set);
    }

    private int maxPortCount() {
        int max = 1;
        for (List<Edge> ports : portsByNode) {
            max = Math.max(max, ports.size());
        }
        return max;
    }

    /**
     * Hop distance from every switch to switch {@code target} through switches only, into {@code dist} (-1:
     * unreachable, and for hosts); {@code far} gives each switch port's far switch or -1.
     */
    private void switchDistancesTo(int target, int[][] far, int[] dist, int[] queue) {
        Arrays.fill(dist, -1);
        int head = 0;
        int tail = 0;
        dist[target] = 0;
        queue[tail++] = target;
        while (head < tail) {
            int n = queue[head++];
            for (int m : far[n]) {
                if (m >= 0 && dist[m] < 0) {
                    dist[m] = dist[n] + 1;
                    queue[tail++] = m;
                }
            }
        }
    }
}
