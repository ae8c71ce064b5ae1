package rocelab.scenario.lint;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import rocelab.congestion.CongestionControls;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.port.SchedulerKind;
import rocelab.observe.output.Numbers;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * L10: CNPs must overtake the data they report: a class of their own, served with strict priority, at every hop
 * back to the sender. A CNP queued behind the congested data arrives when the congestion is over.
 */
final class CnpPriorityRule implements LintRule {
    @Override
    public String id() {
        return "L10";
    }

    @Override
    public String title() {
        return "CNPs not in a strict high-priority queue";
    }

    @Override
    public void check(LintContext c, Findings out) {
        Boolean[] cnpFrames = new Boolean[c.topology().hostCount()];
        boolean any = false;
        for (int[] f : c.flows()) {
            if (cnpFrames[f[1]] == null) {
                NicConfig n = c.nic(f[1]);
                cnpFrames[f[1]] = n.notificationPoint() && sendsCnpFrames(n);
            }
            any |= cnpFrames[f[1]] && c.nic(f[0]).congestion().name().equals("dcqcn");
        }
        if (!any) {
            return; // no CNP frame can matter: nobody reacts to them, or notifications ride on ACKs
        }
        int[] dataClasses = new int[c.topology().switchCount()];
        for (Queues.Queue q : Queues.egress(c)) {
            dataClasses[q.switchIndex()] |= 1 << q.tc();
        }
        // CNPs sent on a DSCP that RoCE data also uses are classified with that data at every switch: remapping the
        // DSCP on a switch would move the data too (out of its lossless class), so the fix is the RNIC's CNP DSCP.
        long dataDscps = 0;
        for (int[] f : c.flows()) {
            dataDscps |= 1L << f[2];
        }
        List<LintContext.Path> cnpPaths = c.cnpPaths();
        String nicFix = nicFix(c, cnpPaths, dataDscps, dataClasses);
        for (LintContext.Path p : cnpPaths) {
            NicConfig notifier = c.nic(p.src());
            NicConfig sender = c.nic(p.dst());
            if (!sender.congestion().name().equals("dcqcn") || !cnpFrames[p.src()]) {
                continue; // no CNP frames: nothing to notify, or the notification rides on ACKs
            }
            if (notifier.cnpPriority() == notifier.parameters().dataPriority()) {
                out.add(this, Severity.WARNING, List.of("h" + p.src()), List.of(), "h" + p.src() + " sends CNPs"
                        + " on its data priority " + notifier.cnpPriority(),
                        "a PFC pause of the data priority also holds the RNIC's CNPs",
                        "cnp: {priority: 6} on the RNIC");
            }
            for (LintContext.Hop h : p.hops()) {
                SwitchConfig s = c.switchAt(h.switchIndex());
                int tc = s.trafficClass(p.dscp());
                int data = dataClasses[h.switchIndex()];
                boolean shared = (data & 1 << tc) != 0;
                if (!shared && strict(s, tc, data)) {
                    continue;
                }
                List<String> ports = List.of(c.port(h.node(), h.outPort()));
                String fix = "map CNP DSCP " + p.dscp() + " to a class of its own served strictly (switches: [{name: "
                        + s.name() + ", dscp-to-tc: {" + p.dscp() + ": 6}, scheduler: {strict: [6, 7]}}])";
                if (shared && (dataDscps & 1L << p.dscp()) != 0) {
                    out.add(this, Severity.ERROR, List.of(s.name()), ports, s.name() + " queues CNPs in class " + tc
                            + " with the RoCE data they report: the RNICs send CNPs on DSCP " + p.dscp()
                            + ", the data's own DSCP, so no switch can tell them apart",
                            "CNPs wait behind the very queue they report: late rate cuts (rp_cnp_handled lags"
                                    + " np_cnp_sent), queue oscillation, more PFC",
                            nicFix);
                } else if (shared) {
                    out.add(this, Severity.ERROR, List.of(s.name()), ports, s.name() + " maps CNP DSCP " + p.dscp()
                            + " to class " + tc + ", the class RoCE data uses there",
                            "CNPs wait behind the very queue they report: late rate cuts (rp_cnp_handled lags"
                                    + " np_cnp_sent), queue oscillation, more PFC",
                            fix);
                } else {
                    out.add(this, Severity.WARNING, List.of(s.name()), ports, s.name() + " serves CNP class " + tc
                            + " by DWRR, not strict priority",
                            "CNPs wait for their DWRR turn behind other busy classes: slower reaction",
                            fix);
                }
            }
        }
    }

    /**
     * The RNIC-side fix for CNPs that share the data's DSCP: a CNP DSCP (ConnectX's cnp_dscp) of its own, preferring
     * 48 (the ConnectX default), that every switch on the CNP paths already files in a strict class no data uses;
     * when none does, DSCP 48 plus the switch map that makes it so.
     */
    private static String nicFix(LintContext c, List<LintContext.Path> cnpPaths, long dataDscps, int[] dataClasses) {
        Set<Integer> hosts = new TreeSet<>();
        boolean[] onPath = new boolean[c.topology().switchCount()];
        for (LintContext.Path p : cnpPaths) {
            if ((dataDscps & 1L << p.dscp()) != 0) {
                hosts.add(p.src());
                for (LintContext.Hop h : p.hops()) {
                    onPath[h.switchIndex()] = true;
                }
            }
        }
        if (hosts.isEmpty()) {
            return "";
        }
        // "0-3,6": a host set the nics list reads as written
        String who = Numbers.ranges(hosts.stream().mapToInt(Integer::intValue).toArray(), "");
        for (int d : candidateDscps()) {
            if ((dataDscps & 1L << d) == 0 && servedApart(c, onPath, d, dataClasses)) {
                return "give the CNPs a DSCP of their own on the RNICs (nics: [{hosts: " + who + ", cnp: {dscp: " + d
                        + "}}], ConnectX cnp_dscp); the switches already queue DSCP " + d + " strictly, apart from"
                        + " the data";
            }
        }
        return "give the CNPs a DSCP of their own on the RNICs (nics: [{hosts: " + who + ", cnp: {dscp: 48}}],"
                + " ConnectX cnp_dscp) and map it to a class of its own served strictly (switch: {dscp-to-tc: {48: 6},"
                + " scheduler: {strict: [6, 7]}})";
    }

    private static int[] candidateDscps() {
        int[] out = new int[64];
        out[0] = 48;
        for (int d = 0, i = 1; d < 64; d++) {
            if (d != 48) {
                out[i++] = d;
            }
        }
        return out;
    }

    /** Whether every switch on the CNP paths files {@code dscp} in a class no data uses there, served strictly. */
    private static boolean servedApart(LintContext c, boolean[] onPath, int dscp, int[] dataClasses) {
        for (int s = 0; s < onPath.length; s++) {
            if (onPath[s]) {
                int tc = c.switchAt(s).trafficClass(dscp);
                if ((dataClasses[s] & 1 << tc) != 0 || !strict(c.switchAt(s), tc, dataClasses[s])) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean sendsCnpFrames(NicConfig n) {
        return CongestionControls.byName(n.congestion().name()).orElseThrow()
                .notificationPoint(n.congestion(), n.cnpDscp(), n.cnpPriority()).mode()
                == NotificationPointParameters.Mode.CNP;
    }

    private static boolean strict(SwitchConfig s, int tc, int dataClasses) {
        if (s.parameters().scheduler() == SchedulerKind.STRICT) {
            return Integer.highestOneBit(dataClasses | 1 << tc) == 1 << tc;
        }
        return (s.parameters().strictClasses() & 1 << tc) != 0;
    }
}
