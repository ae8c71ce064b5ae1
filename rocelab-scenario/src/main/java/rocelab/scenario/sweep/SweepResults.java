package rocelab.scenario.sweep;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.observe.output.CsvTable;

/**
 * The tidy results table of a sweep: one row per point and seed, in the plan's order; the columns are the point id,
 * the seed, the varied keys (values as written in the sweep file), the status, the run's stop reason and the error
 * of a failed point, then the metrics. The metric columns are the chosen numbers of the points' summary.json files,
 * in order of first appearance over the rows, so the same outcomes always give the same bytes.
 */
public final class SweepResults {
    /** The file name of the table. */
    public static final String FILE = "results.csv";

    private final List<String> header;
    private final List<String> metrics;
    private final List<List<String>> rows;
    private final List<String> unmatched;
    private final int failed;

    private SweepResults(List<String> header, List<String> metrics, List<List<String>> rows, List<String> unmatched,
            int failed) {
        this.header = header;
        this.metrics = metrics;
        this.rows = rows;
        this.unmatched = unmatched;
        this.failed = failed;
    }

    /** The table for a plan; {@code outcomes} by point id (a point without an outcome is "not-run"). */
    public static SweepResults of(SweepPlan plan, Map<String, PointOutcome> outcomes) {
        List<Map<String, String>> numbers = new ArrayList<>();
        Set<String> all = new LinkedHashSet<>();
        for (SweepPoint p : plan.points()) {
            PointOutcome o = outcomes.get(p.id());
            Map<String, String> n = o != null && o.ok() ? SummaryMetrics.numbers(o.summaryJson()) : Map.of();
            numbers.add(n);
            all.addAll(n.keySet());
        }
        List<String> header = new ArrayList<>(List.of("point", "seed"));
        header.addAll(plan.keys());
        header.addAll(List.of("status", "stop_reason", "error"));
        // The summary's own seed is the seed column already.
        all.removeAll(header);
        List<String> metrics = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        if (plan.metrics().isEmpty()) {
            metrics.addAll(all);
        } else {
            for (String selector : plan.metrics()) {
                boolean any = false;
                for (String name : all) {
                    if (matches(selector, name)) {
                        any = true;
                        if (!metrics.contains(name)) {
                            metrics.add(name);
                        }
                    }
                }
                if (!any) {
                    unmatched.add(selector);
                }
            }
        }
        header.addAll(metrics);
        List<List<String>> rows = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < plan.points().size(); i++) {
            SweepPoint p = plan.points().get(i);
            PointOutcome o = outcomes.get(p.id());
            List<String> row = new ArrayList<>(List.of(p.id(), Long.toString(p.seed())));
            row.addAll(p.values());
            if (o == null) {
                row.addAll(List.of("not-run", "", ""));
            } else if (o.ok()) {
                String stop = SummaryMetrics.text(o.summaryJson(), "stop_reason");
                row.addAll(List.of("completed", stop == null ? "" : stop, ""));
            } else {
                failed++;
                row.addAll(List.of("failed", "", o.error()));
            }
            for (String m : metrics) {
                row.add(numbers.get(i).getOrDefault(m, ""));
            }
            rows.add(row);
        }
        return new SweepResults(List.copyOf(header), List.copyOf(metrics), rows, List.copyOf(unmatched), failed);
    }

    /** A selector names a metric exactly or is a prefix of it at a '.' or '[' boundary. */
    static boolean matches(String selector, String name) {
        return name.equals(selector) || name.startsWith(selector)
                && (name.charAt(selector.length()) == '.' || name.charAt(selector.length()) == '[');
    }

    public List<String> header() {
        return header;
    }

    /** The metric columns (the last ones of the header). */
    public List<String> metrics() {
        return metrics;
    }

    /** The cells of each row, as written to the CSV file. */
    public List<List<String>> rows() {
        return rows;
    }

    /** Metric selectors of the sweep that matched no number of any completed point. */
    public List<String> unmatched() {
        return unmatched;
    }

    /** How many rows are failed points. */
    public int failed() {
        return failed;
    }

    /** results.csv (RFC 4180, header row; pandas, R and spreadsheets read it as is). */
    public String csv() {
        CsvTable t = new CsvTable(header);
        for (List<String> r : rows) {
            t.row(r.toArray());
        }
        return t.toString();
    }
}
