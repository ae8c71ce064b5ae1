package rocelab.fabric.network;

import java.util.List;
import rocelab.fabric.topology.Topology;

/**
 * One shortest path between two hosts as directed links: at every node the lowest-numbered port that gets one hop
 * closer. A directed link is {@code 2 * edge + 0} from the edge's end a to end b and {@code 2 * edge + 1} back, as
 * {@link Network#link} numbers them. Used where the path's rates and delays matter but not which ECMP branch.
 */
public final class ShortestPath {
    private ShortestPath() {}

    /** The directed link leaving {@code node} by {@code port}. */
    public static int directedLink(Topology topology, int node, int port) {
        Topology.Edge e = topology.edgeAt(node, port);
        boolean fromA = e.a().node() == node && e.a().port() == port;
        return 2 * e.index() + (fromA ? 0 : 1);
    }

    /**
     * Fills {@code links} with the path from {@code src} to {@code dst} given each node's hop distance to
     * {@code dst} (from {@link Topology#distancesTo}); returns the number of links.
     */
    public static int walk(Topology topology, int[] distToDst, int src, int dst, int[] links) {
        int node = src;
        int hops = 0;
        while (node != dst) {
            int next = -1;
            for (int p = 0; p < topology.portCount(node) && next < 0; p++) {
                Topology.End far = topology.peer(node, p);
                boolean relay = !topology.isHost(far.node()) || far.node() == dst;
                if (relay && distToDst[far.node()] == distToDst[node] - 1) {
                    next = far.node();
                    links[hops] = directedLink(topology, node, p);
                }
            }
            if (next < 0) {
                throw new IllegalStateException("no path from h" + src + " to h" + dst);
            }
            node = next;
            hops++;
        }
        return hops;
    }

    /** Every directed link's rate, by directed link (both directions of an edge have the edge's rate). */
    public static long[] rates(Topology topology) {
        List<Topology.Edge> edges = topology.edges();
        long[] r = new long[2 * edges.size()];
        for (Topology.Edge e : edges) {
            r[2 * e.index()] = e.parameters().rateBps();
            r[2 * e.index() + 1] = e.parameters().rateBps();
        }
        return r;
    }

    /** Every directed link's propagation delay, by directed link. */
    public static long[] delays(Topology topology) {
        List<Topology.Edge> edges = topology.edges();
        long[] d = new long[2 * edges.size()];
        for (Topology.Edge e : edges) {
            d[2 * e.index()] = e.parameters().delayPs();
            d[2 * e.index() + 1] = e.parameters().delayPs();
        }
        return d;
    }
}
