package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.observe.output.Numbers;

/**
 * Collects findings; the same problem seen on many paths (same rule, severity and text) becomes one finding with
 * the union of the devices and ports, so a fat tree does not print a thousand copies. So does the same problem on
 * several devices: a finding about one device whose text begins with its name ("leaf0 reaches full marking ...") is
 * merged with those that differ from it only in that name, and says "each of leaf0, leaf1 and leaf2 reaches ...".
 * Its symptom and fix must be the same text: one naming the device (a YAML snippet for it) keeps the findings apart.
 */
public final class Findings {
    /** Devices a merged finding's text names before it counts the rest. */
    static final int NAMED = 12;

    private final Map<String, Entry> byKey = new LinkedHashMap<>();

    private static final class Entry {
        final LintRule rule;
        final Severity severity;
        final Set<String> devices = new LinkedHashSet<>();
        final Set<String> ports = new LinkedHashSet<>();
        /** The devices the text begins with, when it is about one device at a time; else empty. */
        final Set<String> subjects = new LinkedHashSet<>();
        /** The text, or the text after its device's name when it is about one device at a time. */
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

        String what() {
            if (subjects.isEmpty()) {
                return what;
            }
            List<String> names = new ArrayList<>(subjects);
            if (names.size() == 1) {
                return names.get(0) + what;
            }
            int named = Numbers.shown(names.size(), NAMED);
            List<String> shown = new ArrayList<>(names.subList(0, named));
            String last = named < names.size() ? (names.size() - named) + " more" : shown.remove(shown.size() - 1);
            return "each of " + String.join(", ", shown) + " and " + last + what;
        }
    }

    /** Reports (or merges into an earlier identical report) a finding of {@code rule}. */
    public void add(LintRule rule, Severity severity, List<String> devices, List<String> ports, String what,
            String symptom, String fix) {
        String subject = devices.size() == 1 && what.startsWith(devices.get(0) + " ") ? devices.get(0) : null;
        String key = subject == null ? rule.id() + '\u0000' + severity + '\u0000' + what
                : rule.id() + '\u0000' + severity + "\u0000\u0001" + what.substring(subject.length()) + '\u0000'
                        + symptom + '\u0000' + fix;
        String text = subject == null ? what : what.substring(subject.length());
        Entry e = byKey.computeIfAbsent(key, k -> new Entry(rule, severity, text, symptom, fix));
        if (subject != null) {
            e.subjects.add(subject);
        }
        e.devices.addAll(devices);
        e.ports.addAll(ports);
    }

    /** The findings, errors first, then by rule (I before L, then number), then in the order found. */
    public List<Finding> list() {
        List<Finding> out = new ArrayList<>();
        for (Entry e : byKey.values()) {
            out.add(new Finding(e.rule.id(), e.severity, e.rule.title(), new ArrayList<>(e.devices),
                    new ArrayList<>(e.ports), e.what(), e.symptom, e.fix));
        }
        out.sort(Comparator.comparing(Finding::severity).thenComparing(f -> f.rule().charAt(0))
                .thenComparingInt(f -> Integer.parseInt(f.rule().substring(1))));
        return out;
    }
}
