package rocelab.scenario.lint;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.Trust;

/**
 * L7: an RNIC classifies what it receives by its trust mode. Trusting PCP on an untagged L3 fabric (the mlx5
 * default) files all RoCE under priority 0, so its own PFC and its per-priority counters name the wrong class;
 * trusting DSCP with a map that disagrees with the priority it sends on has the same effect.
 */
final class TrustRule implements LintRule {
    @Override
    public String id() {
        return "L7";
    }

    @Override
    public String title() {
        return "RNIC trust mode or DSCP map disagrees with the switches";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (c.infiniband()) {
            return; // an HCA classifies nothing by trust or DSCP map: those nic keys are errors in infiniband mode
        }
        Set<Integer> hosts = new LinkedHashSet<>();
        for (int[] f : c.flows()) {
            hosts.add(f[0]);
            hosts.add(f[1]);
        }
        boolean vlan = c.config().vlanTagged();
        for (int h : hosts) {
            NicConfig n = c.nic(h);
            int prio = n.parameters().dataPriority();
            boolean slow = n.receive().limited();
            Severity sev = c.lossless() ? slow ? Severity.ERROR : Severity.WARNING : Severity.INFO;
            int leaf = c.topology().peer(h, 0).node();
            String port = c.port(leaf, c.topology().peer(h, 0).port());
            if (n.trust() == Trust.PCP && !vlan) {
                out.add(this, sev, List.of("h" + h), List.of(port), "h" + h + " trusts PCP on an untagged fabric"
                        + " (fabric vlan: false): it files every received RoCE frame under priority 0, not " + prio,
                        (n.pfcEnabled(0) ? "its receive-side PFC goes out on priority 0 and never holds the RoCE"
                                + " class" + (slow ? ": the slow receive pipeline drops instead (out_of_buffer)" : "")
                                : "its receive-side PFC never pauses: it is off on priority 0, where the RoCE frames"
                                + " are filed" + (slow ? ", so the slow receive pipeline drops what does not fit"
                                + " (out_of_buffer)" : ""))
                                + "; rx_prio0_* counters grow instead of rx_prio" + prio + "_*",
                        "trust dscp on the RNIC (nics: [{hosts: " + h + ", trust: dscp}], mlnx_qos --trust dscp)");
            } else if (n.trust() == Trust.DSCP && n.dscpToPriority()[n.parameters().dataDscp()] != prio) {
                int mapped = n.dscpToPriority()[n.parameters().dataDscp()];
                out.add(this, sev, List.of("h" + h), List.of(port), "h" + h + " sends RoCE on priority " + prio
                        + " but its DSCP map files DSCP " + n.parameters().dataDscp() + " under priority " + mapped,
                        "received RoCE is accounted " + (n.pfcEnabled(mapped) ? "(and paused, when the receiver"
                                + " falls behind) " : "") + "on priority " + mapped + " instead of " + prio
                                + (n.pfcEnabled(mapped) ? "" : ", on which PFC is off: a receiver that falls behind drops instead of pausing"),
                        "dscp-to-priority: {" + n.parameters().dataDscp() + ": " + prio + "} on the RNIC");
            }
        }
    }
}
