package rocelab.scenario.lint;

import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.Set;

/** The switch queues and priority groups the data paths use, each once, in the order first seen. */
final class Queues {
    /** A (switch, port, traffic class): an egress queue or, on the ingress side, a priority group. */
    record Queue(int switchIndex, int node, int port, int tc) {}

    private Queues() {}

    static Set<Queue> egress(LintContext c) {
        return c.egressQueues();
    }

    static Set<Queue> ingress(LintContext c) {
        return c.ingressQueues();
    }

    /** Computed once per lint by {@link LintContext}: a bit per (switch, port, class), then the records. */
    static Set<Queue> computeEgress(LintContext c) {
        return compute(c, true);
    }

    static Set<Queue> computeIngress(LintContext c) {
        return compute(c, false);
    }

    private static Set<Queue> compute(LintContext c, boolean egress) {
        int ports = 0;
        for (int s = 0; s < c.topology().switchCount(); s++) {
            ports = Math.max(ports, c.topology().portCount(c.topology().hostCount() + s));
        }
        BitSet seen = new BitSet();
        Set<Queue> out = new LinkedHashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            for (LintContext.Hop h : p.hops()) {
                int port = egress ? h.outPort() : h.inPort();
                int tc = c.switchAt(h.switchIndex()).trafficClass(p.dscp());
                int bit = (h.switchIndex() * ports + port) * 8 + tc;
                if (!seen.get(bit)) {
                    seen.set(bit);
                    out.add(new Queue(h.switchIndex(), h.node(), port, tc));
                }
            }
        }
        return out;
    }
}
