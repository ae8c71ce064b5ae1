package rocelab.scenario.sweep;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.lint.Severity;

/**
 * What {@code rocelab lint} says of one sweep point's scenario, as results.csv and sweep.html give it: the numbers of
 * error and warning findings (as the lint's first line counts them) and their rule ids, each once, in the lint's
 * order. A sweep's best point can break a rule (an audit's lowest-FCT buffer and Kmin had ECN marking only after PFC
 * pauses, L5), and nothing said so. The lint reads the scenario alone, so a point's is the same whether it ran now,
 * before, or failed.
 *
 * @param errors error findings
 * @param warnings warning findings
 * @param errorRules the rules of the errors ({@code L5})
 * @param warningRules the rules of the warnings
 */
public record PointLint(long errors, long warnings, List<String> errorRules, List<String> warningRules)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public PointLint {
        errorRules = List.copyOf(errorRules);
        warningRules = List.copyOf(warningRules);
    }

    /** The columns results.csv gives it, after {@code error}. */
    static final List<String> COLUMNS = List.of("lint_errors", "lint_warnings", "lint_error_rules",
            "lint_warning_rules");

    public static PointLint of(LintReport report) {
        return new PointLint(report.count(Severity.ERROR), report.count(Severity.WARNING),
                rules(report, Severity.ERROR), rules(report, Severity.WARNING));
    }

    /** Lints a point's scenario (read as the sweep validated it). */
    public static PointLint of(SweepPoint point) throws Exception {
        return of(Lint.check(PointRunner.config(point)));
    }

    /**
     * Every point's lint, by point id, linted in parallel on this JVM's common pool (a Spark driver's: the points'
     * scenarios are what it validated); a point whose lint fails has no entry, and its cells stay empty.
     */
    public static Map<String, PointLint> all(List<SweepPoint> points) {
        Map<String, PointLint> out = new ConcurrentHashMap<>();
        points.parallelStream().forEach(p -> {
            try {
                out.put(p.id(), of(p));
            } catch (Exception | StackOverflowError e) {
                // Left empty: a lint that fails is not a sweep that fails.
            }
        });
        return out;
    }

    private static List<String> rules(LintReport report, Severity severity) {
        List<String> out = new ArrayList<>();
        for (Finding f : report.findings()) {
            if (f.severity() == severity && !out.contains(f.rule())) {
                out.add(f.rule());
            }
        }
        return out;
    }

    /** The cells of {@link #COLUMNS}: the rule ids separated by spaces ({@code L5 L12}). */
    List<String> cells() {
        return List.of(Long.toString(errors), Long.toString(warnings), String.join(" ", errorRules),
                String.join(" ", warningRules));
    }
}
