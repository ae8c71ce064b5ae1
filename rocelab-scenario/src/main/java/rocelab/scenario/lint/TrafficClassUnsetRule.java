package rocelab.scenario.lint;

import java.util.List;

/** L8: RoCE sent with DSCP 0 (NCCL_IB_TC unset, perftest without -T) rides the best-effort class. */
final class TrafficClassUnsetRule implements LintRule {
    @Override
    public String id() {
        return "L8";
    }

    @Override
    public String title() {
        return "RoCE traffic class unset (DSCP 0)";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            // Every virtual lane is lossless by credits, and service level 0 is no best-effort class: nothing to warn.
            return;
        }
        for (int[] f : c.flows()) {
            if (f[2] == 0) {
                out.add(this, Severity.WARNING, List.of("h" + f[0]), List.of(), "RoCE traffic is sent with DSCP 0"
                        + " (the default when NCCL_IB_TC or the QP's traffic class is not set)",
                        "it shares the best-effort class: drops and retransmissions under load, no PFC",
                        "set the RoCE DSCP (nic dscp: 26, or the traffic item's dscp; NCCL_IB_TC=106)");
            }
        }
    }
}
