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
 *
 * <p>Hop by hop, the best links can come from different paths: with leaf0-spine0 and spine1-leaf1 slowed, the fastest
 * second link is leaf0-spine1 and the fastest third spine0-leaf1, and no path has both, so every path from leaf0 to
 * leaf1 crosses a slow link while the hop-wise rates say none does. A message whose queue pair keeps one path is
 * no faster than that path's slowest link, so the walk also keeps the widest path's bottleneck ({@link #onePathBps}):
 * the most, over the equal-cost paths, of each one's slowest link.
 */
public final class BestPath {
    private final Topology topology;
    /** The switches' equal-cost next hops towards each host with every link up (switch index, host, ports). */
    private final int[][][] routes;
    /** The nodes the current hop starts from, and those it reaches; {@code seen} stamps the latter per hop. */
    private int[] level;
    private int[] next;
    /** Per node of {@code level} ({@code next}): the widest bottleneck of a way to it from the source. */
    private long[] levelWidest;
    private long[] nextWidest;
    /** Where a node stamped in {@code seen} sits in {@code next}. */
    private final int[] slot;
    private final int[] seen;
    private int stamp;

    public BestPath(Topology topology) {
        this.topology = topology;
        this.routes = topology.shortestPathPorts();
        this.level = new int[8];
        this.next = new int[8];
        this.levelWidest = new long[8];
        this.nextWidest = new long[8];
        this.slot = new int[topology.nodeCount()];
        this.seen = new int[topology.nodeCount()];
    }

    /** The widest bottleneck of the last {@link #fill}: see {@link #onePathBps}. */
    private long widest;

    /**
     * For the last {@link #fill}: the most, over the equal-cost paths from its source to its destination, of each
     * path's slowest link. A message that keeps one path is no faster than this, whichever path its hash picks. It is
     * never above the slowest of the hop-wise best rates, and equal to it on every fabric where some path has no
     * link slower than that (every uniform one, one slowed uplink beside a fast one). {@code Long.MAX_VALUE} (no
     * cap) for a source with several ports (a multi-plane or multi-homed RNIC), whose walk also lets in ways longer
     * than the shortest.
     */
    public long onePathBps() {
        return widest;
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
        levelWidest[0] = Long.MAX_VALUE;
        long toDst = 0;
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
                    long linkRate = edge.parameters().rateBps();
                    rate = Math.max(rate, linkRate);
                    delay = Math.min(delay, edge.parameters().delayPs());
                    long via = Math.min(levelWidest[i], linkRate);
                    int far = topology.peer(node, p).node();
                    if (far == dst) {
                        arrived = true;
                        toDst = Math.max(toDst, via);
                    } else if (!topology.isHost(far) && seen[far] != stamp) {
                        seen[far] = stamp;
                        if (reached == next.length) {
                            next = Arrays.copyOf(next, reached * 2);
                            nextWidest = Arrays.copyOf(nextWidest, reached * 2);
                        }
                        slot[far] = reached;
                        nextWidest[reached] = via;
                        next[reached++] = far;
                    } else if (!topology.isHost(far)) {
                        nextWidest[slot[far]] = Math.max(nextWidest[slot[far]], via);
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
                widest = topology.portCount(src) == 1 ? toDst : Long.MAX_VALUE;
                return hops;
            }
            int[] t = level;
            level = next;
            next = t;
            long[] w = levelWidest;
            levelWidest = nextWidest;
            nextWidest = w;
            size = reached;
            if (next.length < level.length) {
                next = Arrays.copyOf(next, level.length);
                nextWidest = Arrays.copyOf(nextWidest, level.length);
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
