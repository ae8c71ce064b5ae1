package rocelab.scenario.lint;

import java.util.List;
import rocelab.scenario.device.ImportNote;

/**
 * I1: what an imported switch configuration (SONiC config_db.json) held that was not applied, so nothing in it is
 * silently ignored: QoS entries the model cannot represent are warnings, whole unrelated tables are info.
 */
final class ImportNotesRule implements LintRule {
    @Override
    public String id() {
        return "I1";
    }

    @Override
    public String title() {
        return "Imported switch configuration not fully applied";
    }

    @Override
    public void check(LintContext c, Findings out) {
        for (ImportNote n : c.devices().importNotes()) {
            out.add(this, n.unrelated() ? Severity.INFO : Severity.WARNING, List.of(n.file()), List.of(), n.text(),
                    n.unrelated() ? "none: these tables do not shape RoCE traffic"
                            : "the simulated switch differs from the real one in this respect",
                    n.unrelated() ? "nothing to do" : "set it in the scenario if it matters (switches: entry keys"
                            + " override the imported values)");
        }
    }
}
