package rocelab.scenario.lint;

import java.util.List;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * L2: both ends of every link must have PFC on the priority the lossless traffic uses. A device acts on PFC
 * frames only for its PFC-enabled priorities (802.1Qbb), so a pause sent to a device that has PFC off on that
 * priority changes nothing, and the sender of the pause overflows its headroom.
 */
final class PfcEnableRule implements LintRule {
    @Override
    public String id() {
        return "L2";
    }

    @Override
    public String title() {
        return "PFC not enabled on the RoCE priority at both ends of a link";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (!c.lossless()) {
            return;
        }
        for (LintContext.Path path : c.dataPaths()) {
            NicConfig sender = c.nic(path.src());
            int prio = sender.parameters().dataPriority();
            LintContext.Hop first = path.hops().get(0);
            SwitchConfig leaf = c.switchAt(first.switchIndex());
            int tc = leaf.trafficClass(path.dscp());
            if (leaf.pfc().isLossless(tc) && !sender.pfcEnabled(prio)) {
                out.add(this, Severity.ERROR, List.of("h" + path.src(), leaf.name()),
                        List.of(c.port(first.node(), first.inPort())), "h" + path.src() + " has PFC off on its"
                                + " RoCE priority " + prio + " (RNIC PFC " + PriorityText.list(sender.pfcMask())
                                + ") while " + leaf.name() + " treats the traffic as lossless",
                        "the RNIC ignores " + leaf.name() + "'s XOFF: " + leaf.name() + " overflows the headroom of"
                                + " that port and drops (dropped_headroom_exceeded) although the class is lossless",
                        // The snippet's list replaces the RNIC's: it keeps the priorities already on.
                        "enable PFC on priority " + prio + " on the RNIC (nics: [{hosts: " + path.src() + ", pfc: "
                                + PriorityText.list(sender.pfcMask() | 1 << prio) + "}], mlnx_qos --pfc)");
            }
            for (int i = 1; i < path.hops().size(); i++) {
                LintContext.Hop up = path.hops().get(i - 1);
                LintContext.Hop down = path.hops().get(i);
                SwitchConfig u = c.switchAt(up.switchIndex());
                SwitchConfig d = c.switchAt(down.switchIndex());
                int dtc = d.trafficClass(path.dscp());
                if (d.pfc().isLossless(dtc) && !u.pfc().isLossless(dtc)) {
                    out.add(this, Severity.ERROR, List.of(u.name(), d.name()),
                            List.of(c.port(up.node(), up.outPort()), c.port(down.node(), down.inPort())),
                            d.name() + " pauses priority " + dtc + " towards " + u.name() + ", which has PFC off on"
                                    + " it (PFC on " + PriorityText.list(u.pfc().losslessMask()) + ")",
                            u.name() + " keeps sending through " + d.name() + "'s XOFF: " + d.name()
                                    + " drops on a lossless class once the headroom is full"
                                    + " (dropped_headroom_exceeded); " + u.name() + " counts the pause frames but"
                                    + " never pauses",
                            // The list replaces the switch's: [0] alone would turn its lossless classes lossy.
                            "enable PFC on priority " + dtc + " on " + u.name() + " (switches: [{name: " + u.name()
                                    + ", pfc: {priorities: " + PriorityText.list(u.pfc().losslessMask() | 1 << dtc)
                                    + "}}])");
                }
            }
            receiver(c, path, out);
        }
    }

    /** The receiving RNIC's own PFC (a slow receive pipeline) must be honoured by its switch. */
    private void receiver(LintContext c, LintContext.Path path, Findings out) {
        NicConfig r = c.nic(path.dst());
        LintContext.Hop last = path.hops().get(path.hops().size() - 1);
        SwitchConfig leaf = c.switchAt(last.switchIndex());
        int rxPrio = r.receivePriority(c.config().vlanTagged(), r.parameters().dataPriority());
        int tc = leaf.trafficClass(path.dscp());
        if (!leaf.pfc().isLossless(tc)) {
            return;
        }
        boolean slow = r.receive().limited();
        if (!r.pfcEnabled(rxPrio) && rxPrio == tc) {
            String port = c.port(last.node(), last.outPort());
            out.add(this, slow ? Severity.ERROR : Severity.INFO, List.of("h" + path.dst(), leaf.name()),
                    List.of(port), "h" + path.dst() + " files received RoCE under priority " + rxPrio
                            + ", on which its PFC is off (RNIC PFC " + PriorityText.list(r.pfcMask()) + ")",
                    slow ? "its receive buffer overflows instead of pausing " + leaf.name() + " (out_of_buffer)"
                            : "nothing while the RNIC keeps up with its link; a slow receiver would drop",
                    "enable PFC on priority " + rxPrio + " on h" + path.dst());
        }
    }
}
