package rocelab.scenario.lint;

import java.util.List;
import rocelab.fabric.network.IdealSlowLinks;
import rocelab.observe.output.IdealSlowLinksText;

/**
 * L27: a link slower (or much longer) than the other links of its role that the ideal network has too: a host's NIC
 * cable, or uplinks whose equal-cost alternatives are as slow ({@link IdealSlowLinks}). Lint L26 names a slow link
 * beside a fast one of its equal-cost set, whose cost the run counts as network wait; this one names the links whose
 * cost no run counts so, since every ideal figure has them: an audit's NIC cable at 25 Gb/s among 100 Gb/s ones put a
 * ring AllReduce's ideal at 3.4x the healthy fabric's, the run said its GPUs waited 1 ms per iteration, and lint said
 * nothing. A warning: a degraded link can be the experiment.
 */
final class IdealSlowLinksRule implements LintRule {
    @Override
    public String id() {
        return "L27";
    }

    @Override
    public String title() {
        return "A link slower or longer than the others of its role, in the ideal network too";
    }

    @Override
    public void check(LintContext c, Findings out) {
        IdealSlowLinks slow = IdealSlowLinks.of(c.topology());
        for (IdealSlowLinks.Link l : slow.links()) {
            out.add(this, Severity.WARNING, List.of(l.a(), l.b()), List.of(),
                    IdealSlowLinksText.links(IdealSlowLinks.only(l)),
                    "every message over it is held to its " + (l.slower() ? "rate" : "delay") + ", and the ideal"
                            + " network has it too (no link beside it at its hop is " + (l.slower() ? "faster" : "shorter")
                            + "), so a run's network penalty and GPU wait leave out what it costs; the run names it on"
                            + " its ideal line",
                    "give it the " + (l.slower() ? "rate" : "delay") + " of the other " + l.role() + ", or take it out"
                            + " of the fabric; a degraded link as the experiment needs no fix");
        }
    }
}
