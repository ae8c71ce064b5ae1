package rocelab.scenario.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import rocelab.fabric.topology.CustomTopologySpec.CustomLink;
import rocelab.fabric.topology.CustomTopologySpec;
import rocelab.fabric.topology.FatTreeSpec;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.MultiPlaneSpec;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.SingleSwitchSpec;
import rocelab.fabric.topology.TopologySpec;
import rocelab.observe.output.Numbers;

/** Reads the {@code topology} section into one of the topology spec records. */
final class TopologyReader {
    /** Largest fabric the reader accepts, in hosts. */
    static final int MAX_HOSTS = 1_000_000;
    /** Propagation delay of a link that does not give one. */
    static final long DEFAULT_DELAY_PS = 1_000_000L;

    private static final String KINDS = "one of: single-switch, leaf-spine, fat-tree, rail-optimized, custom, ns3";
    private static final Pattern HOST_NAME = Pattern.compile("h(0|[1-9]\\d{0,6})");
    private static final Pattern SWITCH_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private final Doc doc;
    private final Path baseDir;
    private Ns3Topology ns3;

    /** {@code baseDir}: the folder a topology file ({@code kind: ns3}) is resolved against. */
    TopologyReader(Doc doc, Path baseDir) {
        this.doc = doc;
        this.baseDir = baseDir;
    }

    /** The ns-3 topology read, with its node ids, when the kind was ns3; else null. */
    Ns3Topology ns3() {
        return ns3;
    }

    TopologySpec read(Node node, Node keyNode) throws ScenarioException {
        NodeTuple kindEntry = YamlMap.entries(doc, node, "topology", "a mapping with a kind").get("kind");
        if (kindEntry == null) {
            throw doc.at(node, "missing key 'kind' in topology; expected kind: " + KINDS);
        }
        Node kindNode = kindEntry.getValueNode();
        String kind = doc.text(kindNode, "kind", KINDS);
        String where = "topology (" + kind + ")";
        TopologySpec spec;
        switch (kind) {
            case "single-switch" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "hosts", "link", "planes", "plane-selection");
                int hosts = m.requiredInt("hosts", 2, MAX_HOSTS);
                int planes = planes(m);
                LinkParameters link = perPlane(m.require("link", "{rate: ..., delay: ...}"), "topology.link", planes);
                spec = planed(m, planes, build(m, () -> new SingleSwitchSpec(hosts, link)));
            }
            case "leaf-spine" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "leaves", "spines", "hosts-per-leaf",
                        "parallel-uplinks", "link", "uplink", "planes", "plane-selection");
                int leaves = m.requiredInt("leaves", 1, MAX_HOSTS);
                int spines = m.requiredInt("spines", 1, MAX_HOSTS);
                int perLeaf = m.requiredInt("hosts-per-leaf", 1, MAX_HOSTS);
                int parallel = m.optionalInt("parallel-uplinks", 1, 1, 1024);
                checkHostCount(m, (long) leaves * perLeaf);
                int planes = planes(m);
                LinkParameters link = perPlane(m.require("link", "{rate: ..., delay: ...}"), "topology.link", planes);
                LinkParameters uplink = m.has("uplink") ? perPlane(m.get("uplink"), "topology.uplink", planes) : link;
                spec = planed(m, planes, build(m, () -> new LeafSpineSpec(leaves, spines, perLeaf, parallel, link,
                        uplink)));
            }
            case "fat-tree" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "k", "link", "uplink", "planes", "plane-selection");
                int k = m.requiredInt("k", 2, 158);
                if (k % 2 != 0) {
                    throw doc.at(m.get("k"), "k " + k + " is odd; expected an even whole number in 2..158");
                }
                int planes = planes(m);
                LinkParameters link = perPlane(m.require("link", "{rate: ..., delay: ...}"), "topology.link", planes);
                LinkParameters uplink = m.has("uplink") ? perPlane(m.get("uplink"), "topology.uplink", planes) : link;
                spec = planed(m, planes, build(m, () -> new FatTreeSpec(k, link, uplink)));
            }
            case "rail-optimized" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "servers", "gpus-per-server", "spines", "link",
                        "uplink", "planes", "plane-selection");
                int servers = m.requiredInt("servers", 1, MAX_HOSTS);
                int gpus = m.requiredInt("gpus-per-server", 1, 1024);
                int spines = m.requiredInt("spines", 0, MAX_HOSTS);
                if (spines == 0 && gpus > 1) {
                    throw doc.at(m.get("spines"), "spines 0 leaves the " + gpus + " rails unconnected; expected "
                            + "spines >= 1 when gpus-per-server is more than 1");
                }
                checkHostCount(m, (long) servers * gpus);
                int planes = planes(m);
                LinkParameters link = perPlane(m.require("link", "{rate: ..., delay: ...}"), "topology.link", planes);
                LinkParameters uplink = m.has("uplink") ? perPlane(m.get("uplink"), "topology.uplink", planes) : link;
                spec = planed(m, planes, build(m, () -> new RailOptimizedSpec(servers, gpus, spines, link, uplink)));
            }
            case "custom" -> spec = custom(YamlMap.of(doc, node, where, "kind", "hosts", "switches", "links", "link"),
                    keyNode);
            case "ns3" -> {
                YamlMap m = YamlMap.of(doc, node, where, "kind", "file");
                Node fileNode = m.require("file", "the path of an ns-3 topology file, relative to the scenario's"
                        + " folder");
                DataFile file = DataFile.at(doc, fileNode, baseDir, "the path of an ns-3 topology file");
                String text = file.text(doc, fileNode, "; expected an ns-3 topology file, " + Ns3TopologyReader.FORMAT);
                ns3 = new Ns3TopologyReader(new Ns3Lines(text, file.shown())).read();
                spec = ns3.spec();
            }
            default -> throw doc.at(kindNode, "'" + kind + "' is not a topology kind; expected " + KINDS);
        }
        return spec;
    }

    /** Most planes a fabric may have (multi-plane designs use 2, 4 or 8). */
    static final int MAX_PLANES = 16;

    /**
     * {@code planes: P} (default 1). {@code plane-selection} is read with P >= 2; with one plane every selection is the
     * same, so it is accepted and changes nothing (a sweep may vary the planes over 1, 2 and 4).
     */
    private int planes(YamlMap m) throws ScenarioException {
        int planes = m.optionalInt("planes", 1, 1, MAX_PLANES);
        if (planes == 1) {
            m.optionalChoice("plane-selection", "per-qp", "a plane selection", PlaneSelection.PER_QP.key(),
                    PlaneSelection.SPRAY.key());
        }
        return planes;
    }

    /**
     * A link of a {@code planes}-plane fabric: its rate is the whole RNIC's (or all planes' together), and each plane
     * gets an equal share, so a 2-plane fabric of 800 Gb/s links is two planes of 400 Gb/s.
     */
    private LinkParameters perPlane(Node node, String where, int planes) throws ScenarioException {
        LinkParameters l = link(node, where);
        if (planes == 1) {
            return l;
        }
        if (l.rateBps() % planes != 0) {
            YamlMap m = YamlMap.of(doc, node, where, "rate", "delay");
            throw doc.at(m.get("rate"), "a rate of " + l.rateBps() + " bit/s does not split into " + planes
                    + " equal planes; expected a rate that divides by " + planes + " (each plane gets rate / planes)");
        }
        return build(YamlMap.of(doc, node, where, "rate", "delay"), () -> new LinkParameters(l.rateBps() / planes,
                l.delayPs()));
    }

    /** The fabric as P planes, when {@code planes} > 1. */
    private TopologySpec planed(YamlMap m, int planes, TopologySpec plane) throws ScenarioException {
        if (planes == 1) {
            return plane;
        }
        PlaneSelection selection = PlaneSelection.fromKey(m.optionalChoice("plane-selection", "per-qp",
                "a plane selection", PlaneSelection.PER_QP.key(), PlaneSelection.SPRAY.key()));
        return build(m, () -> new MultiPlaneSpec(plane, planes, selection));
    }

    /** A {@code {rate, delay}} mapping; delay defaults to 1 us. */
    LinkParameters link(Node node, String where) throws ScenarioException {
        YamlMap m = YamlMap.of(doc, node, where, "rate", "delay");
        long rate = m.requiredRate("rate");
        long delay = m.optionalTime("delay", DEFAULT_DELAY_PS);
        return build(m, () -> new LinkParameters(rate, delay));
    }

    private CustomTopologySpec custom(YamlMap m, Node keyNode) throws ScenarioException {
        int hosts = m.requiredInt("hosts", 2, MAX_HOSTS);
        List<String> switches = new ArrayList<>();
        for (Node s : m.requiredList("switches", "a list of switch names")) {
            String name = doc.text(s, "switch name", "a name made of letters, digits, '.', '_' or '-'");
            if (!SWITCH_NAME.matcher(name).matches() || name.matches("h\\d+")) {
                throw doc.at(s, Doc.quoted(name) + " is not a usable switch name; expected letters, digits, '.', '_' or"
                        + " '-', and not h<number> (hosts are named h0..h" + (hosts - 1) + ")");
            }
            if (switches.contains(name)) {
                throw doc.at(s, "switch '" + name + "' is listed twice; expected each switch name once");
            }
            switches.add(name);
        }
        if (switches.isEmpty()) {
            throw doc.at(m.get("switches"), "switches is empty; expected at least one switch name");
        }
        LinkParameters fallback = m.has("link") ? link(m.get("link"), "topology.link") : null;
        List<Node> items = m.requiredList("links", "a list of links {a: ..., b: ...}");
        if (items.isEmpty()) {
            throw doc.at(m.get("links"), "links is empty; expected at least one link {a: ..., b: ...}");
        }
        Map<Integer, Integer> hostLinkLine = new HashMap<>();
        List<CustomLink> links = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            YamlMap l = YamlMap.of(doc, items.get(i), "topology.links item " + (i + 1), "a", "b", "rate", "delay");
            String a = nodeName(l, "a", hosts, switches);
            String b = nodeName(l, "b", hosts, switches);
            if (a.equals(b)) {
                throw doc.at(l.get("b"), "the link connects " + a + " to itself; expected two different nodes");
            }
            if (HOST_NAME.matcher(a).matches() && HOST_NAME.matcher(b).matches()) {
                throw doc.at(l.node(), "the link connects host " + a + " directly to host " + b
                        + "; expected hosts to connect through switches");
            }
            for (String end : List.of("a", "b")) {
                String name = end.equals("a") ? a : b;
                if (HOST_NAME.matcher(name).matches()) {
                    int line = l.get(end).getStartMark().getLine() + 1;
                    Integer first = hostLinkLine.putIfAbsent(Integer.parseInt(name.substring(1)), line);
                    if (first != null) {
                        throw doc.at(l.get(end), "host " + name + " is already linked on line " + first
                                + "; expected one link per host (an RNIC has one port)");
                    }
                }
            }
            if (!l.has("rate") && fallback == null) {
                throw doc.at(l.node(), "the link " + a + " - " + b + " has no rate and the topology has no default"
                        + " link; expected rate: on this link, or a topology-level link: {rate: ..., delay: ...}");
            }
            long rate = l.has("rate") ? l.requiredRate("rate") : fallback.rateBps();
            long delay = l.optionalTime("delay", fallback == null ? DEFAULT_DELAY_PS : fallback.delayPs());
            LinkParameters p = build(l, () -> new LinkParameters(rate, delay));
            links.add(new CustomLink(a, b, p));
        }
        CustomTopologySpec spec = build(m, () -> new CustomTopologySpec(hosts, switches, links));
        List<Integer> cut = build(m, () -> spec.build().unreachableHosts());
        if (!cut.isEmpty()) {
            // Ten named and the rest counted, unless only one is left: it is named too.
            int shown = Numbers.shown(cut.size(), 10);
            String names = cut.stream().limit(shown).map(h -> "h" + h).collect(Collectors.joining(", "))
                    + (cut.size() > shown ? " and " + (cut.size() - shown) + " more" : "");
            throw doc.at(keyNode, "topology is disconnected: " + (cut.size() == 1 ? "host " : "hosts ") + names
                    + " cannot reach h0; expected every host to reach every"
                    + " other host through switches");
        }
        return spec;
    }

    private String nodeName(YamlMap l, String key, int hosts, List<String> switches) throws ScenarioException {
        String expected = "a host h0..h" + (hosts - 1) + " or a switch (" + String.join(", ", switches) + ")";
        Node n = l.require(key, expected);
        String name = doc.text(n, key, expected);
        boolean host = HOST_NAME.matcher(name).matches() && Integer.parseInt(name.substring(1)) < hosts;
        if (!host && !switches.contains(name)) {
            throw doc.at(n, "unknown node '" + name + "'; expected " + expected);
        }
        return name;
    }

    private void checkHostCount(YamlMap m, long hosts) throws ScenarioException {
        if (hosts > MAX_HOSTS) {
            throw doc.at(m.node(), "the topology has " + hosts + " hosts; expected at most " + MAX_HOSTS + " hosts");
        }
        if (hosts < 2) {
            throw doc.at(m.node(), "the topology has " + hosts + " host; expected at least 2 hosts");
        }
    }

    private <T> T build(YamlMap m, Supplier<T> builder) throws ScenarioException {
        return doc.build(m.node(), m.where(), builder);
    }
}
