package rocelab.scenario.lint;

import java.util.List;
import rocelab.scenario.device.NicConfig;

/**
 * L9: DCQCN needs both halves on: the receiver's notification point (sends CNPs for CE-marked packets) and the
 * sender's reaction point (cuts its rate on CNPs).
 */
final class DcqcnEnabledRule implements LintRule {
    @Override
    public String id() {
        return "L9";
    }

    @Override
    public String title() {
        return "DCQCN notification or reaction point disabled";
    }

    @Override
    public void check(LintContext c, Findings out) {
        for (int[] f : c.flows()) {
            NicConfig sender = c.nic(f[0]);
            NicConfig receiver = c.nic(f[1]);
            if (!sender.congestion().name().equals("dcqcn")) {
                continue;
            }
            if (!receiver.notificationPoint()) {
                out.add(this, Severity.ERROR, List.of("h" + f[1]), List.of(), "h" + f[1] + " has the DCQCN"
                        + " notification point off (np: false), so it never answers CE marks with CNPs",
                        "np_ecn_marked_roce_packets rises on h" + f[1] + " but np_cnp_sent stays 0: its senders"
                                + " never slow down, congestion ends in PFC pauses or drops",
                        "np: true on h" + f[1] + " (echo 1 > /sys/class/net/<if>/ecn/roce_np/enable/<prio>)");
            }
            if (!sender.reactionPoint()) {
                out.add(this, Severity.ERROR, List.of("h" + f[0]), List.of(), "h" + f[0] + " has the DCQCN reaction"
                        + " point off (rp: false), so its QPs ignore CNPs",
                        "peers' np_cnp_sent rises but rp_cnp_handled on h" + f[0] + " stays flat (rp_cnp_ignored"
                                + " rises); h" + f[0] + " keeps line rate into congestion",
                        "rp: true on h" + f[0] + " (echo 1 > /sys/class/net/<if>/ecn/roce_rp/enable/<prio>)");
            }
        }
    }
}
