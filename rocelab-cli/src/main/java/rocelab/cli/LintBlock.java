package rocelab.cli;

import rocelab.observe.output.Numbers;
import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.LintReport;

/**
 * The lint findings as {@code rocelab run} prints them, before the run or as soon as they are there while it goes:
 * one line each, on stderr.
 */
final class LintBlock {
    /** Findings shown before the run; the rest are counted (rocelab lint shows them all), unless only one is left. */
    static final int SHOWN = 20;

    private LintBlock() {}

    static String render(LintReport report, boolean refusing) {
        StringBuilder b = new StringBuilder();
        b.append("lint: ").append(report.counts()).append(refusing ? " - not running (--strict)"
                : " - running anyway; rocelab lint shows symptoms and fixes").append('\n');
        int shown = Numbers.shown(report.findings().size(), SHOWN);
        for (Finding f : report.findings().subList(0, shown)) {
            b.append("  ").append(f.severity().key()).append(' ').append(f.rule()).append(": ").append(f.what())
                    .append('\n');
        }
        if (report.findings().size() > shown) {
            b.append("  ... and ").append(report.findings().size() - shown)
                    .append(" more (rocelab lint lists them all)\n");
        }
        return b.toString();
    }
}
