package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;
import rocelab.observe.output.Numbers;
import rocelab.scenario.device.SwitchConfig;

/**
 * L18: a switch that sends packets of one QP down different paths (spray, adaptive, or flowlet with a timeout below
 * the spread of the paths' delays) reorders them, and an RNIC that places in order only (nic.ooo false at either
 * end of the QP) answers every reordering with a NAK and a go-back-N retransmission.
 */
final class ReorderingRule implements LintRule {
    @Override
    public String id() {
        return "L18";
    }

    @Override
    public String title() {
        return "Per-packet load balancing towards RNICs that do not accept reordering";
    }

    @Override
    public void check(LintContext c, Findings out) {
        planeSpraying(c, out);
        // The data paths of each (source, destination, DSCP), in the order the walk found them.
        Map<String, List<LintContext.Path>> byFlow = new LinkedHashMap<>();
        for (LintContext.Path p : c.dataPaths()) {
            byFlow.computeIfAbsent(p.src() + "/" + p.dst() + "/" + p.dscp(), k -> new ArrayList<>()).add(p);
        }
        for (List<LintContext.Path> paths : byFlow.values()) {
            LintContext.Path first = paths.get(0);
            boolean senderOoo = c.nic(first.src()).parameters().ooo();
            boolean receiverOoo = c.nic(first.dst()).parameters().ooo();
            if (senderOoo && receiverOoo) {
                continue;
            }
            for (int h = 0; h < first.hops().size(); h++) {
                LintContext.Hop hop = first.hops().get(h);
                SwitchConfig s = c.switchAt(hop.switchIndex());
                LoadBalancing lb = s.parameters().loadBalancing();
                if (!lb.mayReorder() || !branches(paths, h, hop.switchIndex())) {
                    continue;
                }
                String inOrder = !receiverOoo && !senderOoo ? "h" + first.src() + " and h" + first.dst()
                        : "h" + (receiverOoo ? first.src() : first.dst());
                List<String> devices = List.of(s.name(), "h" + first.src(), "h" + first.dst());
                String fix = "nic: {ooo: true} on both ends of these QPs (out-of-order placement and selective"
                        + " repeat), or load-balancing: {mode: ecmp} on " + s.name();
                if (lb == LoadBalancing.FLOWLET) {
                    long timeout = s.parameters().adaptive().flowletTimeoutPs();
                    long spread = spreadPs(c, paths, h, hop.switchIndex());
                    if (timeout >= spread) {
                        continue;
                    }
                    out.add(this, Severity.WARNING, devices, List.of(), String.format(Locale.ROOT, "%s switches"
                            + " flowlets after %s idle, less than the %s its paths' delays can differ by (links,"
                            + " and queues up to their ECN threshold, or to the switch's buffer in a class not marked),"
                            + " towards RNICs that place in order only"
                            + " (nic.ooo false)", s.name(), us(timeout), us(spread)),
                            "a new flowlet can overtake the last packets of the previous one: out-of-order arrivals,"
                                    + " NAKs (naks_sent) and go-back-N retransmissions (retransmitted_packets)",
                            fix + ", or a flowlet-timeout of at least " + us(spread));
                } else {
                    out.add(this, Severity.WARNING, devices, List.of(), s.name() + " sends each packet by its own"
                            + " choice (load-balancing: " + lb.name().toLowerCase(Locale.ROOT) + "), so packets of"
                            + " one QP take different paths, towards RNICs that place in order only (nic.ooo false)",
                            "every reordering costs a NAK (naks_sent) and a go-back-N retransmission of everything"
                                    + " after the gap (retransmitted_packets); flows far slower than with ECMP",
                            fix);
                }
            }
        }
    }

    /**
     * Multi-plane RNICs that spray (topology.plane-selection: spray) send consecutive packets of one QP over
     * different planes, whose delays differ by their queues: every RNIC that places in order only is named.
     */
    private void planeSpraying(LintContext c, Findings out) {
        Topology t = c.topology();
        if (t.planes() < 2 || t.planeSelection() != PlaneSelection.SPRAY) {
            return;
        }
        List<String> inOrder = new ArrayList<>();
        for (int h = 0; h < t.hostCount(); h++) {
            if (!c.nic(h).parameters().ooo()) {
                inOrder.add("h" + h);
            }
        }
        if (inOrder.isEmpty()) {
            return;
        }
        // Eight named and the rest counted, unless only one is left: it is named too.
        int shown = Numbers.shown(inOrder.size(), 8);
        String names = inOrder.size() == shown ? String.join(", ", inOrder)
                : String.join(", ", inOrder.subList(0, shown)) + " and " + (inOrder.size() - shown) + " more";
        out.add(this, Severity.WARNING, inOrder, List.of(), "the RNICs spray each QP's packets over the "
                + t.planes() + " planes (topology.plane-selection: spray), and " + names + " place in order only"
                + " (nic.ooo false)",
                "packets of one QP arrive out of order whenever the planes' queues differ: NAKs (naks_sent) and"
                        + " go-back-N retransmissions (retransmitted_packets)",
                "nic: {ooo: true} on every RNIC, or topology.plane-selection: per-qp (each QP on one plane, in"
                        + " order)");
    }

    /** Whether the flow's paths leave the switch at hop {@code h} by more than one port (a choice to make). */
    private static boolean branches(List<LintContext.Path> paths, int h, int switchIndex) {
        TreeSet<Integer> ports = new TreeSet<>();
        for (LintContext.Path p : paths) {
            if (h < p.hops().size() && p.hops().get(h).switchIndex() == switchIndex) {
                ports.add(p.hops().get(h).outPort());
            }
        }
        return ports.size() > 1;
    }

    /**
     * How much later a packet can arrive by the slowest of the flow's paths from hop {@code h} on than by the
     * fastest, where they meet again: the slowest adds, at every egress port until then, the queue up to its ECN
     * marking threshold (the whole buffer when the port does not mark the class), drained at the port's rate. The
     * ports every path shares from where they meet on (the last switch's port to the receiver) are left out: packets
     * leave one FIFO in the order they entered it, so they add delay but no reordering (an audit's fabric read 384 us
     * with the receiver's port, 256 us without).
     */
    private static long spreadPs(LintContext c, List<LintContext.Path> paths, int h, int switchIndex) {
        Topology t = c.topology();
        List<LintContext.Path> from = new ArrayList<>();
        for (LintContext.Path p : paths) {
            if (h < p.hops().size() && p.hops().get(h).switchIndex() == switchIndex) {
                from.add(p);
            }
        }
        int shared = sharedTail(from, h);
        long fastest = Long.MAX_VALUE;
        long slowest = 0;
        for (LintContext.Path p : from) {
            long base = 0;
            long queues = 0;
            for (int i = h; i < p.hops().size() - shared; i++) {
                LintContext.Hop hop = p.hops().get(i);
                var link = t.edgeAt(hop.node(), hop.outPort()).parameters();
                base += link.delayPs();
                SwitchConfig s = c.switchAt(hop.switchIndex());
                int tc = s.trafficClass(p.dscp());
                queues += Math.round(queueBytes(s, hop.outPort(), tc, link.rateBps()) * 8e12 / link.rateBps());
            }
            fastest = Math.min(fastest, base);
            slowest = Math.max(slowest, base + queues);
        }
        return slowest - fastest;
    }

    /**
     * How many hops at their ends the paths share from hop {@code h} on: the same switch leaving by the same port, at
     * the same distance from the end of each (at most all but the first, where they branch).
     */
    private static int sharedTail(List<LintContext.Path> paths, int h) {
        int shortest = Integer.MAX_VALUE;
        for (LintContext.Path p : paths) {
            shortest = Math.min(shortest, p.hops().size() - h - 1);
        }
        int k = 0;
        for (; k < shortest; k++) {
            LintContext.Hop first = null;
            for (LintContext.Path p : paths) {
                LintContext.Hop hop = p.hops().get(p.hops().size() - 1 - k);
                if (first == null) {
                    first = hop;
                } else if (hop.switchIndex() != first.switchIndex() || hop.outPort() != first.outPort()) {
                    return k;
                }
            }
        }
        return k;
    }

    private static long queueBytes(SwitchConfig s, int port, int tc, long rateBps) {
        EcnParameters ecn = s.ecn(port);
        if (ecn.scheme() == EcnParameters.Scheme.NONE || (ecn.classMask() & 1 << tc) == 0) {
            return s.parameters().bufferBytes();
        }
        return ecn.scheme() == EcnParameters.Scheme.STEP ? ecn.kFor(rateBps) : ecn.kmaxFor(rateBps);
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.1f us", ps / 1e6);
    }
}
