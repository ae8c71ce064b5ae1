package rocelab.scenario.sweep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.observe.RunResult;
import rocelab.observe.output.Summary;
import rocelab.observe.report.NiceTicks;

/**
 * sweep.html: a self-contained page with, for every metric that differs between points, one chart per varied key:
 * the key's values along x (in the sweep file's order), the metric's mean over seeds as a line, and its spread
 * (lowest to highest seed) as a bar at each value; one line per combination of the other keys. Metrics that are the
 * same in every point are listed in a table instead, and failed points with their errors.
 */
public final class SweepReport {
    public static final String FILE = "sweep.html";
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 460;
    private static final int H = 250;
    /** At most this many round steps on a y axis (6 ticks). */
    private static final int Y_STEPS = 5;
    /** Pixels per character of an 11px tick label, generously (digits are about 6.2 px in DejaVu Sans). */
    private static final double CHAR_PX = 7;
    private static final int RIGHT = 12;
    private static final int TOP = 12;
    private static final int BOTTOM = 40;
    /** Height of a further line of x labels (a zipped key's values). */
    private static final int LINE = 13;
    /** Under a chart with runs that stopped before their workload completed. */
    static final String HOLLOW_NOTE = "○ hollow marker: some run there stopped before its workload completed (see"
            + " the table below); its flow figures count only the flows that finished.";

    /** Under a chart with runs whose scenario has lint errors. */
    static final String LINT_NOTE = "dashed ring: the scenario of some run there has lint errors (see Lint below):"
            + " it breaks a rule rocelab lint checks, whatever its figures here.";

    private SweepReport() {}

    public static String html(SweepPlan plan, SweepResults results) {
        List<String> header = results.header();
        int firstKey = 2;
        int keys = plan.keys().size();
        int firstMetric = header.size() - results.metrics().size();
        int status = header.indexOf("status");
        int stop = header.indexOf("stop_reason");
        List<List<String>> ok = new ArrayList<>();
        List<List<String>> failed = new ArrayList<>();
        Set<List<String>> early = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<List<String>, String> stopReason = new IdentityHashMap<>();
        Set<List<String>> linted = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < results.rows().size(); i++) {
            List<String> r = results.rows().get(i);
            (r.get(status).equals("completed") ? ok : failed).add(r);
            if (results.lintErrors(i)) {
                linted.add(r);
            }
            if (results.stoppedEarly(i)) {
                early.add(r);
                stopReason.put(r, r.get(stop));
            }
        }
        // Under zip the keys move together: one chart per metric along all of them. Otherwise one per key.
        List<List<Integer>> onX = new ArrayList<>();
        if (plan.combine().equals("zip")) {
            List<Integer> all = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                all.add(k);
            }
            onX.add(all);
        } else {
            for (int k = 0; k < keys; k++) {
                onX.add(List.of(k));
            }
        }
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sweep ")
                .append(esc(plan.sweepFile())).append("</title>\n<style>body{font:14px system-ui,sans-serif;margin:24px;"
                        + "color:#222}h2{margin-top:28px}.grid{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0}"
                        + "figcaption{font-size:12px;color:#555}table{border-collapse:collapse}td,th{border:1px solid"
                        + " #ccc;padding:2px 8px;text-align:left}svg text{font:11px system-ui,sans-serif}</style>"
                        + "</head><body>\n");
        b.append("<h1>sweep ").append(esc(plan.sweepFile())).append("</h1>\n<p>base scenario ")
                .append(esc(plan.baseScenario())).append(" · ").append(esc(plan.combine())).append(" of ")
                .append(esc(String.join(", ", plan.keys()))).append(" · ").append(results.rows().size())
                .append(" runs: ").append(ok.size() - early.size()).append(" completed their workload, ")
                .append(early.size()).append(" stopped before it completed")
                .append(early.isEmpty() ? "" : " (" + esc(results.stoppedText()) + ")").append(", ")
                .append(failed.size()).append(" failed · model ").append(esc(plan.model()))
                // An ideal or flow-level figure read as a fabric's (an audit: an ideal incast sweep's p99 FCT, "the same
                // in every completed run", was each flow's time alone): what the model leaves out, as each point says.
                .append("packet".equals(plan.model()) ? "" : " (what it does not model: every point's summary.json"
                        + " not_modelled" + ("ideal".equals(plan.model()) ? esc(RunResult.IDEAL_BOUNDS) : "") + ")")
                .append(". Each chart: mean over seeds (line) and lowest to highest seed (bar)")
                .append(early.isEmpty() ? "" : "; a hollow marker: some run there stopped before its workload"
                        + " completed, and its flow figures count only the flows that finished")
                .append(".</p>\n");
        if (!linted.isEmpty()) {
            b.append("<p><b>").append(linted.size()).append(" of ").append(results.rows().size())
                    .append(" runs have lint errors</b> (").append(esc(String.join(", ", results.lintErrorRules())))
                    .append("): their scenarios break a rule rocelab lint checks, so a best figure among them is"
                            + " not a configuration to pick as it is. A dashed ring marks them in the charts; see <a"
                            + " href=\"#lint\">Lint</a> below.</p>\n");
        }
        List<String[]> constant = new ArrayList<>();
        StringBuilder toc = new StringBuilder();
        int tocAt = b.length();
        int unlisted = 0;
        for (int m = firstMetric; m < header.size(); m++) {
            String metric = header.get(m);
            if (Arrays.asList(Summary.WALL_CLOCK_KEYS).contains(metric)) {
                continue; // the machine's speed, not the scenario's: in results.csv only
            }
            if (plan.metrics().isEmpty() && metric.contains("[")) {
                // Entries of lists (the i-th hop of a pause tree) mean different things in different points.
                unlisted++;
                continue;
            }
            if (distinct(ok, m) <= 1) {
                constant.add(new String[] {metric, ok.isEmpty() ? "" : ok.get(0).get(m)});
                continue;
            }
            toc.append(toc.length() == 0 ? "" : " · ").append("<a href=\"#m").append(m).append("\">").append(esc(metric))
                    .append("</a>");
            b.append("<h2 id=\"m").append(m).append("\">").append(esc(metric)).append("</h2>\n");
            b.append(units(plan, results, metric, firstKey, keys));
            b.append("<div class=\"grid\">\n");
            for (List<Integer> x : onX) {
                b.append(chart(plan, header, ok, early, stopReason, linted, firstKey, keys, x, m));
            }
            b.append("</div>\n");
        }
        b.insert(tocAt, "<p>Metrics that differ between runs: " + (toc.length() == 0 ? "none" : toc) + "</p>\n");
        if (unlisted > 0) {
            b.append("<p>").append(unlisted).append(" numbers from lists in summary.json (such as"
                    + " pfc_propagation[0].paused_us) are in results.csv but not charted; name them under metrics: in"
                    + " the sweep file to chart them.</p>\n");
        }
        if (!constant.isEmpty()) {
            b.append("<h2>The same in every completed run</h2>\n<table><tr><th>metric</th><th>value</th></tr>\n");
            for (String[] c : constant) {
                b.append("<tr><td>").append(esc(c[0])).append("</td><td>").append(esc(c[1])).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        if (!early.isEmpty()) {
            b.append("<h2>Runs that stopped before their workload completed</h2>\n<p>Their flow figures (FCT,"
                    + " slowdown, goodput) count only the flows that finished before the run stopped.</p>\n"
                    + "<table><tr><th>point</th><th>seed</th>");
            for (String k : plan.keys()) {
                b.append("<th>").append(esc(k)).append("</th>");
            }
            b.append("<th>stop_reason</th><th>flows completed</th></tr>\n");
            for (int i = 0; i < results.rows().size(); i++) {
                List<String> r = results.rows().get(i);
                if (!early.contains(r)) {
                    continue;
                }
                b.append("<tr>");
                for (int c = 0; c < firstKey + keys; c++) {
                    b.append("<td>").append(esc(r.get(c))).append("</td>");
                }
                b.append("<td>").append(esc(r.get(stop))).append("</td><td>")
                        .append(esc(results.flowsCompleted(i))).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        lint(b, plan, results, linted, firstKey + keys);
        if (!failed.isEmpty()) {
            b.append("<h2>Failed points</h2>\n<table><tr><th>point</th><th>seed</th>");
            for (String k : plan.keys()) {
                b.append("<th>").append(esc(k)).append("</th>");
            }
            b.append("<th>error</th></tr>\n");
            int error = header.indexOf("error");
            for (List<String> r : failed) {
                b.append("<tr>");
                for (int c = 0; c < firstKey + keys; c++) {
                    b.append("<td>").append(esc(r.get(c))).append("</td>");
                }
                b.append("<td>").append(esc(r.get(error))).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    /**
     * What a counter whose unit depends on the congestion control counts in each completed run (summary.json
     * {@code counters.rate_cuts_unit}, {@code cnp_sent_unit}): one line when every run counts the same thing, else each
     * kind with the points that count it, so a chart that sets a DCQCN cut beside an HPCC window update says so.
     */
    static String units(SweepPlan plan, SweepResults results, String metric, int firstKey, int keys) {
        Map<String, List<String>> byUnit = new LinkedHashMap<>();
        for (int i = 0; i < results.rows().size(); i++) {
            String unit = results.unit(i, metric);
            if (unit == null) {
                continue;
            }
            List<String> r = results.rows().get(i);
            StringBuilder point = new StringBuilder();
            for (int k = 0; k < keys; k++) {
                point.append(k == 0 ? "" : ", ").append(plan.keys().get(k)).append('=').append(r.get(firstKey + k));
            }
            List<String> points = byUnit.computeIfAbsent(unit, u -> new ArrayList<>());
            if (!points.contains(point.toString())) {
                points.add(point.toString());
            }
        }
        if (byUnit.isEmpty()) {
            return "";
        }
        String key = "summary.json counters." + SweepResults.UNIT_KEYS.get(metric);
        if (byUnit.size() == 1) {
            return "<p>Each run counts " + esc(byUnit.keySet().iterator().next()) + " (" + key + ").</p>\n";
        }
        StringBuilder b = new StringBuilder("<p>Not one unit: the points count different events, by their congestion"
                + " control (" + key + "), so their values are not comparable as one quantity:</p>\n<ul>\n");
        for (var e : byUnit.entrySet()) {
            b.append("<li>").append(esc(e.getKey())).append(": ").append(esc(String.join("; ", e.getValue())))
                    .append("</li>\n");
        }
        return b.append("</ul>\n").toString();
    }

    /**
     * The Lint section: every run whose scenario has lint errors, with its rules (results.csv has them all), and how
     * many runs have warnings of each rule.
     */
    private static void lint(StringBuilder b, SweepPlan plan, SweepResults results, Set<List<String>> linted,
            int firstLint) {
        List<String> header = results.header();
        int errors = header.indexOf("lint_errors");
        int warnings = header.indexOf("lint_warnings");
        int errorRules = header.indexOf("lint_error_rules");
        int warningRules = header.indexOf("lint_warning_rules");
        Map<String, Integer> warned = new LinkedHashMap<>();
        int unknown = 0;
        for (List<String> r : results.rows()) {
            if (r.get(errors).isEmpty()) {
                unknown++;
            } else if (!r.get(warningRules).isEmpty()) {
                for (String rule : r.get(warningRules).split(" ")) {
                    warned.merge(rule, 1, Integer::sum);
                }
            }
        }
        b.append("<h2 id=\"lint\">Lint</h2>\n<p>What <code>rocelab lint</code> says of each run's scenario"
                + " (results.csv: lint_errors, lint_warnings and their rules; <code>rocelab lint"
                + " points/&lt;id&gt;/scenario.yaml</code> for the findings, which each point's manifest.json and report list too). ");
        if (linted.isEmpty()) {
            b.append("No run has lint errors");
        } else {
            b.append(linted.size()).append(linted.size() == 1 ? " run has" : " runs have").append(" lint errors");
        }
        if (!warned.isEmpty()) {
            StringBuilder w = new StringBuilder();
            warned.forEach((rule, n) -> w.append(w.length() == 0 ? "" : ", ").append(rule).append(" in ").append(n)
                    .append(n == 1 ? " run" : " runs"));
            b.append("; warnings: ").append(esc(w.toString()));
        }
        if (unknown > 0) {
            b.append("; the lint of ").append(unknown).append(unknown == 1 ? " run" : " runs").append(" failed");
        }
        b.append(".</p>\n");
        if (linted.isEmpty()) {
            return;
        }
        b.append("<table><tr><th>point</th><th>seed</th>");
        for (String k : plan.keys()) {
            b.append("<th>").append(esc(k)).append("</th>");
        }
        b.append("<th>errors</th><th>error rules</th><th>warnings</th><th>warning rules</th></tr>\n");
        for (List<String> r : results.rows()) {
            if (!linted.contains(r)) {
                continue;
            }
            b.append("<tr>");
            for (int c = 0; c < firstLint; c++) {
                b.append("<td>").append(esc(r.get(c))).append("</td>");
            }
            for (int c : new int[] {errors, errorRules, warnings, warningRules}) {
                b.append("<td>").append(esc(r.get(c))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static int distinct(List<List<String>> rows, int column) {
        return (int) rows.stream().map(r -> r.get(column)).distinct().count();
    }

    /**
     * One metric against one key (or, under zip, against the zipped keys together): a line per combination of the
     * keys not on x. Runs that stopped before their workload completed get hollow markers and a note.
     */
    private static String chart(SweepPlan plan, List<String> header, List<List<String>> rows,
            Set<List<String>> early, Map<List<String>, String> stopReason, Set<List<String>> linted, int firstKey,
            int keys, List<Integer> onX, int m) {
        List<List<String>> xs = new ArrayList<>();
        Map<String, Map<List<String>, List<Double>>> series = new LinkedHashMap<>();
        Map<String, Map<List<String>, List<String>>> stopped = new LinkedHashMap<>();
        // The lint error rules of the runs behind each value, one entry per such run.
        Map<String, Map<List<String>, List<String>>> broken = new LinkedHashMap<>();
        int ruleColumn = header.indexOf("lint_error_rules");
        for (List<String> r : rows) {
            List<String> x = new ArrayList<>();
            for (int k : onX) {
                x.add(r.get(firstKey + k));
            }
            if (!xs.contains(x)) {
                xs.add(x);
            }
            StringBuilder other = new StringBuilder();
            for (int o = 0; o < keys; o++) {
                if (!onX.contains(o)) {
                    other.append(other.length() == 0 ? "" : ", ").append(header.get(firstKey + o)).append('=')
                            .append(r.get(firstKey + o));
                }
            }
            String cell = r.get(m);
            if (!cell.isEmpty()) {
                series.computeIfAbsent(other.toString(), s -> new LinkedHashMap<>())
                        .computeIfAbsent(x, s -> new ArrayList<>()).add(Double.parseDouble(cell));
                if (early.contains(r)) {
                    stopped.computeIfAbsent(other.toString(), s -> new LinkedHashMap<>())
                            .computeIfAbsent(x, s -> new ArrayList<>()).add(stopReason.get(r));
                }
                if (linted.contains(r)) {
                    broken.computeIfAbsent(other.toString(), s -> new LinkedHashMap<>())
                            .computeIfAbsent(x, s -> new ArrayList<>()).add(r.get(ruleColumn));
                }
            }
        }
        // The rows' order is not the sweep file's along every key: a random sample (or a failed point) can bring a
        // key's later value up first (an audit: pmax along x as 0.05, 1, 0.2).
        xs.sort(Comparator.comparingInt(x -> written(plan, onX, x)));
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Map<List<String>, List<Double>> s : series.values()) {
            for (List<Double> v : s.values()) {
                for (double d : v) {
                    lo = Math.min(lo, d);
                    hi = Math.max(hi, d);
                }
            }
        }
        if (lo > hi) {
            return "";
        }
        // The y axis runs from 0 (or the lowest value, if negative) over whole round steps to the first at or above
        // the highest value; its left margin fits the longest tick label.
        double[] ticks = NiceTicks.ticks(Math.min(lo, 0), hi, Y_STEPS);
        String[] labels = NiceTicks.labels(ticks);
        lo = ticks[0];
        hi = ticks[ticks.length - 1];
        int left = leftMargin(labels);
        // Under zip each x value is a line of labels, one per zipped key; the chart widens so that they fit.
        int longestX = 0;
        for (List<String> x : xs) {
            for (String v : x) {
                longestX = Math.max(longestX, v.length());
            }
        }
        int w = Math.max(W, left + RIGHT + xs.size() * (int) Math.ceil(CHAR_PX * longestX + 8));
        int extraLines = onX.size() - 1;
        int h = H + LINE * extraLines;
        StringBuilder b = new StringBuilder();
        b.append("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"")
                .append(h).append("\" viewBox=\"0 0 ").append(w).append(' ').append(h).append("\">");
        int plotW = w - left - RIGHT;
        int plotH = H - TOP - BOTTOM;
        b.append("<rect x=\"").append(left).append("\" y=\"").append(TOP).append("\" width=\"").append(plotW)
                .append("\" height=\"").append(plotH).append("\" fill=\"none\" stroke=\"#999\"/>");
        for (int t = 0; t < ticks.length; t++) {
            double y = py(ticks[t], lo, hi, plotH);
            b.append("<line x1=\"").append(left - 4).append("\" x2=\"").append(left).append("\" y1=\"").append(f(y))
                    .append("\" y2=\"").append(f(y)).append("\" stroke=\"#999\"/><text x=\"").append(left - 6)
                    .append("\" y=\"").append(f(y + 4)).append("\" text-anchor=\"end\">").append(labels[t])
                    .append("</text>");
        }
        for (int i = 0; i < xs.size(); i++) {
            for (int line = 0; line < xs.get(i).size(); line++) {
                b.append("<text x=\"").append(f(px(i, xs.size(), left, plotW))).append("\" y=\"")
                        .append(TOP + plotH + 16 + LINE * line).append(line == 0 ? "" : "\" fill=\"#666")
                        .append("\" text-anchor=\"middle\">").append(esc(xs.get(i).get(line))).append("</text>");
            }
        }
        StringBuilder axis = new StringBuilder(header.get(firstKey + onX.get(0)));
        for (int line = 1; line < onX.size(); line++) {
            axis.append(line == 1 ? " (under it, zipped: " : ", then ").append(header.get(firstKey + onX.get(line)));
        }
        if (onX.size() > 1) {
            axis.append(')');
        }
        b.append("<text x=\"").append(left + plotW / 2).append("\" y=\"").append(h - 6)
                .append("\" text-anchor=\"middle\">").append(esc(axis.toString())).append("</text>");
        int c = 0;
        boolean anyHollow = false;
        boolean anyLinted = false;
        StringBuilder legend = new StringBuilder();
        for (Map.Entry<String, Map<List<String>, List<Double>>> s : series.entrySet()) {
            String color = COLORS[c++ % COLORS.length];
            StringBuilder line = new StringBuilder();
            StringBuilder markers = new StringBuilder();
            for (int i = 0; i < xs.size(); i++) {
                List<Double> v = s.getValue().get(xs.get(i));
                if (v == null) {
                    continue;
                }
                List<String> why = stopped.getOrDefault(s.getKey(), Map.of()).getOrDefault(xs.get(i), List.of());
                List<String> rules = broken.getOrDefault(s.getKey(), Map.of()).getOrDefault(xs.get(i), List.of());
                double mean = v.stream().mapToDouble(Double::doubleValue).average().orElse(0);
                double min = v.stream().mapToDouble(Double::doubleValue).min().orElse(0);
                double max = v.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                double x = px(i, xs.size(), left, plotW);
                line.append(line.length() == 0 ? "M" : "L").append(f(x)).append(',').append(f(py(mean, lo, hi, plotH)));
                if (max > min) {
                    b.append("<line x1=\"").append(f(x)).append("\" x2=\"").append(f(x)).append("\" y1=\"")
                            .append(f(py(min, lo, hi, plotH))).append("\" y2=\"").append(f(py(max, lo, hi, plotH)))
                            .append("\" stroke=\"").append(color).append("\" stroke-width=\"3\" opacity=\"0.4\"/>");
                }
                anyHollow |= !why.isEmpty();
                anyLinted |= !rules.isEmpty();
                if (!rules.isEmpty()) {
                    markers.append("<circle cx=\"").append(f(x)).append("\" cy=\"")
                            .append(f(py(mean, lo, hi, plotH))).append("\" r=\"6.5\" fill=\"none\" stroke-width=\"1.5\""
                                    + " stroke=\"#000\" stroke-dasharray=\"2 1.5\"/>");
                }
                markers.append("<circle cx=\"").append(f(x)).append("\" cy=\"").append(f(py(mean, lo, hi, plotH)))
                        .append(why.isEmpty() ? "\" r=\"3\" fill=\"" + color
                                : "\" r=\"3.5\" fill=\"white\" stroke-width=\"1.5\" stroke=\"" + color)
                        .append("\"><title>").append(esc(s.getKey())).append(s.getKey().isEmpty() ? "" : " ")
                        .append(esc(String.join(" / ", xs.get(i)))).append(": mean ").append(num(mean)).append(", ")
                        .append(num(min)).append("..").append(num(max)).append(" over ").append(v.size())
                        .append(v.size() == 1 ? " seed" : " seeds");
                if (!why.isEmpty()) {
                    markers.append("; ").append(why.size()).append(" of ").append(v.size())
                            .append(" stopped before the workload completed (")
                            .append(esc(String.join(", ", why.stream().distinct().toList()))).append(')');
                }
                if (!rules.isEmpty()) {
                    markers.append("; ").append(rules.size()).append(" of ").append(v.size())
                            .append(" with lint errors (")
                            .append(esc(String.join(", ", rules.stream().distinct().toList()))).append(')');
                }
                markers.append("</title></circle>");
            }
            // The markers over the line, so that a hollow one shows hollow.
            b.append("<path d=\"").append(line).append("\" fill=\"none\" stroke=\"").append(color)
                    .append("\" stroke-width=\"1.5\"/>").append(markers);
            if (!s.getKey().isEmpty()) {
                legend.append("<span style=\"color:").append(color).append("\">■</span> ").append(esc(s.getKey()))
                        .append("<br>");
            }
        }
        b.append("</svg><figcaption>").append(esc(header.get(m))).append(" against ").append(esc(axis.toString()))
                .append(legend.length() == 0 ? "" : "<br>").append(legend);
        if (anyHollow) {
            b.append(legend.length() == 0 ? "<br>" : "").append(HOLLOW_NOTE);
        }
        if (anyLinted) {
            b.append(legend.length() == 0 && !anyHollow ? "<br>" : anyHollow ? "<br>" : "").append(LINT_NOTE);
        }
        b.append("</figcaption></figure>\n");
        return b.toString();
    }

    /**
     * Where the values {@code x} of the keys {@code onX} stand in the sweep file: the first index at which every one of
     * those keys' lists has its value (one key: its value's place in its list; zipped keys: the combination's place,
     * which tells apart combinations that repeat a value).
     */
    static int written(SweepPlan plan, List<Integer> onX, List<String> x) {
        int n = plan.values().get(onX.get(0)).size();
        for (int i = 0; i < n; i++) {
            boolean all = true;
            for (int j = 0; j < onX.size() && all; j++) {
                List<String> values = plan.values().get(onX.get(j));
                all = i < values.size() && values.get(i).equals(x.get(j));
            }
            if (all) {
                return i;
            }
        }
        return n;
    }

    private static double px(int i, int n, int left, int plotW) {
        return left + plotW * (i + 0.5) / n;
    }

    /** The y axis's left margin: the longest tick label, the tick and a gap; at least 40 px. */
    static int leftMargin(String[] labels) {
        int longest = 0;
        for (String l : labels) {
            longest = Math.max(longest, l.length());
        }
        return Math.max(40, (int) Math.ceil(12 + CHAR_PX * longest));
    }

    private static double py(double v, double lo, double hi, int plotH) {
        return TOP + plotH - plotH * (v - lo) / (hi - lo);
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
