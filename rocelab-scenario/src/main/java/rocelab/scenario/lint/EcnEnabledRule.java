package rocelab.scenario.lint;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * L6: the queues RoCE data crosses must mark ECN, and the data must be ECN-capable, or an ECN-driven congestion
 * control (DCQCN, DCTCP) has nothing to react to. (WRED drops on a lossless queue, the other half of the reference
 * rule, cannot be configured here: marking never drops.)
 */
final class EcnEnabledRule implements LintRule {
    @Override
    public String id() {
        return "L6";
    }

    @Override
    public String title() {
        return "ECN marking off on the RoCE queue";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            // No IP ECN there: the switches mark FECN on every lane (fabric.infiniband.fecn), and switch.ecn, the fix
            // this rule would name, is an error in infiniband mode.
            return;
        }
        boolean readsEcn = false;
        for (int[] f : c.flows()) {
            NicConfig sender = c.nic(f[0]);
            boolean reads = PriorityText.readsEcn(sender.congestion().name());
            readsEcn |= reads;
            if (reads && !sender.parameters().ecnCapable()) {
                out.add(this, Severity.WARNING, List.of("h" + f[0]), List.of(), "h" + f[0] + " runs "
                        + sender.congestion().name() + " but sends its data Not-ECT (nic ecn: false)",
                        "switches never mark its packets: np_ecn_marked_roce_packets stays 0, no CNPs, the rate"
                                + " never drops; congestion ends in PFC pauses or drops",
                        "ecn: true on the RNIC");
            }
        }
        Severity severity = readsEcn ? Severity.WARNING : Severity.INFO;
        Set<Queues.Queue> misfiledOnly = misfiledOnly(c);
        for (Queues.Queue q : Queues.egress(c)) {
            if (misfiledOnly.contains(q)) {
                // RoCE reaches this class only because a switch files it there against the sender's priority (L1's
                // finding, whose fix moves it back): marking here would fix the wrong queue.
                continue;
            }
            SwitchConfig s = c.switchAt(q.switchIndex());
            EcnParameters ecn = s.ecn(q.port());
            boolean off = ecn.scheme() == EcnParameters.Scheme.NONE;
            if (off || (ecn.classMask() & 1 << q.tc()) == 0) {
                out.add(this, severity, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                        "switches that do not mark ECN on RoCE class " + q.tc() + (off ? " (marking: none)"
                                : " (ECN on classes " + PriorityText.list(ecn.classMask()) + ")"),
                        readsEcn ? "no CE marks from this queue: DCQCN stays idle, congestion here ends in PFC"
                                + " pauses (lossless) or drops (lossy)"
                                : "no congestion control reads ECN in this scenario, so nothing changes now",
                        "mark ECN on class " + q.tc() + " (ecn: {marking: red, classes: [" + q.tc() + "]})");
            }
        }
    }

    /** Egress queues that data reaches only through hops filing it under another class than it belongs in (L1). */
    private static Set<Queues.Queue> misfiledOnly(LintContext c) {
        Set<Queues.Queue> misfiled = new HashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            int expected = DscpClassRule.expectedClass(c, p);
            for (LintContext.Hop h : p.hops()) {
                int tc = c.switchAt(h.switchIndex()).trafficClass(p.dscp());
                if (tc != expected) {
                    misfiled.add(new Queues.Queue(h.switchIndex(), h.node(), h.outPort(), tc));
                }
            }
        }
        if (misfiled.isEmpty()) {
            return misfiled; // the common case: one pass, no records built
        }
        for (LintContext.Path p : c.dataPaths()) {
            int expected = DscpClassRule.expectedClass(c, p);
            for (LintContext.Hop h : p.hops()) {
                if (c.switchAt(h.switchIndex()).trafficClass(p.dscp()) == expected) {
                    misfiled.remove(new Queues.Queue(h.switchIndex(), h.node(), h.outPort(), expected));
                }
            }
        }
        return misfiled;
    }
}
