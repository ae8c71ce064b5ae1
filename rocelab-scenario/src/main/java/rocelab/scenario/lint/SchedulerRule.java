package rocelab.scenario.lint;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.fabric.port.SchedulerKind;
import rocelab.scenario.device.SwitchConfig;

/**
 * L16: the scheduler must give the RoCE class its share: a tiny DWRR weight next to a busy class starves it, and
 * bulk data in a strict-priority class starves every class below it.
 */
final class SchedulerRule implements LintRule {
    /** A class with a quarter (or less) of a competing class's weight is starved when both are busy. */
    private static final int STARVED_RATIO = 4;

    @Override
    public String id() {
        return "L16";
    }

    @Override
    public String title() {
        return "Scheduler starves the RoCE queue, or strict priority for bulk data";
    }

    @Override
    public void check(LintContext c, Findings out) {
        Map<Queues.Queue, Integer> classesByPort = new HashMap<>();
        for (Queues.Queue q : Queues.egress(c)) {
            classesByPort.merge(new Queues.Queue(q.switchIndex(), q.node(), q.port(), 0), 1 << q.tc(),
                    (a, b) -> a | b);
        }
        for (Queues.Queue q : Queues.egress(c)) {
            SwitchConfig s = c.switchAt(q.switchIndex());
            int busy = classesByPort.get(new Queues.Queue(q.switchIndex(), q.node(), q.port(), 0)) & ~(1 << q.tc());
            String port = c.port(q.node(), q.port());
            if (s.parameters().scheduler() == SchedulerKind.STRICT) {
                if (Integer.highestOneBit(busy) > 1 << q.tc()) {
                    out.add(this, Severity.WARNING, List.of(s.name()), List.of(port), s.name() + " serves classes"
                            + " by strict priority and RoCE class " + q.tc() + " shares ports with the higher data"
                            + " class " + (31 - Integer.numberOfLeadingZeros(busy)),
                            "class " + q.tc() + " gets only what the higher class leaves: its queue builds"
                                    + reactions(c, s, q) + " on healthy load", "scheduler: {kind: dwrr} with weights");
                }
                continue;
            }
            int[] w = s.parameters().dwrrWeights();
            if ((s.parameters().strictClasses() & 1 << q.tc()) != 0) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(port), s.name() + " serves RoCE data"
                        + " class " + q.tc() + " with strict priority",
                        "bulk RoCE in a strict class starves every class below it (no rate limit here)",
                        "keep strict priority for CNP and control classes only (scheduler: {strict: [6, 7]})");
                continue;
            }
            for (int other = 0; other < 8; other++) {
                if ((busy & 1 << other) != 0 && (s.parameters().strictClasses() & 1 << other) == 0
                        && w[other] >= STARVED_RATIO * w[q.tc()]) {
                    out.add(this, Severity.WARNING, List.of(s.name()), List.of(port), s.name() + " gives RoCE class "
                            + q.tc() + " DWRR weight " + w[q.tc()] + " next to weight " + w[other] + " for class "
                            + other + ", which also carries data here",
                            "when both are busy class " + q.tc() + " gets " + Math.round(100.0 * w[q.tc()]
                                    / (w[q.tc()] + w[other])) + " % of the port: its queue builds" + reactions(c, s, q),
                            "a weight for class " + q.tc() + " that matches its share of the load");
                }
            }
        }
    }

    /**
     * What a building queue of the class sets off at this port, from its configuration: {@code , ECN and PFC fire},
     * {@code , ECN fires}, {@code , PFC fires}, or nothing when the class is neither marked nor lossless there.
     */
    private static String reactions(LintContext c, SwitchConfig s, Queues.Queue q) {
        EcnParameters ecn = s.ecn(q.port());
        boolean marks = ecn.scheme() != EcnParameters.Scheme.NONE && (ecn.classMask() & 1 << q.tc()) != 0;
        boolean pauses = c.lossless() && s.pfc().isLossless(q.tc());
        return marks && pauses ? ", ECN and PFC fire" : marks ? ", ECN fires" : pauses ? ", PFC fires" : "";
    }
}
