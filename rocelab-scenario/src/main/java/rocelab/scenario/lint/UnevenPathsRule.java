package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.fabric.topology.Topology;

/**
 * L26: equal-cost paths that are not equal. The switches spread flows over every shortest path by hop count, so a
 * link slower (or much longer) than the others of its equal-cost set caps whatever the hash puts on it: an audit's
 * ring AllReduce over a leaf-spine with one leaf-spine link at 25 Gb/s ran 4x its ideal and no output named the link.
 * For every switch and destination, each equal-cost port's path is measured by its slowest link and its propagation
 * delay to the destination (the best over the paths beyond it); a port whose path is slower than the best of the set,
 * or longer by at least {@link #LONGER_PS}, leads to the links named: those on it slower than the best path's
 * bottleneck, or longer than the best path's longest link by that much. A warning: a degraded link can be the
 * experiment.
 */
final class UnevenPathsRule implements LintRule {
    /** How much longer (one way) an equal-cost path must be to be told: 1 us, some 200 m of fibre. */
    static final long LONGER_PS = 1_000_000;
    /** Switches named per link, at most. */
    private static final int NAMED = 4;

    @Override
    public String id() {
        return "L26";
    }

    @Override
    public String title() {
        return "Equal-cost paths of unequal rate or length";
    }

    /** What the rule found about one link: the best its equal-cost alternatives had, and where ECMP chose it. */
    private static final class Uneven {
        long bestRateBps; // the fastest bottleneck among the alternatives (rate case), 0 if none
        long extraPs; // how much longer its paths were than the best (delay case), 0 if none
        final Set<String> at = new LinkedHashSet<>();
    }

    @Override
    public void check(LintContext c, Findings out) {
        Topology t = c.topology();
        if (uniformBetweenSwitches(t)) {
            return; // every choice a switch has is alike: nothing can differ (most fabrics; no per-host walk)
        }
        int hosts = t.hostCount();
        int[][][] routes = t.shortestPathPorts();
        Map<Integer, Uneven> slowLinks = new LinkedHashMap<>();
        Map<Integer, Uneven> longLinks = new LinkedHashMap<>();
        // Hosts on one switch (by their first port) see the same paths up to their own link, which every path shares.
        Set<Integer> done = new LinkedHashSet<>();
        long[] rate = new long[t.nodeCount()];
        long[] delay = new long[t.nodeCount()];
        for (int d = 0; d < hosts; d++) {
            if (t.portCount(d) == 1 && !done.add(t.peer(d, 0).node())) {
                continue;
            }
            int[] dist = t.distancesTo(d);
            Integer[] order = new Integer[t.switchCount()];
            for (int s = 0; s < order.length; s++) {
                order[s] = hosts + s;
            }
            Arrays.sort(order, (x, y) -> Integer.compare(dist[x], dist[y]));
            Arrays.fill(rate, 0);
            Arrays.fill(delay, Long.MAX_VALUE);
            rate[d] = Long.MAX_VALUE;
            delay[d] = 0;
            // The best bottleneck and the least delay from every switch to d, nearest switches first.
            for (int s : order) {
                if (dist[s] < 0) {
                    continue;
                }
                for (int p : routes[s - hosts][d]) {
                    int far = t.peer(s, p).node();
                    rate[s] = Math.max(rate[s], Math.min(linkRate(t, s, p), rate[far]));
                    delay[s] = Math.min(delay[s], linkDelay(t, s, p) + delay[far]);
                }
            }
            for (int s : order) {
                int[] ports = dist[s] < 0 ? new int[0] : routes[s - hosts][d];
                if (ports.length < 2) {
                    continue;
                }
                for (int p : ports) {
                    int far = t.peer(s, p).node();
                    long branchRate = Math.min(linkRate(t, s, p), rate[far]);
                    long branchDelay = linkDelay(t, s, p) + delay[far];
                    if (branchRate < rate[s]) {
                        for (int edge : below(t, routes, s, p, d, rate[s])) {
                            Uneven u = slowLinks.computeIfAbsent(edge, k -> new Uneven());
                            u.bestRateBps = Math.max(u.bestRateBps, rate[s]);
                            u.at.add(c.name(s));
                        }
                    }
                    if (branchDelay - delay[s] >= LONGER_PS) {
                        long longest = longestOnBest(t, routes, s, d, delay);
                        for (int edge : longer(t, routes, s, p, d, longest + LONGER_PS)) {
                            Uneven u = longLinks.computeIfAbsent(edge, k -> new Uneven());
                            u.extraPs = Math.max(u.extraPs, branchDelay - delay[s]);
                            u.at.add(c.name(s));
                        }
                    }
                }
            }
        }
        for (var e : slowLinks.entrySet()) {
            Topology.Edge edge = t.edges().get(e.getKey());
            Uneven u = e.getValue();
            String link = c.name(edge.a().node()) + "-" + c.name(edge.b().node());
            out.add(this, Severity.WARNING, List.of(c.name(edge.a().node()), c.name(edge.b().node())), List.of(),
                    link + " runs at " + gbps(edge.parameters().rateBps()) + " Gb/s on equal-cost paths whose best"
                            + " runs at " + gbps(u.bestRateBps) + " Gb/s (ECMP chooses it at " + named(u.at) + ")",
                    "a flow hashed onto a path through it is capped at " + gbps(edge.parameters().rateBps())
                            + " Gb/s, and the flows sharing it share that; the ideal network bounds every flow by the"
                            + " best of its equal-cost paths, so those flows read slower than their ideal while their"
                            + " neighbours on other paths do not",
                    "give it the rate of the other links of its tier, or take it out of the fabric; a degraded link"
                            + " as the experiment needs no fix");
        }
        for (var e : longLinks.entrySet()) {
            Topology.Edge edge = t.edges().get(e.getKey());
            Uneven u = e.getValue();
            String link = c.name(edge.a().node()) + "-" + c.name(edge.b().node());
            out.add(this, Severity.WARNING, List.of(c.name(edge.a().node()), c.name(edge.b().node())), List.of(),
                    link + " (" + micros(edge.parameters().delayPs()) + " us) makes equal-cost paths through it up to "
                            + micros(u.extraPs) + " us longer one way than the shortest (ECMP chooses it at "
                            + named(u.at) + ")",
                    "a flow hashed onto a path through it waits that much longer for every packet and ACK, and a"
                            + " congestion control's reaction to it comes later",
                    "give it the delay of the other links of its tier; a long link as the experiment needs no fix");
        }
    }

    /** Whether every link between two switches has one rate and one delay. */
    private static boolean uniformBetweenSwitches(Topology t) {
        long rate = -1;
        long delay = -1;
        for (Topology.Edge e : t.edges()) {
            if (t.isHost(e.a().node()) || t.isHost(e.b().node())) {
                continue;
            }
            if (rate < 0) {
                rate = e.parameters().rateBps();
                delay = e.parameters().delayPs();
            } else if (rate != e.parameters().rateBps() || delay != e.parameters().delayPs()) {
                return false;
            }
        }
        return true;
    }

    /** The links on the paths from switch {@code s} by port {@code p} towards {@code d} slower than {@code best}. */
    private static Set<Integer> below(Topology t, int[][][] routes, int s, int p, int d, long best) {
        Set<Integer> found = new LinkedHashSet<>();
        walk(t, routes, s, p, d, new LinkedHashSet<>(), (node, port) -> {
            if (linkRate(t, node, port) < best) {
                found.add(t.edgeAt(node, port).index());
            }
        });
        return found;
    }

    /** The links on the paths from switch {@code s} by port {@code p} towards {@code d} at least {@code atLeastPs} long. */
    private static Set<Integer> longer(Topology t, int[][][] routes, int s, int p, int d, long atLeastPs) {
        Set<Integer> found = new LinkedHashSet<>();
        walk(t, routes, s, p, d, new LinkedHashSet<>(), (node, port) -> {
            if (linkDelay(t, node, port) >= atLeastPs) {
                found.add(t.edgeAt(node, port).index());
            }
        });
        return found;
    }

    private interface LinkVisitor {
        void visit(int node, int port);
    }

    /** Every link of every equal-cost path from {@code node} by {@code port} to host {@code d}, each once. */
    private static void walk(Topology t, int[][][] routes, int node, int port, int d, Set<Long> seen, LinkVisitor v) {
        if (!seen.add((long) node * Integer.MAX_VALUE + port)) {
            return;
        }
        v.visit(node, port);
        int far = t.peer(node, port).node();
        if (t.isHost(far)) {
            return;
        }
        for (int q : routes[far - t.hostCount()][d]) {
            walk(t, routes, far, q, d, seen, v);
        }
    }

    /** The longest link on a shortest-delay path from switch {@code s} to {@code d}. */
    private static long longestOnBest(Topology t, int[][][] routes, int s, int d, long[] delay) {
        long longest = 0;
        int node = s;
        while (!t.isHost(node)) {
            int next = -1;
            int by = -1;
            for (int p : routes[node - t.hostCount()][d]) {
                int far = t.peer(node, p).node();
                if (linkDelay(t, node, p) + delay[far] == delay[node]) {
                    next = far;
                    by = p;
                    break;
                }
            }
            longest = Math.max(longest, linkDelay(t, node, by));
            node = next;
        }
        return longest;
    }

    private static long linkRate(Topology t, int node, int port) {
        return t.edgeAt(node, port).parameters().rateBps();
    }

    private static long linkDelay(Topology t, int node, int port) {
        return t.edgeAt(node, port).parameters().delayPs();
    }

    private static String named(Set<String> switches) {
        List<String> list = new ArrayList<>(switches);
        return list.size() <= NAMED ? String.join(", ", list)
                : String.join(", ", list.subList(0, NAMED)) + " and " + (list.size() - NAMED) + " more";
    }

    private static String gbps(long bps) {
        return bps % 1_000_000_000L == 0 ? Long.toString(bps / 1_000_000_000L)
                : String.format(Locale.ROOT, "%.1f", bps / 1e9);
    }

    private static String micros(long ps) {
        return ps % 1_000_000 == 0 ? Long.toString(ps / 1_000_000)
                : String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
