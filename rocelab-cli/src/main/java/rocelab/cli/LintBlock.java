package rocelab.cli;

import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.LintReport;

/** The lint findings as {@code rocelab run} prints them before simulating: one line each, on stderr. */
final class LintBlock {
    private LintBlock() {}

    static String render(LintReport report, boolean refusing) {
        StringBuilder b = new StringBuilder();
        b.append("lint: ").append(report.counts()).append(refusing ? " - not running (--strict)"
                : " - running anyway; rocelab lint shows symptoms and fixes").append('\n');
        for (Finding f : report.findings()) {
            b.append("  ").append(f.severity().key()).append(' ').append(f.rule()).append(": ").append(f.what())
                    .append('\n');
        }
        return b.toString();
    }
}
