package rocelab.scenario.sweep;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.observe.output.CsvTable;

/**
 * The tidy results table of a sweep: one row per point and seed, in the plan's order; the columns are the point id,
 * the seed, the varied keys (values as written in the sweep file), the status, the run's stop reason and the error
 * of a failed point, what rocelab lint says of the point's scenario (errors, warnings, their rules), then the
 * metrics. The metric columns are the chosen numbers of the points' summary.json files,
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
    private final List<Boolean> stoppedEarly;
    private final Map<String, Integer> stoppedByReason;
    private final List<String> flowsDone;
    private final List<Map<String, String>> units;

    /**
     * The counters whose unit depends on the point's congestion control, and the summary key that names it: a sweep
     * that varies the control sets counts of different events side by side (a DCQCN cut, an HPCC window update).
     */
    static final Map<String, String> UNIT_KEYS = Map.of("counters.rate_cuts", "rate_cuts_unit",
            "counters.cnp_sent", "cnp_sent_unit");

    private SweepResults(List<String> header, List<String> metrics, List<List<String>> rows, List<String> unmatched,
            int failed, List<Boolean> stoppedEarly, List<String> flowsDone, List<Map<String, String>> units) {
        this.flowsDone = List.copyOf(flowsDone);
        this.units = List.copyOf(units);
        this.header = header;
        this.metrics = metrics;
        this.rows = rows;
        this.unmatched = unmatched;
        this.failed = failed;
        this.stoppedEarly = List.copyOf(stoppedEarly);
        Map<String, Integer> byReason = new LinkedHashMap<>();
        int stop = header.indexOf("stop_reason");
        for (int i = 0; i < rows.size(); i++) {
            if (stoppedEarly.get(i)) {
                byReason.merge(rows.get(i).get(stop), 1, Integer::sum);
            }
        }
        this.stoppedByReason = Collections.unmodifiableMap(byReason);
    }

    /**
     * Whether a run that ended without error stopped before its workload completed: summary.json's {@code finished}
     * is false (some flow neither completed nor failed: the run reached {@code run.stop-at}, deadlocked, stalled or
     * ran out of events). A summary without {@code finished} is judged by its stop reason.
     */
    static boolean stoppedEarly(String summaryJson) {
        String finished = SummaryMetrics.text(summaryJson, "finished");
        if (finished != null) {
            return finished.equals("false");
        }
        String stop = SummaryMetrics.text(summaryJson, "stop_reason");
        return stop != null && !WORKLOAD_ENDED.contains(stop);
    }

    /** The stop reasons of a run in which every flow ended (completed or failed). */
    private static final Set<String> WORKLOAD_ENDED = Set.of("completed", "some-failed", "all-failed");

    /**
     * The table for a plan; {@code outcomes} by point id (a point without an outcome is "not-run"), {@code lint} by
     * point id (a point without one, whose lint could not run, has empty lint cells).
     */
    public static SweepResults of(SweepPlan plan, Map<String, PointOutcome> outcomes, Map<String, PointLint> lint) {
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
        header.addAll(PointLint.COLUMNS);
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
        List<Boolean> early = new ArrayList<>();
        List<String> flowsDone = new ArrayList<>();
        List<Map<String, String>> units = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < plan.points().size(); i++) {
            SweepPoint p = plan.points().get(i);
            PointOutcome o = outcomes.get(p.id());
            List<String> row = new ArrayList<>(List.of(p.id(), Long.toString(p.seed())));
            boolean stopped = false;
            if (o == null || !o.ok()) {
                flowsDone.add("");
            }
            row.addAll(p.values());
            if (o == null) {
                row.addAll(List.of("not-run", "", ""));
            } else if (o.ok()) {
                String stop = SummaryMetrics.text(o.summaryJson(), "stop_reason");
                row.addAll(List.of("completed", stop == null ? "" : stop, ""));
                stopped = stoppedEarly(o.summaryJson());
                Map<String, String> n = numbers.get(i);
                flowsDone.add(stopped && n.containsKey("flows.completed") && n.containsKey("flows.count")
                        ? n.get("flows.completed") + " of " + n.get("flows.count") : "");
            } else {
                failed++;
                row.addAll(List.of("failed", "", o.error()));
            }
            PointLint l = lint.get(p.id());
            row.addAll(l == null ? Collections.nCopies(PointLint.COLUMNS.size(), "") : l.cells());
            for (String m : metrics) {
                row.add(numbers.get(i).getOrDefault(m, ""));
            }
            rows.add(row);
            early.add(stopped);
            Map<String, String> u = new LinkedHashMap<>();
            for (var e : UNIT_KEYS.entrySet()) {
                String text = o != null && o.ok() ? SummaryMetrics.text(o.summaryJson(), "counters", e.getValue()) : null;
                if (text != null) {
                    u.put(e.getKey(), text);
                }
            }
            units.add(u);
        }
        return new SweepResults(List.copyOf(header), List.copyOf(metrics), rows, List.copyOf(unmatched), failed,
                early, flowsDone, units);
    }

    /** A selector names a metric exactly or is a prefix of it at a '.' or '[' boundary. */
    static boolean matches(String selector, String name) {
        return name.equals(selector) || name.startsWith(selector)
                && (name.charAt(selector.length()) == '.' || name.charAt(selector.length()) == '[');
    }

    /**
     * What row {@code i}'s {@code metric} counts (summary.json {@code counters.rate_cuts_unit} or {@code cnp_sent_unit}),
     * or null when the metric has no such unit or the run wrote none.
     */
    public String unit(int i, String metric) {
        return units.get(i).get(metric);
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

    /** Whether row {@code i}'s scenario has lint errors. */
    public boolean lintErrors(int i) {
        String cell = rows.get(i).get(header.indexOf(PointLint.COLUMNS.get(0)));
        return !cell.isEmpty() && !cell.equals("0");
    }

    /** How many rows' scenarios have lint errors. */
    public int lintErrorRuns() {
        int n = 0;
        for (int i = 0; i < rows.size(); i++) {
            n += lintErrors(i) ? 1 : 0;
        }
        return n;
    }

    /** The rule ids of the lint errors of every row, each once, in order of first row ({@code L5 L3}). */
    public List<String> lintErrorRules() {
        int c = header.indexOf(PointLint.COLUMNS.get(2));
        Set<String> out = new LinkedHashSet<>();
        for (List<String> r : rows) {
            if (!r.get(c).isEmpty()) {
                out.addAll(List.of(r.get(c).split(" ")));
            }
        }
        return List.copyOf(out);
    }

    /** How many rows are failed points. */
    public int failed() {
        return failed;
    }

    /** Whether row {@code i} is a run that ended without error but stopped before its workload completed. */
    public boolean stoppedEarly(int i) {
        return stoppedEarly.get(i);
    }

    /** For a run that stopped before its workload completed: "2 of 5" flows completed (else ""). */
    public String flowsCompleted(int i) {
        return flowsDone.get(i);
    }

    /** How many runs stopped before their workload completed. */
    public int stopped() {
        return stoppedEarly.stream().mapToInt(b -> b ? 1 : 0).sum();
    }

    /** The runs that stopped before their workload completed, counted by stop reason (in order of first row). */
    public Map<String, Integer> stoppedByReason() {
        return stoppedByReason;
    }

    /** "2 stop-at, 1 deadlock": the counts of {@link #stoppedByReason()}, or "" when none stopped early. */
    public String stoppedText() {
        StringBuilder b = new StringBuilder();
        stoppedByReason.forEach((r, n) -> b.append(b.length() == 0 ? "" : ", ").append(n).append(' ')
                .append(r.isEmpty() ? "unknown" : r));
        return b.toString();
    }

    /**
     * One line per failed point, in the plan's order: {@code point ID (key=value, ..., seed N) failed: REASON}, the
     * reason's first line (results.csv has it whole).
     */
    public List<String> failures() {
        int status = header.indexOf("status");
        int error = header.indexOf("error");
        List<String> out = new ArrayList<>();
        for (List<String> r : rows) {
            if (!r.get(status).equals("failed")) {
                continue;
            }
            StringBuilder b = new StringBuilder("point ").append(r.get(0)).append(" (");
            for (int k = 2; k < status; k++) {
                b.append(header.get(k)).append('=').append(r.get(k)).append(", ");
            }
            String reason = r.get(error).lines().findFirst().orElse("");
            out.add(b.append("seed ").append(r.get(1)).append(") failed: ").append(reason).toString());
        }
        return out;
    }

    /**
     * What a sweep says on stderr after its runs, also with -q, wherever it ran (rocelab sweep, rocelab-spark): the
     * runs whose scenario has lint errors (a best point may be one of them), and the metrics no completed run wrote.
     */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        int linted = lintErrorRuns();
        if (linted > 0) {
            out.add("warning: " + linted + " of " + rows.size() + " runs have lint errors ("
                    + String.join(", ", lintErrorRules()) + "): results.csv lint_error_rules names them,"
                    + " sweep.html marks them");
        }
        for (String m : unmatched) {
            out.add("warning: metric '" + m + "' is not a number in any completed point's summary.json");
        }
        return out;
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
