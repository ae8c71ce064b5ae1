package rocelab.observe.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rocelab.fabric.network.Network;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.topology.Topology;

/**
 * Each switch tier's oversubscription, from the built topology, and whether the run's bytes made a tier's uplinks the
 * pace-setter, from the ports' own counters: the time its busiest switch's uplinks needed to carry what crossed them
 * (frame bytes plus framing, {@code links.csv}'s counters at the end, over their summed rate) against the run's time.
 *
 * <p>A switch's tier is its distance from the hosts (1: a leaf, or a fat tree's edge), its down ports those towards
 * hosts or the tier below, its up ports those towards the tier above; a tier with up ports is told when some switch of
 * it has more capacity down than up. Its bound is per switch and direction (up: what its up ports sent; down: what the
 * tier above sent it): no schedule can carry those bytes in less. It is the tier that set the pace when that bound
 * is more than the busiest host link's (what one host sent or received, at its link's rate: what an ideal flow
 * schedule is held to without the tier) and the tier was busy at least {@link #PACE_SHARE} of the time from the first
 * flow's start to the last one's end.
 */
public final class Oversubscription {
    /** Share of the flows' time the tier's bound must fill for the tier to be said to set the pace. */
    public static final double PACE_SHARE = 0.8;

    /**
     * One tier with more capacity down than up at some switch: its ratio (down / up capacity, the least and the most
     * over its switches), and after a packet-level run its bound: the switch and direction that took longest, the
     * wire bytes that crossed, the capacity and the time, with the busiest host link's bound.
     */
    public record Tier(int tier, int switches, double minRatio, double maxRatio, int boundNode, boolean up,
            long boundBytes, long capacityBps, long boundPs, long hostBoundPs, int hostBoundNode) {
        /** Words for the tier's uplinks: {@code leaves -> spines} on a two-tier fabric, else by tier number. */
        public String ratioText() {
            return minRatio == maxRatio ? ratio(maxRatio) : ratio(minRatio) + " to " + ratio(maxRatio);
        }
    }

    private Oversubscription() {}

    /** {@code 2:1}, {@code 1.5:1}. */
    public static String ratio(double r) {
        double rounded = Math.round(r * 100) / 100.0;
        return (rounded == Math.rint(rounded) ? Long.toString((long) rounded) : Double.toString(rounded)) + ":1";
    }

    /**
     * The oversubscribed tiers of the network, in tier order; with {@code counted} (a packet-level run's end), each
     * with its bound from the ports' counters.
     */
    public static List<Tier> find(Network network, boolean counted) {
        Topology topo = network.topology();
        int n = topo.nodeCount();
        int[] tier = tiers(topo);
        int frame = network.frames().framingBytes();
        List<Tier> out = new ArrayList<>();
        int top = 0;
        for (int s = topo.hostCount(); s < n; s++) {
            top = Math.max(top, tier[s]);
        }
        for (int t = 1; t <= top; t++) {
            double min = Double.MAX_VALUE;
            double max = 0;
            int switches = 0;
            long boundPs = -1;
            int boundNode = -1;
            boolean boundUp = true;
            long boundBytes = 0;
            long boundCapacity = 0;
            long hostPs = 0;
            int hostNode = -1;
            for (int s = topo.hostCount(); s < n; s++) {
                if (tier[s] != t) {
                    continue;
                }
                long down = 0;
                long up = 0;
                long sentUp = 0;
                long sentDown = 0;
                EgressPort[] ports = new EgressPort[topo.portCount(s)];
                for (int p = 0; p < topo.portCount(s); p++) {
                    int far = topo.peer(s, p).node();
                    long rate = topo.edgeAt(s, p).parameters().rateBps();
                    boolean isUp = !topo.isHost(far) && tier[far] == t + 1;
                    boolean isDown = topo.isHost(far) || tier[far] == t - 1;
                    if (isDown) {
                        down += rate;
                    }
                    if (isUp) {
                        up += rate;
                    }
                    if (!counted) {
                        continue;
                    }
                    var sw = network.switchAt(s - topo.hostCount());
                    if (isUp) {
                        sentUp += wire(sw.port(p), frame);
                        var farPort = network.switchAt(far - topo.hostCount()).port(topo.peer(s, p).port());
                        sentDown += wire(farPort, frame);
                    }
                    if (topo.isHost(far)) {
                        // A host link: what the host sent (received by this port) and what it received.
                        long rx = sw.port(p).counter(PortCounter.RX_BYTES)
                                + (long) frame * sw.port(p).counter(PortCounter.RX_PACKETS);
                        long ps = Math.max(timePs(rx, rate), timePs(wire(sw.port(p), frame), rate));
                        if (ps > hostPs) {
                            hostPs = ps;
                            hostNode = far;
                        }
                    }
                }
                if (up == 0 || down == 0) {
                    continue;
                }
                switches++;
                double r = (double) down / up;
                min = Math.min(min, r);
                max = Math.max(max, r);
                for (boolean dirUp : new boolean[] {true, false}) {
                    long bytes = dirUp ? sentUp : sentDown;
                    long ps = timePs(bytes, up);
                    if (counted && ps > boundPs) {
                        boundPs = ps;
                        boundNode = s;
                        boundUp = dirUp;
                        boundBytes = bytes;
                        boundCapacity = up;
                    }
                }
            }
            if (switches > 0 && max > 1) {
                out.add(new Tier(t, switches, min, max, boundNode, boundUp, boundBytes, boundCapacity,
                        Math.max(boundPs, 0), hostPs, hostNode));
            }
        }
        return out;
    }

    /** Whether the tier set the pace of flows that ran from {@code firstStartPs} to {@code lastEndPs}. */
    public static boolean setThePace(Tier t, long firstStartPs, long lastEndPs) {
        long window = lastEndPs - firstStartPs;
        return window > 0 && t.boundPs() > t.hostBoundPs() && t.boundPs() >= PACE_SHARE * window;
    }

    /** A tier's switches' name without their number ({@code leaf}), or {@code tier 2}. */
    public static String tierName(Topology topo, int tier) {
        int[] tiers = tiers(topo);
        for (int s = topo.hostCount(); s < topo.nodeCount(); s++) {
            if (tiers[s] == tier) {
                String name = topo.nodeName(s).replaceAll("[0-9]+$", "");
                return name.isEmpty() ? "tier " + tier : name;
            }
        }
        return "tier " + tier;
    }

    /** The fabric line's words: {@code leaf uplinks 4:1 oversubscribed}. */
    public static String ratioWords(Network network, Tier t) {
        return tierName(network.topology(), t.tier()) + " uplinks " + t.ratioText() + " oversubscribed";
    }

    /**
     * The bound's sentence: what crossed the busiest switch's uplinks, the time that takes at their rate, the flows'
     * time and the busiest host link's bound, and whether the tier set the pace.
     */
    public static String boundWords(Network network, Tier t, long firstStartPs, long lastEndPs) {
        Topology topo = network.topology();
        String tier = tierName(topo, t.tier());
        String above = tierName(topo, t.tier() + 1);
        long window = Math.max(0, lastEndPs - firstStartPs);
        if (t.boundBytes() == 0) {
            // The busiest uplinks of the tier carried nothing either way (their counters): no bound to tell, and the
            // ratio cost the run nothing (a rail-optimized job whose traffic stays on its rails).
            return String.format(Locale.ROOT, "no frame crossed the %s uplinks in either direction (links.csv): no"
                    + " flow left its %s, so their oversubscription cost this run nothing", tier, tier);
        }
        return String.format(Locale.ROOT, "%s's uplinks carried %,d bytes %s the %ss (frames and"
                + " framing, links.csv): at least %s us at their %s Gb/s, against %s us from the first flow's start"
                + " to the last one's end (%.0f %%), where the busiest host link (%s) needed %s us%s",
                topo.nodeName(t.boundNode()), t.boundBytes(), t.up() ? "up to" : "down from", above,
                micros(t.boundPs()), gbps(t.capacityBps()), micros(window),
                window > 0 ? 100.0 * t.boundPs() / window : 0, t.hostBoundNode() < 0 ? "none"
                        : topo.nodeName(t.hostBoundNode()), micros(t.hostBoundPs()),
                setThePace(t, firstStartPs, lastEndPs) ? ": the " + tier + " uplinks set the pace" : "");
    }

    private static String micros(long ps) {
        return String.format(Locale.ROOT, "%,.3f", ps / 1e6);
    }

    private static String gbps(long bps) {
        double g = bps / 1e9;
        return g == Math.rint(g) ? Long.toString((long) g) : Double.toString(g);
    }

    private static int[] tiers(Topology topo) {
        int[] tier = new int[topo.nodeCount()];
        List<Integer> frontier = new ArrayList<>();
        for (int h = 0; h < topo.hostCount(); h++) {
            frontier.add(h);
        }
        for (int t = 1; !frontier.isEmpty(); t++) {
            List<Integer> next = new ArrayList<>();
            for (int node : frontier) {
                for (int p = 0; p < topo.portCount(node); p++) {
                    int far = topo.peer(node, p).node();
                    if (!topo.isHost(far) && tier[far] == 0) {
                        tier[far] = t;
                        next.add(far);
                    }
                }
            }
            frontier = next;
        }
        return tier;
    }

    private static long wire(EgressPort port, int framing) {
        return port.counter(PortCounter.TX_BYTES) + (long) framing * port.counter(PortCounter.TX_PACKETS);
    }

    /** The picoseconds {@code bytes} take at {@code bps}. */
    private static long timePs(long bytes, long bps) {
        return bps <= 0 ? 0 : (long) Math.ceil(bytes * 8e12 / bps);
    }
}
