package rocelab.scenario.read;

import java.util.Arrays;
import java.util.Locale;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.workload.traffic.FlowSizeCdf;
import rocelab.workload.traffic.PoissonTraffic;
import rocelab.workload.traffic.TrafficSpec;

/** Reads a {@code poisson} traffic item: its flow sizes (built in or a CDF file), load, window and hosts. */
final class PoissonTrafficReader {
    private final Doc doc;
    private final TrafficReader traffic;
    private final long[] hostRateBps;

    /** {@code hostRateBps}: every host's link rate (the sum of its ports), which the load is a share of. */
    PoissonTrafficReader(Doc doc, TrafficReader traffic, long[] hostRateBps) {
        this.doc = doc;
        this.traffic = traffic;
        this.hostRateBps = hostRateBps;
    }

    private static final String SIZES = "a flow-size distribution: "
            + String.join(", ", FlowSizeCdf.BUILT_IN.stream().map(FlowSizeCdf::name).toList());

    /**
     * Open-loop background traffic: Poisson arrivals at every host of {@code hosts} (default all), sizes from a
     * built-in distribution ({@code sizes}) or a CDF file ({@code sizes-file}), at {@code load} of each host's link.
     */
    TrafficSpec read(Node node, String where) throws ScenarioException {
        YamlMap m = YamlMap.of(doc, node, where, "kind", "sizes", "sizes-file", "load", "duration", "start", "hosts",
                "dscp");
        FlowSizeCdf sizes;
        if (m.has("sizes") && m.has("sizes-file")) {
            throw doc.at(m.get("sizes-file"), "both sizes and sizes-file are given; expected one of them (" + SIZES
                    + ", or sizes-file: the path of a CDF file)");
        }
        if (m.has("sizes-file")) {
            Node fileNode = m.get("sizes-file");
            DataFile file = DataFile.at(doc, fileNode, traffic.baseDir(), "the path of a flow-size CDF file");
            sizes = FlowSizeCdfReader.read(doc, fileNode, file.written(), file.resolved(), file.shown());
        } else {
            Node sizesNode = m.require("sizes", SIZES + " (or sizes-file: the path of a CDF file)");
            String name = doc.text(sizesNode, "sizes", SIZES);
            sizes = FlowSizeCdf.named(name);
            if (sizes == null) {
                throw doc.at(sizesNode, "'" + name + "' is not a built-in flow-size distribution; expected " + SIZES
                        + " (or sizes-file: the path of a CDF file)");
            }
        }
        double load = load(m.require("load", "the load each host offers, as a share of its link rate: 0.3 or 30%"));
        Node durationNode = m.require("duration", "how long flows keep arriving, e.g. 5ms");
        long duration = doc.time(durationNode, "duration");
        if (duration <= 0) {
            throw doc.at(durationNode, "duration 0 gives no flows; expected a time above 0, e.g. 5ms");
        }
        long start = m.optionalTime("start", 0L);
        int[] hosts;
        if (m.has("hosts")) {
            hosts = traffic.hostSet(m.get("hosts"), "hosts").clone();
            Arrays.sort(hosts);
            if (hosts.length < 2) {
                throw doc.at(m.get("hosts"), "Poisson traffic needs at least 2 hosts; expected two or more hosts");
            }
        } else {
            hosts = new int[hostRateBps.length];
            Arrays.setAll(hosts, h -> h);
        }
        long[] rates = new long[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            rates[i] = hostRateBps[hosts[i]];
        }
        FlowSizeCdf cdf = sizes;
        int[] members = hosts;
        PoissonTraffic poisson = doc.build(node, where, () -> new PoissonTraffic(cdf, load, members, rates, start,
                duration));
        // Fewer than one flow expected in all: most draws would give an empty run that looks like a finished one.
        double expected = poisson.expectedFlows();
        if (expected < 1) {
            throw doc.at(durationNode, String.format(Locale.ROOT, "%s hosts at load %s for %s expect %.3g flows in"
                    + " all (mean size %,.0f B); expected at least one: a longer duration or a higher load",
                    hosts.length, doc.text(m.get("load"), "load", ""), doc.text(durationNode, "duration", ""), expected,
                    sizes.meanBytes()));
        }
        return poisson;
    }

    /** A load: a share of the link rate, as a number in (0, 1] or a percentage ({@code 30%}). */
    private double load(Node node) throws ScenarioException {
        String expected = "a share of the link rate above 0 and at most 1, e.g. 0.3, or a percentage, e.g. 30%";
        String t = doc.text(node, "load", expected);
        double v;
        try {
            v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100
                    : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw doc.at(node, "load '" + t + "' is not a number; expected " + expected);
        }
        if (!(v > 0 && v <= 1)) {
            throw doc.at(node, "load " + t + " is out of range; expected " + expected);
        }
        return v;
    }

}
