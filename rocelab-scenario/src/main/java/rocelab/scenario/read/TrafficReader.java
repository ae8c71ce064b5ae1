package rocelab.scenario.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.collective.HierarchicalAlgorithm;
import rocelab.workload.collective.PairSizes;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.AllToAllTraffic;
import rocelab.workload.traffic.CollectiveTraffic;
import rocelab.workload.traffic.DscpTraffic;
import rocelab.workload.traffic.FlowListTraffic;
import rocelab.workload.traffic.IncastTraffic;
import rocelab.workload.traffic.PermutationTraffic;
import rocelab.workload.traffic.SingleFlowTraffic;
import rocelab.workload.traffic.TrafficSpec;

/** Reads the {@code traffic} list into traffic spec records, checking host indices against the topology. */
final class TrafficReader {
    private static final String KINDS = "one of: flow, incast, permutation, all-to-all, poisson, flows-csv,"
            + " ns3-flows, " + String.join(", ", Arrays.stream(CollectiveOp.values()).filter(Collectives::available)
                    .map(CollectiveOp::key).toList());
    private static final String HOST_SET = "host indices such as 3, 1-16, \"1-4,7,9-10\" or [1, 2, 3]";
    private static final Pattern RANGE_ITEM = Pattern.compile("(\\d+)(?:\\s*-\\s*(\\d+))?");

    private final Doc doc;
    private final int hostCount;
    private final Path baseDir;

    private int[] serverOfHost;
    private long[] hostRateBps;
    private Ns3Topology ns3Topology;

    /** The ns-3 topology, when the scenario's came from one: an ns-3 flow file then names hosts by its node ids. */
    void ns3Topology(Ns3Topology topology) {
        this.ns3Topology = topology;
    }

    /** Every host's link rate (the sum of its ports), which Poisson traffic offers its load against. */
    void hostRates(long[] rates) {
        this.hostRateBps = rates.clone();
    }

    /** The topology's server of every host, so collectives can be checked against it while reading. */
    void servers(int[] map) {
        this.serverOfHost = map;
    }

    int[] servers() {
        return serverOfHost;
    }

    TrafficReader(Doc doc, int hostCount, Path baseDir) {
        this.doc = doc;
        this.hostCount = hostCount;
        this.baseDir = baseDir;
    }

    List<TrafficSpec> read(Node node) throws ScenarioException {
        List<Node> items = doc.list(node, "traffic", "a list of traffic items, each with a kind");
        if (items.isEmpty()) {
            throw doc.at(node, "traffic is empty and the scenario has no jobs or inference services, so nothing"
                    + " would run; expected at least one traffic item (or jobs: a list of AI jobs, or inference: a"
                    + " list of inference services)");
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
        int value = doc.integer(dscp.getValueNode(), "dscp", 0, 63);
        if (spec instanceof CollectiveTraffic c) {
            return new CollectiveTraffic(c.call().withDscp(value), c.startPs(), c.iterations());
        }
        return new DscpTraffic(spec, value);
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
                int[] senders = hostSet(m.require("senders", HOST_SET), "senders");
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
            case "permutation", "all-to-all" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "size", "start", "dscp");
                long size = m.requiredSize("size", 1);
                long start = m.optionalTime("start", 0L);
                return kind.equals("permutation") ? new PermutationTraffic(size, start)
                        : new AllToAllTraffic(size, start);
            }
            case "poisson" -> {
                return new PoissonTrafficReader(doc, this, hostRateBps).read(node, where);
            }
            case "flows-csv" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "file", "dscp");
                Node fileNode = m.require("file", "the path of a CSV file, relative to the scenario's folder");
                DataFile file = DataFile.at(doc, fileNode, baseDir, "the path of a CSV file");
                return new FlowsCsvReader(doc, hostCount).read(fileNode, file.written(), file.resolved(), file.shown());
            }
            case "ns3-flows" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "file", "dscp");
                Node fileNode = m.require("file", "the path of an ns-3 flow file, relative to the scenario's folder");
                DataFile file = DataFile.at(doc, fileNode, baseDir, "the path of an ns-3 flow file");
                String text = file.text(doc, fileNode, "; expected an ns-3 flow file, " + Ns3FlowsReader.FORMAT);
                return new FlowListTraffic(file.written(), new Ns3FlowsReader(new Ns3Lines(text, file.shown()),
                        hostCount, ns3Topology).read());
            }
            default -> {
                CollectiveOp op = CollectiveOp.ofKey(kind);
                if (op == null || !Collectives.available(op)) {
                    throw doc.at(kindNode, "'" + kind + "' is not a traffic kind; expected " + KINDS);
                }
                return collective(node, where, op);
            }
        }
    }

    /**
     * A collective call: its ranks (hosts, in ring order), its size in exactly one convention ({@code size} or
     * {@code size-total}: the nccl-tests S; {@code size-per-rank}: one rank's part), and how it runs.
     */
    private TrafficSpec collective(Node node, String where, CollectiveOp op) throws ScenarioException {
        YamlMap m = op == CollectiveOp.ALL_TO_ALLV
                ? YamlMap.of(doc, node, where, "kind", "ranks", "size", "size-total", "size-per-rank", "matrix", "skew",
                        "start", "algorithm", "channels", "qps-per-connection", "iterations", "dscp")
                : YamlMap.of(doc, node, where, "kind", "ranks", "size", "size-total", "size-per-rank", "start",
                        "algorithm", "channels", "qps-per-connection", "root", "iterations", "dscp");
        int[] ranks = hostSet(m.require("ranks", HOST_SET), "ranks");
        if (ranks.length < 2) {
            throw doc.at(m.get("ranks"), op.title() + " needs at least 2 ranks; expected two or more hosts");
        }
        String algorithmName = m.optionalChoice("algorithm", Collectives.defaultAlgorithm(op).key(),
                "an algorithm of " + op.title(), Collectives.algorithmKeys(op));
        Algorithm algorithm = Algorithm.ofKey(algorithmName);
        String[] sizeKeys = {"size", "size-total", "size-per-rank"};
        String sizeKey = null;
        for (String k : sizeKeys) {
            if (m.get(k) != null) {
                if (sizeKey != null) {
                    throw doc.at(m.get(k), "both " + sizeKey + " and " + k + " are given; expected exactly one of "
                            + "size-total (the nccl-tests size), size-per-rank, or size (= size-total)");
                }
                sizeKey = k;
            }
        }
        long size;
        PairSizes pairs = null;
        if (op == CollectiveOp.ALL_TO_ALLV && m.get("matrix") != null) {
            if (sizeKey != null) {
                throw doc.at(m.get(sizeKey), "an AlltoAllv with a matrix takes its sizes from the matrix; expected no "
                        + sizeKey);
            }
            if (m.get("skew") != null) {
                throw doc.at(m.get("skew"), "an AlltoAllv with a matrix needs no skew; expected either matrix or "
                        + "size with an optional skew");
            }
            pairs = matrix(m.get("matrix"), ranks.length);
            size = pairs.ncclSize();
        } else if (op == CollectiveOp.BARRIER) {
            if (sizeKey != null) {
                throw doc.at(m.get(sizeKey), "a barrier moves no data; expected no size");
            }
            size = 0;
        } else {
            if (sizeKey == null) {
                throw doc.at(node, "missing key 'size-total' in " + where + "; expected size-total (the nccl-tests "
                        + "size S), size-per-rank, or size (= size-total)"
                        + (op == CollectiveOp.ALL_TO_ALLV ? ", or a matrix" : ""));
            }
            long given = m.requiredSize(sizeKey, 1);
            if (sizeKey.equals("size-per-rank")) {
                try {
                    size = op.totalFromPerRank(given, ranks.length);
                } catch (ArithmeticException e) {
                    throw doc.at(m.get(sizeKey), "size-per-rank x ranks is too large; expected a smaller size");
                }
            } else {
                size = given;
            }
        }
        long start = m.optionalTime("start", 0L);
        int channels = m.get("channels") == null ? 1 : doc.integer(m.get("channels"), "channels", 1, 64);
        int qps = m.get("qps-per-connection") == null ? 1
                : doc.integer(m.get("qps-per-connection"), "qps-per-connection", 1, Collective.MAX_QPS_PER_CONNECTION);
        if (op == CollectiveOp.ALL_TO_ALLV && pairs == null) {
            pairs = skew(m.get("skew"), ranks.length, size);
            size = pairs.ncclSize();
        }
        int root = 0;
        // AlltoAllv does not declare root (an unknown key there), so it must not ask for it.
        if (op != CollectiveOp.ALL_TO_ALLV && m.get("root") != null) {
            if (!op.rooted()) {
                throw doc.at(m.get("root"), op.title() + " has no root; expected no root key");
            }
            int rootHost = host(m.get("root"));
            root = -1;
            for (int i = 0; i < ranks.length; i++) {
                if (ranks[i] == rootHost) {
                    root = i;
                }
            }
            if (root < 0) {
                throw doc.at(m.get("root"), "host " + rootHost + " is not one of the ranks; expected a root among "
                        + "the ranks");
            }
        }
        int iterations = m.get("iterations") == null ? 1
                : doc.integer(m.get("iterations"), "iterations", 1, 1_000_000);
        int rootIndex = root;
        long total = size;
        PairSizes pairSizes = pairs;
        CollectiveTraffic traffic = doc.build(node, where, () -> new CollectiveTraffic(
                new Collective(op, algorithm, ranks, total, rootIndex, channels, -1, qps, pairSizes), start,
                iterations));
        try {
            Collectives.check(traffic.call());
        } catch (IllegalArgumentException e) {
            throw doc.at(m.get("algorithm") != null ? m.get("algorithm") : node, e.getMessage());
        }
        boolean usesServers = algorithm == Algorithm.HIERARCHICAL
                || algorithm == Algorithm.PXN;
        if (serverOfHost != null && usesServers) {
            // Unrolled once here, so a call the topology cannot serve is reported where it is written (only the
            // algorithms that follow the servers can fail on them); sized first, as the unrolling costs its flows.
            if (sizing != null) {
                sizing.requireWith(node, traffic);
            }
            TaskGraph scratch = new TaskGraph();
            scratch.servers(serverOfHost);
            if (algorithm == Algorithm.HIERARCHICAL) {
                // What the hierarchical form can refuse (its servers), checked without writing its messages.
                doc.build(node, where, () -> {
                    HierarchicalAlgorithm.check(scratch, traffic.call());
                    return traffic;
                });
            } else {
                doc.build(node, where, () -> new CollectiveTraffic(traffic.call(), start, 1).emit(scratch));
            }
        }
        return traffic;
    }

    private Sizing sizing;

    /** The sizing that collectives are checked against before they are unrolled here. */
    void sizing(Sizing s) {
        this.sizing = s;
    }

    /** An AlltoAllv matrix: one row per sending rank, one size per receiving rank, in the order of ranks. */
    private PairSizes matrix(Node node, int n) throws ScenarioException {
        String expected = n + " rows of " + n + " sizes (row i: the bytes rank i sends to each rank, itself included)";
        List<Node> rows = doc.list(node, "matrix", expected);
        if (rows.size() != n) {
            throw doc.at(node, "matrix has " + rows.size() + " rows; expected " + expected);
        }
        long[][] bytes = new long[n][n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            List<Node> row = doc.list(rows.get(i), "matrix row", expected);
            if (row.size() != n) {
                throw doc.at(rows.get(i), "matrix row " + (i + 1) + " has " + row.size() + " sizes; expected " + n
                        + " (one per rank)");
            }
            for (int j = 0; j < n; j++) {
                bytes[i][j] = doc.size(row.get(j), "matrix size", 0);
                if (total + bytes[i][j] < total) {
                    throw doc.at(row.get(j), "the matrix adds up to too many bytes; expected smaller sizes");
                }
                total += bytes[i][j];
            }
        }
        if (total == 0) {
            throw doc.at(node, "every size of the matrix is 0; expected at least one byte to send");
        }
        return PairSizes.of(bytes);
    }

    /**
     * The pair sizes of an AlltoAllv given by {@code size} (bytes each rank sends, itself included): even without
     * {@code skew}, Zipf-skewed destinations with {@code skew: {zipf: EXPONENT, seed: N}}.
     */
    private PairSizes skew(Node node, int n, long perRank) throws ScenarioException {
        if (node == null) {
            return PairSizes.uniform(n, perRank);
        }
        YamlMap s = YamlMap.of(doc, node, "skew", "zipf", "seed");
        double exponent = doc.number(s.require("zipf", "a Zipf exponent such as 1.2"), "zipf", 0, 10);
        long seed = s.get("seed") == null ? 1 : doc.longValue(s.get("seed"), "seed", "a whole number");
        return PairSizes.zipf(n, perRank, exponent, seed);
    }

    /** How the CSV file is named in messages: next to the scenario file as the user named it. */
    String csvName(String file) {
        return DataFile.shown(doc, baseDir, file);
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

    /** The folder relative files are resolved against. */
    Path baseDir() {
        return baseDir;
    }

    /**
     * A set of hosts: one index, a list of indices, or ranges like {@code 1-4,7,9-10}; in the order given. {@code key}
     * names the set in messages (senders, ranks, hosts).
     */
    int[] hostSet(Node node, String key) throws ScenarioException {
        List<Integer> hosts = new ArrayList<>();
        boolean[] seen = new boolean[hostCount];
        if (node instanceof SequenceNode seq) {
            for (Node n : seq.getValue()) {
                add(hosts, seen, n, 0, host(n), key);
            }
        } else {
            String text = doc.text(node, key, HOST_SET);
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
                    add(hosts, seen, node, at, (int) h, key);
                }
                pos += part.length() + 1;
            }
        }
        if (hosts.isEmpty()) {
            throw doc.at(node, key + " is empty; expected " + HOST_SET);
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

    private void add(List<Integer> hosts, boolean[] seen, Node node, int offset, int h, String key)
            throws ScenarioException {
        if (seen[h]) {
            throw doc.at(node, offset, "host " + h + " is listed twice " + ("senders".equals(key)
                    ? "among the senders; expected each sender once" : "in " + key + "; expected each host once"));
        }
        seen[h] = true;
        hosts.add(h);
    }
}
