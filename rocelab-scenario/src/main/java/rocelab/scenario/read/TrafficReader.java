package rocelab.scenario.read;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import rocelab.workload.traffic.AllToAllTraffic;
import rocelab.workload.traffic.DscpTraffic;
import rocelab.workload.traffic.IncastTraffic;
import rocelab.workload.traffic.PermutationTraffic;
import rocelab.workload.traffic.RingCollectiveTraffic;
import rocelab.workload.traffic.SingleFlowTraffic;
import rocelab.workload.traffic.TrafficSpec;

/** Reads the {@code traffic} list into traffic spec records, checking host indices against the topology. */
final class TrafficReader {
    private static final String KINDS = "one of: flow, incast, permutation, all-to-all, flows-csv, allreduce, allgather, reduce-scatter";
    private static final String HOST_SET = "host indices such as 3, 1-16, \"1-4,7,9-10\" or [1, 2, 3]";
    private static final Pattern RANGE_ITEM = Pattern.compile("(\\d+)(?:\\s*-\\s*(\\d+))?");

    private final Doc doc;
    private final int hostCount;
    private final Path baseDir;

    TrafficReader(Doc doc, int hostCount, Path baseDir) {
        this.doc = doc;
        this.hostCount = hostCount;
        this.baseDir = baseDir;
    }

    List<TrafficSpec> read(Node node) throws ScenarioException {
        List<Node> items = doc.list(node, "traffic", "a list of traffic items, each with a kind");
        if (items.isEmpty()) {
            throw doc.at(node, "traffic is empty; expected at least one traffic item");
        }
        List<TrafficSpec> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            out.add(item(items.get(i), i + 1));
        }
        return out;
    }

    /** A traffic item, with its own DSCP when it gives one ({@code dscp: 10}). */
    private TrafficSpec item(Node node, int index) throws ScenarioException {
        TrafficSpec spec = kindItem(node, index);
        NodeTuple dscp = YamlMap.entries(doc, node, "traffic item " + index, "a mapping").get("dscp");
        if (dscp == null) {
            return spec;
        }
        return new DscpTraffic(spec, doc.integer(dscp.getValueNode(), "dscp", 0, 63));
    }

    private TrafficSpec kindItem(Node node, int index) throws ScenarioException {
        String where = "traffic item " + index;
        NodeTuple kindEntry = YamlMap.entries(doc, node, where, "a mapping with a kind").get("kind");
        if (kindEntry == null) {
            throw doc.at(node, "missing key 'kind' in " + where + "; expected kind: " + KINDS);
        }
        Node kindNode = kindEntry.getValueNode();
        String kind = doc.text(kindNode, "kind", KINDS);
        where += " (" + kind + ")";
        switch (kind) {
            case "flow" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "src", "dst", "size", "start", "dscp");
                int src = host(m.require("src", hostRange()));
                int dst = host(m.require("dst", hostRange()));
                if (src == dst) {
                    throw doc.at(m.get("dst"), "the flow goes from host " + src + " to itself; expected a dst "
                            + "different from src");
                }
                long size = m.requiredSize("size", 1);
                long start = m.optionalTime("start", 0L);
                return doc.build(node, where, () -> new SingleFlowTraffic(src, dst, size, start));
            }
            case "incast" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "senders", "receiver", "size", "start", "dscp");
                int[] senders = hostSet(m.require("senders", HOST_SET));
                int receiver = host(m.require("receiver", hostRange()));
                for (int s : senders) {
                    if (s == receiver) {
                        throw doc.at(m.get("receiver"), "the receiver " + receiver + " is also a sender; expected a"
                                + " receiver that is not among the senders");
                    }
                }
                long size = m.requiredSize("size", 1);
                long start = m.optionalTime("start", 0L);
                return doc.build(node, where, () -> new IncastTraffic(senders, receiver, size, start));
            }
            case "allreduce", "allgather", "reduce-scatter" -> {
                RingCollectiveTraffic.Op op = RingCollectiveTraffic.Op.ofKey(kind);
                YamlMap m = YamlMap.of(doc, node, where, "kind", "ranks", "size", "start", "algorithm", "dscp");
                int[] ranks = hostSet(m.require("ranks", HOST_SET));
                m.optionalChoice("algorithm", "ring", "a ring collective algorithm", "ring");
                long size = m.requiredSize("size", 1);
                long start = m.optionalTime("start", 0L);
                return doc.build(node, where, () -> new RingCollectiveTraffic(op, ranks, size, start));
            }
            case "permutation", "all-to-all" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "size", "start", "dscp");
                long size = m.requiredSize("size", 1);
                long start = m.optionalTime("start", 0L);
                return kind.equals("permutation") ? new PermutationTraffic(size, start)
                        : new AllToAllTraffic(size, start);
            }
            case "flows-csv" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "file", "dscp");
                Node fileNode = m.require("file", "the path of a CSV file, relative to the scenario's folder");
                String file = doc.text(fileNode, "file", "the path of a CSV file");
                Path resolved;
                String shown;
                try {
                    resolved = baseDir.resolve(file).toAbsolutePath().normalize();
                    shown = csvName(file);
                } catch (InvalidPathException e) {
                    throw doc.at(fileNode, "'" + file + "' is not a valid path; expected the path of a CSV file");
                }
                return new FlowsCsvReader(doc, hostCount).read(fileNode, file, resolved, shown);
            }
            default -> throw doc.at(kindNode, "'" + kind + "' is not a traffic kind; expected " + KINDS);
        }
    }

    /** How the CSV file is named in messages: next to the scenario file as the user named it. */
    private String csvName(String file) {
        Path f = Path.of(file);
        if (f.isAbsolute()) {
            return f.normalize().toString();
        }
        try {
            return Path.of(doc.file()).resolveSibling(f).normalize().toString();
        } catch (InvalidPathException e) {
            return baseDir.resolve(f).toAbsolutePath().normalize().toString();
        }
    }

    private String hostRange() {
        return "a host index 0.." + (hostCount - 1);
    }

    /** A host index, checked against the topology. */
    int host(Node node) throws ScenarioException {
        long h = doc.longValue(node, "host", hostRange());
        checkHost(node, 0, h);
        return (int) h;
    }

    private void checkHost(Node node, int offset, long h) throws ScenarioException {
        if (h < 0 || h >= hostCount) {
            throw doc.at(node, offset, outOfRange(h, hostCount));
        }
    }

    static String outOfRange(long host, int hostCount) {
        return "host " + host + " is out of range; expected 0.." + (hostCount - 1) + " (the topology has "
                + hostCount + " hosts)";
    }

    /** A set of hosts: one index, a list of indices, or ranges like {@code 1-4,7,9-10}; in the order given. */
    int[] hostSet(Node node) throws ScenarioException {
        List<Integer> hosts = new ArrayList<>();
        boolean[] seen = new boolean[hostCount];
        if (node instanceof SequenceNode seq) {
            for (Node n : seq.getValue()) {
                add(hosts, seen, n, 0, host(n));
            }
        } else {
            String text = doc.text(node, "senders", HOST_SET);
            int pos = 0;
            for (String part : text.split(",", -1)) {
                int lead = part.length() - part.stripLeading().length();
                Matcher m = RANGE_ITEM.matcher(part.strip());
                int at = pos + lead;
                if (!m.matches()) {
                    throw doc.at(node, at, "'" + part.strip() + "' is not a host or a host range; expected "
                            + HOST_SET);
                }
                long lo = parse(node, at, m.group(1));
                long hi = m.group(2) == null ? lo : parse(node, at + m.start(2), m.group(2));
                checkHost(node, at, lo);
                checkHost(node, at + (m.group(2) == null ? 0 : m.start(2)), hi);
                if (hi < lo) {
                    throw doc.at(node, at, "the range " + lo + "-" + hi + " runs backwards; expected low-high, e.g. "
                            + hi + "-" + lo);
                }
                for (long h = lo; h <= hi; h++) {
                    add(hosts, seen, node, at, (int) h);
                }
                pos += part.length() + 1;
            }
        }
        if (hosts.isEmpty()) {
            throw doc.at(node, "senders is empty; expected " + HOST_SET);
        }
        return hosts.stream().mapToInt(Integer::intValue).toArray();
    }

    private long parse(Node node, int offset, String digits) throws ScenarioException {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw doc.at(node, offset, "host " + digits + " is too large; expected 0.." + (hostCount - 1));
        }
    }

    private void add(List<Integer> hosts, boolean[] seen, Node node, int offset, int h) throws ScenarioException {
        if (seen[h]) {
            throw doc.at(node, offset, "host " + h + " is listed twice among the senders; expected each sender once");
        }
        seen[h] = true;
        hosts.add(h);
    }
}
