package rocelab.fabric.network;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.fabric.topology.Topology;

/**
 * The fabric's slow links that the ideal network has too, so that what their rate (or length) costs is in every ideal
 * figure and not in the network penalty or GPU wait. The ideal network is an idle fabric of this fabric's links, each
 * message over the best of its equal-cost paths hop by hop ({@link BestPath}): a link slower than the others of its
 * role is in it wherever no link at its hop is faster. An audit's NIC cable at 25 Gb/s among 100 Gb/s ones put a ring
 * AllReduce's ideal at 30.3 ms against 8.8 ms on the healthy fabric, and the run said the GPUs waited on the network
 * 1 ms per iteration, with nothing naming the cable.
 *
 * <p>A link's role is where it sits: the hop distances of its two ends from the nearest host (0 for a host), so host
 * links are compared with host links and leaf-spine links with leaf-spine links, on any topology, custom ones too. A
 * role's own rate and delay are those most of its links have (the fastest, the shortest, of equally common ones).
 * Two kinds are told:
 * <ul>
 *   <li>{@link Link}: a link slower than its role's rate, or at least {@link #LONGER_PS} longer than its role's delay,
 *       that some message's best path has at a hop where no link is faster (shorter): a host's only link, an uplink
 *       whose equal-cost alternatives are as slow; or, where every equal-cost path crosses a slow link at some hop
 *       while each hop has a fast one (leaf0-spine0 and spine1-leaf1 slowed), a slow link at the rate of the widest
 *       path's slowest ({@link BestPath#onePathBps}), which holds the message in the ideal. A slow link beside a fast
 *       one of its equal-cost set is not in the ideal (the message takes the other), so what it costs is network
 *       wait, and lint L26 names it.</li>
 *   <li>{@link Tier}: a role between switches whose own rate is below the host links': every message whose path
 *       crosses that tier is held to its rate in the ideal as in the run (uplinks slower than the RNICs: an
 *       oversubscription by rate that only sharing, never the rate itself, makes network wait).</li>
 * </ul>
 */
public final class IdealSlowLinks {
    /** How much longer than its role a link must be to be told: 1 us, some 200 m of fibre (as lint L26). */
    public static final long LONGER_PS = 1_000_000;

    /**
     * A link slower or longer than its role's, in the ideal.
     *
     * @param a one end's name
     * @param b the other's
     * @param hostLink whether one end is a host (its role is the host links)
     * @param role the role's words ({@code host links}, {@code links between switches 1 and 2 hops from the hosts})
     * @param peers how many other links the role has
     * @param rateBps its rate
     * @param roleRateBps its role's rate
     * @param delayPs its one-way delay
     * @param roleDelayPs its role's delay
     */
    public record Link(String a, String b, boolean hostLink, String role, int peers, long rateBps, long roleRateBps,
            long delayPs, long roleDelayPs) {
        public boolean slower() {
            return rateBps < roleRateBps;
        }

        public boolean longer() {
            return delayPs - roleDelayPs >= LONGER_PS;
        }
    }

    /**
     * A role between switches whose rate is below the host links'.
     *
     * @param role the role's words
     * @param example one of its links ({@code leaf0-spine0})
     * @param links how many links it has at its rate
     * @param rateBps its rate
     * @param hostRateBps the host links' rate
     */
    public record Tier(String role, String example, int links, long rateBps, long hostRateBps) {}

    private final List<Link> links;
    private final List<Tier> tiers;

    private IdealSlowLinks(List<Link> links, List<Tier> tiers) {
        this.links = List.copyOf(links);
        this.tiers = List.copyOf(tiers);
    }

    public List<Link> links() {
        return links;
    }

    public List<Tier> tiers() {
        return tiers;
    }

    /** Just this link, as {@link #of} would tell it. */
    public static IdealSlowLinks only(Link link) {
        return new IdealSlowLinks(List.of(link), List.of());
    }

    public boolean isEmpty() {
        return links.isEmpty() && tiers.isEmpty();
    }

    /** The links of {@code t} the ideal network has that are slower or longer than their role's, and slow tiers. */
    public static IdealSlowLinks of(Topology t) {
        int[] level = levels(t);
        List<Topology.Edge> edges = t.edges();
        Map<Long, List<Topology.Edge>> roles = new LinkedHashMap<>();
        for (Topology.Edge e : edges) {
            int x = level[e.a().node()];
            int y = level[e.b().node()];
            if (x < 0 || y < 0 || x == 0 && y == 0) {
                continue; // off every host's way, or host to host: no role to compare with
            }
            roles.computeIfAbsent(key(x, y), k -> new ArrayList<>()).add(e);
        }
        Map<Long, long[]> own = new HashMap<>();
        for (var r : roles.entrySet()) {
            own.put(r.getKey(), new long[] {common(r.getValue(), true), common(r.getValue(), false)});
        }
        // The candidates: links below their role's rate or beyond its delay.
        boolean[] slow = new boolean[edges.size()];
        boolean[] longer = new boolean[edges.size()];
        boolean oddBetweenSwitches = false;
        for (var r : roles.entrySet()) {
            long[] ref = own.get(r.getKey());
            for (Topology.Edge e : r.getValue()) {
                slow[e.index()] = e.parameters().rateBps() < ref[0];
                longer[e.index()] = e.parameters().delayPs() - ref[1] >= LONGER_PS;
                oddBetweenSwitches |= (slow[e.index()] || longer[e.index()]) && !t.isHost(e.a().node())
                        && !t.isHost(e.b().node());
            }
        }
        boolean[] inIdeal = new boolean[edges.size()];
        for (Topology.Edge e : edges) {
            // A host's link is every message's first (last) hop from (to) it, beside only the host's other ports.
            int host = t.isHost(e.a().node()) ? e.a().node() : t.isHost(e.b().node()) ? e.b().node() : -1;
            if (host >= 0 && (slow[e.index()] || longer[e.index()])) {
                long fastest = 0;
                long shortest = Long.MAX_VALUE;
                for (int p = 0; p < t.portCount(host); p++) {
                    fastest = Math.max(fastest, t.edgeAt(host, p).parameters().rateBps());
                    shortest = Math.min(shortest, t.edgeAt(host, p).parameters().delayPs());
                }
                inIdeal[e.index()] = slow[e.index()] && e.parameters().rateBps() == fastest
                        || longer[e.index()] && e.parameters().delayPs() == shortest;
            }
        }
        if (oddBetweenSwitches) {
            betweenSwitches(t, slow, longer, inIdeal);
        }
        List<Link> out = new ArrayList<>();
        for (var r : roles.entrySet()) {
            long[] ref = own.get(r.getKey());
            for (Topology.Edge e : r.getValue()) {
                if (inIdeal[e.index()]) {
                    int x = level[e.a().node()];
                    int y = level[e.b().node()];
                    out.add(new Link(t.nodeName(e.a().node()), t.nodeName(e.b().node()), Math.min(x, y) == 0,
                            role(x, y), r.getValue().size() - 1, e.parameters().rateBps(), ref[0],
                            e.parameters().delayPs(), ref[1]));
                }
            }
        }
        List<Tier> slowTiers = new ArrayList<>();
        long[] hostRef = null;
        for (var r : roles.entrySet()) {
            if (r.getKey() / 1024 == 0) {
                hostRef = own.get(r.getKey());
            }
        }
        for (var r : roles.entrySet()) {
            long[] ref = own.get(r.getKey());
            if (hostRef != null && r.getKey() / 1024 > 0 && ref[0] < hostRef[0]) {
                Topology.Edge first = null;
                int count = 0;
                for (Topology.Edge e : r.getValue()) {
                    if (e.parameters().rateBps() == ref[0]) {
                        first = first == null ? e : first;
                        count++;
                    }
                }
                slowTiers.add(new Tier(role((int) (r.getKey() / 1024), (int) (r.getKey() % 1024)),
                        t.nodeName(first.a().node()) + "-" + t.nodeName(first.b().node()), count, ref[0],
                        hostRef[0]));
            }
        }
        return new IdealSlowLinks(out, slowTiers);
    }

    /**
     * Marks the odd switch-to-switch links some message's best path has at a hop where no link is faster (for a slow
     * one) or shorter (for a long one): {@link BestPath}'s walk, from every group of sources on the same switches to
     * every group of destinations on the same switch. Only run when such a link exists (rarely: a degraded fabric).
     */
    private static void betweenSwitches(Topology t, boolean[] slow, boolean[] longer, boolean[] inIdeal) {
        int hosts = t.hostCount();
        int[][][] routes = t.shortestPathPorts();
        Set<String> sources = new LinkedHashSet<>();
        Set<Integer> destinations = new LinkedHashSet<>();
        List<Integer> srcs = new ArrayList<>();
        List<Integer> dsts = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            int[] peers = new int[t.portCount(h)];
            for (int p = 0; p < peers.length; p++) {
                peers[p] = t.peer(h, p).node();
            }
            Arrays.sort(peers);
            if (sources.add(Arrays.toString(peers))) {
                srcs.add(h);
            }
            if (t.portCount(h) != 1 || destinations.add(t.peer(h, 0).node())) {
                dsts.add(h);
            }
        }
        List<Topology.Edge> hop = new ArrayList<>();
        List<Topology.Edge> crossed = new ArrayList<>();
        for (int src : srcs) {
            for (int dst : dsts) {
                if (src == dst) {
                    continue;
                }
                // Per switch of the level, the widest bottleneck of the switch links on a way to it (BestPath's
                // onePathBps, less the host links, which are told by their hosts).
                Map<Integer, Long> level = new LinkedHashMap<>();
                long hostRate = fastestPort(t, src);
                for (int p = 0; p < t.portCount(src); p++) {
                    int far = t.peer(src, p).node();
                    if (!t.isHost(far)) {
                        level.put(far, Long.MAX_VALUE);
                    }
                }
                long hopWise = Long.MAX_VALUE;
                long onePath = 0;
                crossed.clear();
                for (int guard = 0; !level.isEmpty() && guard < t.nodeCount(); guard++) {
                    hop.clear();
                    Map<Integer, Long> next = new LinkedHashMap<>();
                    long rate = 0;
                    long delay = Long.MAX_VALUE;
                    for (var n : level.entrySet()) {
                        int node = n.getKey();
                        int[] ports = routes[node - hosts][dst];
                        for (int p : ports == null ? new int[0] : ports) {
                            Topology.Edge e = t.edgeAt(node, p);
                            int far = t.peer(node, p).node();
                            if (t.isHost(far)) {
                                onePath = Math.max(onePath, n.getValue());
                                hostRate = Math.min(hostRate, e.parameters().rateBps());
                                continue; // the last hop, a host link: told by its host
                            }
                            hop.add(e);
                            next.merge(far, Math.min(n.getValue(), e.parameters().rateBps()), Math::max);
                            rate = Math.max(rate, e.parameters().rateBps());
                            delay = Math.min(delay, e.parameters().delayPs());
                            if (slow[e.index()]) {
                                crossed.add(e);
                            }
                        }
                    }
                    for (Topology.Edge e : hop) {
                        if (slow[e.index()] && e.parameters().rateBps() == rate
                                || longer[e.index()] && e.parameters().delayPs() == delay) {
                            inIdeal[e.index()] = true;
                        }
                    }
                    if (!hop.isEmpty()) { // the last level has only host links
                        hopWise = Math.min(hopWise, rate);
                    }
                    level = next;
                }
                // The hop-wise best links may be of different paths, every one of which crosses a slow link
                // (leaf0-spine0 and spine1-leaf1 slowed): the ideal holds a message that keeps one path to the widest
                // path's slowest link, so the slow links at that rate are in it.
                if (onePath < Math.min(hopWise, hostRate)) {
                    for (Topology.Edge e : crossed) {
                        if (e.parameters().rateBps() == onePath) {
                            inIdeal[e.index()] = true;
                        }
                    }
                }
            }
        }
    }

    /** The fastest of host {@code h}'s links. */
    private static long fastestPort(Topology t, int h) {
        long fastest = 0;
        for (int p = 0; p < t.portCount(h); p++) {
            fastest = Math.max(fastest, t.edgeAt(h, p).parameters().rateBps());
        }
        return fastest;
    }

    /** Each node's hop distance from the nearest host (0 for hosts; -1 unreachable); hosts do not relay. */
    private static int[] levels(Topology t) {
        int[] level = new int[t.nodeCount()];
        Arrays.fill(level, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int h = 0; h < t.hostCount(); h++) {
            level[h] = 0;
            queue.add(h);
        }
        while (!queue.isEmpty()) {
            int n = queue.poll();
            for (int p = 0; p < t.portCount(n); p++) {
                int m = t.peer(n, p).node();
                if (level[m] < 0) {
                    level[m] = level[n] + 1;
                    queue.add(m);
                }
            }
        }
        return level;
    }

    private static long key(int x, int y) {
        return Math.min(x, y) * 1024L + Math.max(x, y);
    }

    private static String role(int x, int y) {
        int lo = Math.min(x, y);
        int hi = Math.max(x, y);
        return lo == 0 ? "host links" : lo == hi ? "links between switches " + lo + " hops from the hosts"
                : "links between switches " + lo + " and " + hi + " hops from the hosts";
    }

    /** The rate (or delay) most of {@code edges} have; of equally common ones the fastest (shortest). */
    private static long common(List<Topology.Edge> edges, boolean rate) {
        Map<Long, Integer> count = new HashMap<>();
        for (Topology.Edge e : edges) {
            count.merge(rate ? e.parameters().rateBps() : e.parameters().delayPs(), 1, Integer::sum);
        }
        long best = -1;
        int most = 0;
        for (var c : count.entrySet()) {
            long v = c.getKey();
            boolean better = rate ? v > best : best < 0 || v < best;
            if (c.getValue() > most || c.getValue() == most && better) {
                best = v;
                most = c.getValue();
            }
        }
        return best;
    }
}
