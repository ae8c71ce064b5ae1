package rocelab.scenario.lint;

import java.util.List;
import rocelab.congestion.CongestionControls;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.port.SchedulerKind;
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
        for (LintContext.Path p : c.cnpPaths()) {
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
                if (shared) {
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
