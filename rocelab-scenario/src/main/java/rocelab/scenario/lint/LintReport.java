package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import rocelab.observe.output.JsonText;
import rocelab.observe.output.Numbers;

/**
 * The result of a lint: the findings and what was looked at, readable by people ({@link #text()}) and programs
 * ({@link #json()}).
 *
 * @param flows the workload's flows distinct by source, destination and DSCP (the lint walks each once)
 * @param allFlows every flow of the workload
 */
public record LintReport(String scenario, List<Finding> findings, int flows, int paths, int switches, int hosts,
        boolean infiniband, long allFlows) {
    /** A report of a RoCE fabric whose flows are each distinct by source, destination and DSCP. */
    public LintReport(String scenario, List<Finding> findings, int flows, int paths, int switches, int hosts) {
        this(scenario, findings, flows, paths, switches, hosts, false, flows);
    }

    public LintReport {
        findings = List.copyOf(findings);
    }

    public long count(Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }

    public boolean hasErrors() {
        return count(Severity.ERROR) > 0;
    }

    /** Findings of one rule (tests and callers that look for one symptom). */
    public List<Finding> of(String rule) {
        return findings.stream().filter(f -> f.rule().equals(rule)).toList();
    }

    /** One line: "2 errors, 1 warning, 0 info". */
    public String counts() {
        long e = count(Severity.ERROR);
        long w = count(Severity.WARNING);
        return e + (e == 1 ? " error, " : " errors, ") + w + (w == 1 ? " warning, " : " warnings, ")
                + count(Severity.INFO) + " info";
    }

    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("lint ").append(scenario).append(": ").append(counts()).append(" (").append(allFlows)
                .append(allFlows == 1 ? " flow" : " flows")
                // Flows between the same hosts in the same class take the same paths: the lint walks them once.
                .append(allFlows == flows ? ", " : ", " + flows + " distinct by source, destination and DSCP; ")
                .append(paths).append(paths == 1 ? " path" : " paths")
                .append(" over ").append(switches).append(switches == 1 ? " switch and " : " switches and ")
                .append(hosts).append(infiniband ? " HCAs)\n" : " RNICs)\n");
        for (Finding f : findings) {
            b.append('\n').append(String.format("%-7s %-4s %s%n", f.severity().key().toUpperCase(Locale.ROOT),
                    f.rule(), f.title()));
            if (!f.devices().isEmpty()) {
                b.append("  devices: ").append(shortList(f.devices(), 12)).append('\n');
            }
            if (!f.ports().isEmpty()) {
                b.append("  ports:   ").append(shortList(f.ports(), 6)).append('\n');
            }
            b.append("  what:    ").append(f.what()).append('\n');
            b.append("  symptom: ").append(f.symptom()).append('\n');
            b.append("  fix:     ").append(f.fix()).append('\n');
        }
        return b.toString();
    }

    /** The first {@code max} items and how many more, or all of them when only one more is left (it is named). */
    private static String shortList(List<String> items, int max) {
        int shown = Numbers.shown(items.size(), max);
        if (items.size() == shown) {
            return String.join(", ", items);
        }
        return String.join(", ", items.subList(0, shown)) + " and " + (items.size() - shown) + " more";
    }

    /**
     * One finding as {@code --json} and manifest.json's {@code lint} give it: {@code rule}, {@code severity},
     * {@code title}, {@code devices}, {@code ports}, {@code what}, {@code symptom} and {@code fix}.
     */
    public static Map<String, Object> tree(Finding f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rule", f.rule());
        m.put("severity", f.severity().key());
        m.put("title", f.title());
        m.put("devices", f.devices());
        m.put("ports", f.ports());
        m.put("what", f.what());
        m.put("symptom", f.symptom());
        m.put("fix", f.fix());
        return m;
    }

    /**
     * The errors and warnings as manifest.json's {@code lint} lists them: each whole, as {@code rocelab lint --json}
     * gives it (rule, severity, title, devices, ports, what, symptom, fix).
     */
    public List<Object> manifestFindings() {
        List<Object> list = new ArrayList<>();
        for (Finding f : findings) {
            if (f.severity() != Severity.INFO) {
                list.add(tree(f));
            }
        }
        return list;
    }

    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("scenario", scenario);
        root.put("errors", count(Severity.ERROR));
        root.put("warnings", count(Severity.WARNING));
        root.put("infos", count(Severity.INFO));
        root.put("flows", allFlows);
        root.put("distinct_flows", flows);
        root.put("paths", paths);
        List<Object> list = new ArrayList<>();
        for (Finding f : findings) {
            list.add(tree(f));
        }
        root.put("findings", list);
        root.put("rules_checked", new ArrayList<>(Lint.rules().keySet()));
        root.put("rules_not_applicable", new TreeMap<>(Lint.NOT_APPLICABLE));
        return JsonText.render(root);
    }
}
