package rocelab.scenario.lint;

import java.util.LinkedHashSet;
import java.util.Set;

/** The switch queues and priority groups the data paths use, each once, in the order first seen. */
final class Queues {
    /** A (switch, port, traffic class): an egress queue or, on the ingress side, a priority group. */
    record Queue(int switchIndex, int node, int port, int tc) {}

    private Queues() {}

    static Set<Queue> egress(LintContext c) {
        Set<Queue> out = new LinkedHashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            for (LintContext.Hop h : p.hops()) {
                out.add(new Queue(h.switchIndex(), h.node(), h.outPort(), c.switchAt(h.switchIndex())
                        .trafficClass(p.dscp())));
            }
        }
        return out;
    }

    static Set<Queue> ingress(LintContext c) {
        Set<Queue> out = new LinkedHashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            for (LintContext.Hop h : p.hops()) {
                out.add(new Queue(h.switchIndex(), h.node(), h.inPort(), c.switchAt(h.switchIndex())
                        .trafficClass(p.dscp())));
            }
        }
        return out;
    }
}
