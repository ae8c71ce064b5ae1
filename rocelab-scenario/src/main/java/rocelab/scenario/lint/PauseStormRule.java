package rocelab.scenario.lint;

import java.util.List;
import rocelab.fabric.nic.PauseStormFault;
import rocelab.scenario.device.SwitchConfig;

/** L13: a pause storm from an RNIC spreads upstream unless the switch above it runs the PFC watchdog. */
final class PauseStormRule implements LintRule {
    @Override
    public String id() {
        return "L13";
    }

    @Override
    public String title() {
        return "PFC storm from an RNIC with no watchdog to stop it";
    }

    @Override
    public void check(LintContext c, Findings out) {
        for (PauseStormFault f : c.config().faults()) {
            // A multi-plane RNIC storms on every port: each plane's leaf.
            for (int plane = 0; plane < c.topology().planes(); plane++) {
                int node = c.topology().peer(f.host(), plane).node();
                SwitchConfig leaf = c.switchAt(node - c.topology().hostCount());
                if (!leaf.pfc().watchdog().enabled()) {
                    out.add(this, Severity.WARNING, List.of("h" + f.host(), leaf.name()),
                            List.of(c.port(node, c.topology().peer(f.host(), plane).port())), "h" + f.host()
                                    + " storms PFC (faults) and " + leaf.name() + " has no watchdog",
                            "the pause spreads upstream and stalls flows that never go to h" + f.host()
                                    + " (victims in flows.csv) for the whole storm",
                            "a PFC watchdog on " + leaf.name());
                }
            }
        }
    }
}
