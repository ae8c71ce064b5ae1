package rocelab.fabric.network;

import java.util.Arrays;
import rocelab.fabric.topology.Topology;

/**
 * The best a message from one host to another can find among all the paths the switches may choose for it, hop by
 * hop: for the k-th link of its way, the fastest rate and the shortest delay among the k-th links of every
 * equal-cost shortest path (every link up, every plane). All those paths have the same number of links, so this is
 * one array of rates and one of delays, as {@link PathTiming} takes them.
 *
 * <p>Why not one path: which path a QP takes depends on a hash (or, spraying, on every packet), and a lower bound
 * must hold for every choice. The switches' first path is not a bound: with one of two spine uplinks slowed, a flow
 * hashed onto the other ran faster than the first path's closed form, and the slowed link showed as "at ideal" or as
 * 4x slow depending on which spine it was numbered on. Each {@link PathTiming} time is non-increasing in every rate
 * and non-decreasing in every delay (serialisation at the slowest link, the store-and-forward grid's longest walk,
 * propagation, the ACK's way back), so the times over these best links are no later than over any one path's. Where
 * the equal-cost links at each hop are alike (every uniform fabric) the best links are any path's, and the time is
 * that path's to the picosecond.
 */
public final class BestPath {
    private final Topology topology;
    /** The switches' equal-cost next hops towards each host with every link up (switch index, host, ports). */
    private final int[][][] routes;
    /** The nodes the current hop starts from, and those it reaches; {@code seen} stamps the latter per hop. */
    private int[] level;
    private int[] next;
    private final int[] seen;
    private int stamp;

    public BestPath(Topology topology) {
        this.topology = topology;
        this.routes = topology.shortestPathPorts();
        this.level = new int[8];
        this.next = new int[8];
        this.seen = new int[topology.nodeCount()];
    }

    /**
     * Fills {@code rates} and {@code delays} with the best rate and delay at each hop from {@code src} to {@code dst}
     * (arrays at least {@link Topology#nodeCount()} long, the most hops a shortest path can have); returns the
     * number of hops.
     *
     * @throws IllegalStateException when no path joins them (a fabric that is not connected)
     */
    public int fill(int src, int dst, long[] rates, long[] delays) {
        int hosts = topology.hostCount();
        int size = 1;
        level[0] = src;
        int hops = 0;
        while (true) {
            long rate = 0;
            long delay = Long.MAX_VALUE;
            int reached = 0;
            boolean arrived = false;
            if (++stamp == 0) { // wrapped: an old stamp could pass for this hop's
                Arrays.fill(seen, 0);
                stamp = 1;
            }
            for (int i = 0; i < size; i++) {
                int node = level[i];
                int[] ports = topology.isHost(node) ? hostPorts(node, dst) : routes[node - hosts][dst];
                for (int p : ports == null ? NONE : ports) {
                    Topology.Edge edge = topology.edgeAt(node, p);
                    rate = Math.max(rate, edge.parameters().rateBps());
                    delay = Math.min(delay, edge.parameters().delayPs());
                    int far = topology.peer(node, p).node();
                    if (far == dst) {
                        arrived = true;
                    } else if (!topology.isHost(far) && seen[far] != stamp) {
                        seen[far] = stamp;
                        if (reached == next.length) {
                            next = Arrays.copyOf(next, reached * 2);
                        }
                        next[reached++] = far;
                    }
                }
            }
            if (rate == 0 || hops >= topology.nodeCount()) {
                throw new IllegalStateException("no path from " + topology.nodeName(src) + " to "
                        + topology.nodeName(dst));
            }
            rates[hops] = rate;
            delays[hops] = delay;
            hops++;
            if (arrived) {
                // Every equal-cost path has as many links, so the first arrival is every path's.
                return hops;
            }
            int[] t = level;
            level = next;
            next = t;
            size = reached;
            if (next.length < level.length) {
                next = Arrays.copyOf(next, level.length);
            }
        }
    }

    /**
     * The ports a message may leave its host by: every one that reaches a switch or {@code dst} itself (every plane's,
     * on a multi-plane RNIC). Ports to a switch farther from {@code dst} are let in too: a longer way is as good at
     * each of its first hops as what it adds to the sets, and ends later than the shortest one this stops at, so the
     * times stay a bound (and a host's walk needs no distances, which would cost a search per message).
     */
    private int[] hostPorts(int host, int dst) {
        int n = topology.portCount(host);
        if (n == 1) {
            return PORT_0;
        }
        int[] ports = new int[n];
        int k = 0;
        for (int p = 0; p < n; p++) {
            int far = topology.peer(host, p).node();
            if (!topology.isHost(far) || far == dst) {
                ports[k++] = p;
            }
        }
        return Arrays.copyOf(ports, k);
    }

    private static final int[] NONE = new int[0];
    private static final int[] PORT_0 = {0};
}
