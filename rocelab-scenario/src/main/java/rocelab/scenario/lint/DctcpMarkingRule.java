package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L22 (beyond the reference list): DCTCP's alpha estimates the share of its bytes the queue marked above one
 * threshold K (RFC 8257); RED marks with a probability that rises from Kmin to Kmax, so its share says how deep the
 * queue was in a blurred way and the queue settles far deeper. On the example websearch-load at 30 and 70 % load,
 * DCTCP on the default RED marking gave the flows of up to 100 kB a p99 slowdown of 5.78 and 15.15 and queues of
 * 0.84 and 1.69 MB; with `marking: step, k: 100KB`, 2.75 and 3.68 and queues of 0.25 and 0.39 MB.
 */
final class DctcpMarkingRule implements LintRule {
    @Override
    public String id() {
        return "L22";
    }

    @Override
    public String title() {
        return "DCTCP behind RED marking";
    }

    @Override
    public void check(LintContext c, Findings out) {
        Set<String> devices = new LinkedHashSet<>();
        Set<String> senders = new LinkedHashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            if (!c.nic(p.src()).congestion().name().equals("dctcp")) {
                continue;
            }
            for (LintContext.Hop h : p.hops()) {
                SwitchConfig s = c.switchAt(h.switchIndex());
                EcnParameters ecn = s.ecn(h.outPort());
                int tc = s.trafficClass(p.dscp());
                if (ecn.scheme() == EcnParameters.Scheme.RED && (ecn.classMask() & 1 << tc) != 0
                        && devices.add(s.name())) {
                    senders.add("h" + p.src());
                }
            }
        }
        if (devices.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>(devices);
        out.add(this, Severity.WARNING, names, List.of(), "DCTCP senders' data crosses queues that mark with RED"
                + " (a probability between Kmin and Kmax), where DCTCP expects one threshold K",
                "its alpha reads a blurred share of marks and the queues settle deep: longer tails for short flows"
                        + " (the example websearch-load: p99 5.78 with RED, 2.75 with step marking at 30 % load)",
                "switch: {ecn: {marking: step, k: 100KB}} (K above C x RTT / 7, the DCTCP paper's bound)");
    }
}
