package rocelab.scenario.lint;

import java.util.List;

/**
 * One inconsistency: which rule (the L-numbers of the reference list of RoCE misconfigurations), how bad, where
 * (devices and ports), what is wrong, what it will look like when the fabric runs, and how to fix it.
 *
 * @param rule rule id, e.g. {@code L1}
 * @param severity error, warning or info
 * @param title the rule's short name
 * @param devices the devices involved (switch names, hosts as h3)
 * @param ports the ports involved, as {@code leaf0 port 4 (to spine0)}
 * @param what what is wrong
 * @param symptom what it does at run time and the counters that show it
 * @param fix the change that removes it
 */
public record Finding(String rule, Severity severity, String title, List<String> devices, List<String> ports,
        String what, String symptom, String fix) {
    public Finding {
        devices = List.copyOf(devices);
        ports = List.copyOf(ports);
    }
}
