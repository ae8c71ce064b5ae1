package rocelab.observe.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queue chart's dashed ECN lines: the thresholds of the hottest shown queue whose traffic class marks, at its own
 * port's settings (manifest.json {@code ecn_classes}, and {@code ecn_ports} for the ports a {@code switches} entry
 * set apart), and the caption that says whose they are. A queue of a class that does not mark gets no lines: a bulk
 * class's queue far above the RoCE class's Kmax is not being marked, and lines across it would say it was.
 */
final class EcnLines {
    private static final Pattern QUEUE = Pattern.compile("(.*) p(\\d+) tc(\\d+)");

    /** The lines to draw and the caption's words for them (empty, or starting "; "). */
    record Drawn(List<Chart.HLine> lines, String caption) {}

    private EcnLines() {}

    static Drawn of(ReportData d, List<TimeCharts.Trace> shown) {
        Object switchWide = d.manifest.get("ecn_marking");
        if (!shown.isEmpty() && "fecn".equals(switchWide) && d.manifest.get("fecn_threshold_bytes") instanceof Number n) {
            // Every data lane of every InfiniBand switch port marks at the same threshold (fabric.infiniband.fecn).
            return new Drawn(List.of(new Chart.HLine(n.doubleValue(), "FECN threshold " + Fmt.bytes(n.doubleValue()),
                    "#17becf")), "; dashed: the FECN threshold (a lane marks FECN while more than this waits behind"
                            + " the packet leaving)");
        }
        if (shown.isEmpty() || !("red".equals(switchWide) || "step".equals(switchWide)
                || d.manifest.get("ecn_ports") instanceof List)) {
            return new Drawn(List.of(), "");
        }
        if (!(d.manifest.get("ecn_classes") instanceof List)) {
            return older(d, shown);
        }
        for (int i = 0; i < shown.size(); i++) {
            String name = shown.get(i).name();
            Matcher m = QUEUE.matcher(name);
            if (!m.matches()) {
                continue;
            }
            Map<String, Object> port = portSettings(d, m.group(1), Integer.parseInt(m.group(2)));
            Object marking = port.get("marking");
            if (!classes(port).contains(Integer.parseInt(m.group(3)))
                    || !("red".equals(marking) || "step".equals(marking))) {
                continue;
            }
            double gbps = TimeCharts.portRate(d, name);
            String whose = i == 0 ? "" : " (" + name + ")";
            List<Chart.HLine> lines = new ArrayList<>();
            if ("red".equals(marking)) {
                double kmin = threshold(port, "kmin_bytes", "ecn_kmin_bytes_per_gbps", d, gbps);
                double kmax = threshold(port, "kmax_bytes", "ecn_kmax_bytes_per_gbps", d, gbps);
                if (Double.isNaN(kmin) || Double.isNaN(kmax)) {
                    return new Drawn(List.of(), "");
                }
                lines.add(new Chart.HLine(kmin, "ECN Kmin " + Fmt.bytes(kmin) + whose, "#17becf"));
                lines.add(new Chart.HLine(kmax, "ECN Kmax " + Fmt.bytes(kmax) + whose, "#e377c2"));
            } else {
                double k = threshold(port, "k_bytes", "ecn_k_bytes_per_gbps", d, gbps);
                if (Double.isNaN(k)) {
                    return new Drawn(List.of(), "");
                }
                lines.add(new Chart.HLine(k, "ECN K " + Fmt.bytes(k) + whose, "#17becf"));
            }
            String own = port.containsKey("device") ? "its port's own ECN settings" : "the switch-wide ECN settings";
            String caption = i == 0 ? "; dashed: the hottest queue's ECN thresholds (" + own + ")"
                    : "; dashed: the ECN thresholds of " + name + ", the hottest of these queues whose class marks ("
                            + own + "; the " + (i == 1 ? "queue" : i + " queues") + " above it "
                            + (i == 1 ? "does" : "do") + " not mark)";
            return new Drawn(lines, caption);
        }
        return new Drawn(List.of(), "; no ECN lines: none of these queues' traffic classes marks (manifest.json"
                + " ecn_classes" + (d.manifest.get("ecn_ports") instanceof List ? " and ecn_ports" : "") + ")");
    }

    /** The ECN settings of a switch port: its own where a switches entry set them, else the switch-wide ones. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> portSettings(ReportData d, String device, int port) {
        if (d.manifest.get("ecn_ports") instanceof List<?> ports) {
            for (Object o : ports) {
                if (o instanceof Map<?, ?> p && device.equals(p.get("device")) && p.get("port") instanceof Number n
                        && n.intValue() == port) {
                    return (Map<String, Object>) p;
                }
            }
        }
        return Map.of("marking", String.valueOf(d.manifest.get("ecn_marking")), "classes",
                d.manifest.get("ecn_classes"));
    }

    private static List<Integer> classes(Map<String, Object> port) {
        List<Integer> out = new ArrayList<>();
        if (port.get("classes") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Number n) {
                    out.add(n.intValue());
                }
            }
        }
        return out;
    }

    /**
     * A threshold in bytes: a port entry's own bytes or its scaling with the port's rate; for the switch-wide settings,
     * their bytes or their scaling.
     */
    private static double threshold(Map<String, Object> port, String key, String perGbps, ReportData d, double gbps) {
        if (port.containsKey("device")) {
            if (port.get(key) instanceof Number n) {
                return n.doubleValue();
            }
            return port.get(key + "_per_gbps") instanceof Number n ? n.doubleValue() * gbps : Double.NaN;
        }
        if (d.manifest.get("ecn_" + key) instanceof Number n) {
            return n.doubleValue();
        }
        return d.manifest.get(perGbps) instanceof Number n ? n.doubleValue() * gbps : Double.NaN;
    }

    /** A run whose manifest predates {@code ecn_classes}: the hottest queue's port, at the switch-wide settings. */
    private static Drawn older(ReportData d, List<TimeCharts.Trace> shown) {
        if (!"red".equals(d.manifest.get("ecn_marking"))) {
            return new Drawn(List.of(), "");
        }
        double gbps = TimeCharts.portRate(d, shown.get(0).name());
        double kmin = threshold(Map.of(), "kmin_bytes", "ecn_kmin_bytes_per_gbps", d, gbps);
        double kmax = threshold(Map.of(), "kmax_bytes", "ecn_kmax_bytes_per_gbps", d, gbps);
        if (Double.isNaN(kmin) || Double.isNaN(kmax)) {
            return new Drawn(List.of(), "");
        }
        return new Drawn(List.of(new Chart.HLine(kmin, "switch-wide ECN Kmin " + Fmt.bytes(kmin), "#17becf"),
                new Chart.HLine(kmax, "switch-wide ECN Kmax " + Fmt.bytes(kmax), "#e377c2")),
                "; dashed: the switch-wide RED thresholds at the hottest queue's port rate (this run's manifest does not"
                        + " say which classes mark)");
    }
}
