package rocelab.scenario.lint;

import java.util.List;
import rocelab.scenario.device.SwitchConfig;

/**
 * L1: the RoCE DSCP must land in the same class at every hop, and that class must be lossless wherever the fabric
 * is lossless. A PFC pause names a priority: when a switch files RoCE under another class than the device before
 * it, its pauses do not stop that traffic; when it files RoCE in a lossy class, it tail-drops it.
 */
final class DscpClassRule implements LintRule {
    @Override
    public String id() {
        return "L1";
    }

    @Override
    public String title() {
        return "RoCE DSCP classified inconsistently along the path";
    }

    /**
     * The class a path's data belongs in: the sending RNIC's priority for its RoCE DSCP, the first switch's class for
     * a traffic item's own DSCP. A hop that files the data under another class is this rule's finding.
     */
    static int expectedClass(LintContext c, LintContext.Path path) {
        boolean ownDscp = path.dscp() != c.nic(path.src()).parameters().dataDscp();
        return ownDscp ? c.switchAt(path.hops().get(0).switchIndex()).trafficClass(path.dscp())
                : c.nic(path.src()).parameters().dataPriority();
    }

    /**
     * What puts the data back in its class, lossless, at switch {@code s}: the DSCP mapped to the class the sender
     * pauses, that class made lossless where it is not. Making the class the switch uses now lossless instead is no
     * fix when the two differ (the pauses would name the wrong priority: an audit's leaf0 with class 0 lossless, as
     * this finding used to offer, dropped 3,373 packets on headroom), and mapping the DSCP where it already goes
     * changes nothing. {@code pfc: {priorities}} replaces the list, so the snippet keeps the classes already lossless.
     */
    private static String fix(SwitchConfig s, int dscp, int tc, int expected, boolean lossless) {
        boolean addPfc = lossless && !s.pfc().isLossless(expected);
        String priorities = "pfc: {priorities: " + PriorityText.list(s.pfc().losslessMask() | 1 << expected) + "}";
        if (tc == expected) {
            return "make class " + expected + " lossless on " + s.name() + " (switches: [{name: " + s.name() + ", "
                    + priorities + "}])";
        }
        return "map DSCP " + dscp + " to class " + expected + " on " + s.name()
                + (addPfc ? " and make that class lossless there" : "") + " (switches: [{name: " + s.name()
                + ", dscp-to-tc: {" + dscp + ": " + expected + "}" + (addPfc ? ", " + priorities : "") + "}])";
    }

    /** Whether switch {@code s} files {@code dscp} in class {@code expected}, lossless there on a lossless fabric. */
    private static boolean filedRight(LintContext c, SwitchConfig s, int dscp, int expected) {
        return s.trafficClass(dscp) == expected && (!c.lossless() || s.pfc().isLossless(expected));
    }

    /**
     * Whether the RNIC at {@code path}'s source is the odd one out, not the switches: no other RNIC sends on its DSCP,
     * and no switch on any way of its data files that DSCP in class {@code expected}.
     */
    private static boolean misfiledEverywhere(LintContext c, LintContext.Path path, int expected) {
        for (int h = 0; h < c.topology().hostCount(); h++) {
            if (h != path.src() && c.nic(h).parameters().dataDscp() == path.dscp()) {
                return false; // another RNIC on the same DSCP: the switches disagree with both, not this one alone
            }
        }
        for (LintContext.Path p : c.dataPaths()) {
            if (p.src() != path.src() || p.dscp() != path.dscp()) {
                continue;
            }
            for (LintContext.Hop hop : p.hops()) {
                if (filedRight(c, c.switchAt(hop.switchIndex()), p.dscp(), expected)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A DSCP that every switch on every way of the RNIC's data from {@code path}'s source files in class
     * {@code expected}, lossless there when the fabric is (26, RoCE's usual, first, then the lowest), or -1.
     */
    private static int dscpFiledRight(LintContext c, LintContext.Path path, int expected) {
        for (int k = -1; k < 64; k++) {
            int dscp = k < 0 ? 26 : k;
            if (k == 26 || dscp == path.dscp()) {
                continue;
            }
            boolean right = true;
            for (LintContext.Path p : c.dataPaths()) {
                if (p.src() == path.src() && p.dscp() == path.dscp()) {
                    for (LintContext.Hop hop : p.hops()) {
                        right &= filedRight(c, c.switchAt(hop.switchIndex()), dscp, expected);
                    }
                }
            }
            if (right) {
                return dscp;
            }
        }
        return -1;
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            // An HCA has no priority to disagree with: its packets' service level is their DSCP's class, the lane that
            // level's, the same on every port (fabric.infiniband.sl-to-vl).
            return;
        }
        for (LintContext.Path path : c.dataPaths()) {
            // The sender's priority is the reference for its RoCE DSCP: the class the RNIC queues the data in and
            // pauses. A traffic item with a DSCP of its own is judged against its first hop, and one that is lossy
            // on every hop is best effort on purpose.
            boolean ownDscp = path.dscp() != c.nic(path.src()).parameters().dataDscp();
            int expected = expectedClass(c, path);
            if (ownDscp && path.hops().stream().noneMatch(h -> c.switchAt(h.switchIndex()).pfc()
                    .isLossless(c.switchAt(h.switchIndex()).trafficClass(path.dscp())))) {
                continue;
            }
            int nicPriority = c.nic(path.src()).parameters().dataPriority();
            if (ownDscp && c.lossless() && expected != nicPriority
                    && c.switchAt(path.hops().get(0).switchIndex()).pfc().isLossless(expected)) {
                // The RNIC queues and sends its data on its own priority whatever the DSCP: the first switch files
                // it in another, lossless class and pauses that one, which does not stop the RNIC.
                LintContext.Hop first = path.hops().get(0);
                SwitchConfig s = c.switchAt(first.switchIndex());
                out.add(this, Severity.ERROR, List.of(s.name(), "h" + path.src()),
                        List.of(c.port(first.node(), first.inPort())), s.name() + " maps DSCP " + path.dscp()
                                + " to lossless traffic class " + expected + ", but h" + path.src()
                                + "'s RNIC sends that data on priority " + nicPriority,
                        "PFC from " + s.name() + " pauses priority " + expected + ", which does not stop the RNIC:"
                                + " headroom overflows (dropped_headroom_exceeded) on a lossless class",
                        "map DSCP " + path.dscp() + " to class " + nicPriority + " on " + s.name() + " (switches: [{name: "
                                + s.name() + ", dscp-to-tc: {" + path.dscp() + ": " + nicPriority + "}}]), or"
                                + " give the traffic the RNIC's DSCP");
            }
            for (int i = 0; i < path.hops().size(); i++) {
                LintContext.Hop hop = path.hops().get(i);
                SwitchConfig s = c.switchAt(hop.switchIndex());
                int tc = s.trafficClass(path.dscp());
                boolean lossy = c.lossless() && !s.pfc().isLossless(tc);
                if (!lossy && tc == expected) {
                    continue; // the common case: no strings built
                }
                List<String> ports = List.of(c.port(hop.node(), hop.inPort()), c.port(hop.node(), hop.outPort()));
                if (!lossy && c.lossless()) {
                    // Both directions fail, and the drops show at the ingress ports of whoever is congested: the
                    // switch's own from the device before it, and the next switch's from this one (a pause of the
                    // data's priority from there does not stop traffic this switch holds in another class).
                    LintContext.Hop next = i + 1 < path.hops().size() ? path.hops().get(i + 1) : null;
                    ports = next == null ? List.of(c.port(hop.node(), hop.inPort()))
                            : List.of(c.port(hop.node(), hop.inPort()), c.port(next.node(), next.inPort()));
                }
                String fix = fix(s, path.dscp(), tc, expected, c.lossless());
                int better = ownDscp || !misfiledEverywhere(c, path, expected) ? -1 : dscpFiledRight(c, path, expected);
                if (better >= 0) {
                    // No switch on the way files the RNIC's DSCP right, and they agree on another: the RNIC's DSCP is
                    // more likely what is wrong, and one change there fixes every hop (a lint audit's RNIC on DSCP 34
                    // read four switch remaps). Where only some switches disagree, they are the odd ones out.
                    fix += ", or give h" + path.src() + "'s RNIC the DSCP every switch on its way files in class "
                            + expected + (c.lossless() ? " (lossless there)" : "") + ": nics: [{hosts: " + path.src()
                            + ", dscp: " + better + "}]";
                }
                if (lossy) {
                    out.add(this, Severity.ERROR, List.of(s.name(), "h" + path.src()), ports, s.name()
                            + " maps RoCE DSCP "
                            + path.dscp() + " to traffic class " + tc + ", which is lossy there (PFC on "
                            + PriorityText.list(s.pfc().losslessMask()) + "); the RNICs send it on priority "
                            + expected, "tail drops of RoCE at " + s.name() + " when its queue fills"
                            + " (dropped_buffer_full on class " + tc + "), go-back-N retransmissions"
                            + " (retransmitted_packets), no PFC from " + s.name() + " for this traffic",
                            fix);
                } else if (tc != expected) {
                    Severity sev = c.lossless() ? Severity.ERROR : Severity.WARNING;
                    String symptom = c.lossless()
                            ? "PFC fails both ways around " + s.name() + ": its pauses of priority " + tc
                                    + " do not stop the device before it, which queues this traffic in class "
                                    + expected + ", and pauses of priority " + expected + " from the device after it"
                                    + " do not stop " + s.name() + ", which holds the traffic in class " + tc
                                    + "; headroom overflows (dropped_headroom_exceeded) on a lossless class at the"
                                    + " ingress ports listed: " + s.name() + "'s own when it is congested, its"
                                    + " downstream neighbours' from it when they are (an RNIC behind it: out_of_buffer"
                                    + " when its receive falls behind)"
                            : "this traffic changes queue at " + s.name() + ": scheduling and ECN marking of class "
                                    + tc + " apply instead of class " + expected;
                    out.add(this, sev, List.of(s.name(), "h" + path.src()), ports, s.name() + " maps RoCE DSCP "
                            + path.dscp()
                            + " to traffic class " + tc + "; the sending RNICs use priority " + expected, symptom,
                            fix);
                }
            }
        }
    }
}
