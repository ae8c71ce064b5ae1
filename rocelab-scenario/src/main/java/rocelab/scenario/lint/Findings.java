package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects findings; the same problem seen on many paths (same rule, severity and text) becomes one finding with
 * the union of the devices and ports, so a fat tree does not print a thousand copies.
 */
public final class Findings {
    private final Map<String, Entry> byKey = new LinkedHashMap<>();

    private static final class Entry {
        final LintRule rule;
        final Severity severity;
        final Set<String> devices = new LinkedHashSet<>();
        final Set<String> ports = new LinkedHashSet<>();
        final String what;
        final String symptom;
        final String fix;

        Entry(LintRule rule, Severity severity, String what, String symptom, String fix) {
            this.rule = rule;
            this.severity = severity;
            this.what = what;
            this.symptom = symptom;
            this.fix = fix;
        }
    }

    /** Reports (or merges into an earlier identical report) a finding of {@code rule}. */
    public void add(LintRule rule, Severity severity, List<String> devices, List<String> ports, String what,
            String symptom, String fix) {
        String key = rule.id() + '\u0000' + severity + '\u0000' + what;
        Entry e = byKey.computeIfAbsent(key, k -> new Entry(rule, severity, what, symptom, fix));
        e.devices.addAll(devices);
        e.ports.addAll(ports);
    }

    /** The findings, errors first, then by rule (I before L, then number), then in the order found. */
    public List<Finding> list() {
        List<Finding> out = new ArrayList<>();
        for (Entry e : byKey.values()) {
            out.add(new Finding(e.rule.id(), e.severity, e.rule.title(), new ArrayList<>(e.devices),
                    new ArrayList<>(e.ports), e.what, e.symptom, e.fix));
        }
        out.sort(Comparator.comparing(Finding::severity).thenComparing(f -> f.rule().charAt(0))
                .thenComparingInt(f -> Integer.parseInt(f.rule().substring(1))));
        return out;
    }
}
