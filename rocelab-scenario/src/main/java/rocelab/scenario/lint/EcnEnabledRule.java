package rocelab.scenario.lint;

import java.util.List;
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
        for (Queues.Queue q : Queues.egress(c)) {
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
}
