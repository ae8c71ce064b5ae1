package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * A strict view of one YAML mapping: keys must be plain scalars, appear once, and belong to the allowed set; typed
 * getters report problems at the value's position.
 */
final class YamlMap {
    private final Doc doc;
    private final Node node;
    private final String where;
    private final List<String> allowed;
    private final Map<String, NodeTuple> entries;

    private YamlMap(Doc doc, Node node, String where, List<String> allowed, Map<String, NodeTuple> entries) {
        this.doc = doc;
        this.node = node;
        this.where = where;
        this.allowed = allowed;
        this.entries = entries;
    }

    /**
     * Wraps a mapping node (an empty value counts as an empty mapping), rejecting duplicate keys and keys that are not
     * in {@code allowed}; the first offending key in file order is reported.
     */
    static YamlMap of(Doc doc, Node node, String where, String... allowed) throws ScenarioException {
        List<String> keys = Arrays.asList(allowed);
        Map<String, NodeTuple> entries = entries(doc, node, where, "a mapping with the keys " + String.join(", ", keys));
        for (NodeTuple t : entries.values()) {
            String key = ((ScalarNode) t.getKeyNode()).getValue();
            if (!keys.contains(key) && key.equals("protocol")) {
                // What the README promises: NCCL's protocols are not modelled, and asking for one says so.
                throw doc.at(t.getKeyNode(), "'protocol' is not supported: rocelab does not model NCCL's LL, LL128 or"
                        + " Simple protocols (no key chooses one) in " + where + "; expected one of: "
                        + String.join(", ", keys));
            }
            if (!keys.contains(key)) {
                throw doc.at(t.getKeyNode(), "unknown key '" + key + "' in " + where + "; expected one of: "
                        + String.join(", ", keys));
            }
        }
        return new YamlMap(doc, node, where, keys, entries);
    }

    /** The entries of a mapping by key text, in file order, with duplicate and non-scalar keys rejected. */
    static Map<String, NodeTuple> entries(Doc doc, Node node, String where, String expected) throws ScenarioException {
        Map<String, NodeTuple> entries = new LinkedHashMap<>();
        if (Doc.isNull(node)) {
            return entries;
        }
        if (!(node instanceof MappingNode m)) {
            throw doc.at(node, where + " " + Doc.describe(node) + "; expected " + expected);
        }
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k) || Doc.isNull(k)) {
                String what = Doc.isNull(t.getKeyNode()) ? "is empty" : Doc.describe(t.getKeyNode());
                throw doc.at(t.getKeyNode(), "a key in " + where + " " + what + "; expected a plain key name");
            }
            NodeTuple first = entries.putIfAbsent(k.getValue(), t);
            if (first != null) {
                throw doc.at(k, "duplicate key '" + k.getValue() + "' in " + where + " (first given on line "
                        + (first.getKeyNode().getStartMark().getLine() + 1) + "); expected each key at most once");
            }
        }
        return entries;
    }

    Node node() {
        return node;
    }

    String where() {
        return where;
    }

    boolean has(String key) {
        return entries.containsKey(check(key));
    }

    /** The value node of a key, or {@code null} when the key is absent. */
    Node get(String key) {
        NodeTuple t = entries.get(check(key));
        return t == null ? null : t.getValueNode();
    }

    /** The key node of a present key, or the mapping itself when the key is absent. */
    Node keyNode(String key) {
        NodeTuple t = entries.get(check(key));
        return t == null ? node : t.getKeyNode();
    }

    /** The value node of a key that must be present. */
    Node require(String key, String expected) throws ScenarioException {
        Node v = get(key);
        if (v == null) {
            throw doc.at(node, "missing key '" + key + "' in " + where + "; expected " + key + ": " + expected);
        }
        return v;
    }

    int requiredInt(String key, int min, int max) throws ScenarioException {
        return doc.integer(require(key, Doc.wholeNumber(min, max)), key, min, max);
    }

    int optionalInt(String key, int defaultValue, int min, int max) throws ScenarioException {
        Node v = get(key);
        return v == null ? defaultValue : doc.integer(v, key, min, max);
    }

    boolean optionalBool(String key, boolean defaultValue) throws ScenarioException {
        Node v = get(key);
        return v == null ? defaultValue : doc.bool(v, key);
    }

    long requiredSize(String key, long min) throws ScenarioException {
        return doc.size(require(key, UnitParser.SIZE_FORMAT), key, min);
    }

    long optionalSize(String key, long defaultValue, long min) throws ScenarioException {
        Node v = get(key);
        return v == null ? defaultValue : doc.size(v, key, min);
    }

    long requiredRate(String key) throws ScenarioException {
        return doc.rate(require(key, UnitParser.RATE_FORMAT), key);
    }

    long optionalTime(String key, long defaultValue) throws ScenarioException {
        Node v = get(key);
        return v == null ? defaultValue : doc.time(v, key);
    }

    /** A time, or {@code auto} (and absent) for -1. */
    long optionalTimeOrAuto(String key) throws ScenarioException {
        Node v = get(key);
        if (v == null || v instanceof org.yaml.snakeyaml.nodes.ScalarNode s && s.getValue().equals("auto")) {
            return -1;
        }
        return doc.time(v, key);
    }

    /** A key whose value is one of {@code choices} (as written in the file), or the default when absent. */
    String optionalChoice(String key, String defaultValue, String what, String... choices) throws ScenarioException {
        Node v = get(key);
        return v == null ? defaultValue : choice(v, key, what, choices);
    }

    private String choice(Node v, String key, String what, String... choices) throws ScenarioException {
        String expected = choices.length == 1 ? choices[0] : "one of: " + String.join(", ", choices);
        String t = doc.text(v, key, expected);
        if (!Arrays.asList(choices).contains(t) && what.startsWith("an algorithm of ") && t.equalsIgnoreCase("pat")) {
            throw doc.at(v, "'" + t + "' (NCCL's PAT algorithm) is not supported; expected " + what
                    + " that rocelab models: " + expected);
        }
        if (!Arrays.asList(choices).contains(t)) {
            throw doc.at(v, "'" + t + "' is not " + what + "; expected " + expected);
        }
        return t;
    }

    /** The items of a list value. */
    List<Node> requiredList(String key, String expected) throws ScenarioException {
        return new ArrayList<>(doc.list(require(key, expected), key, expected));
    }

    private String check(String key) {
        if (!allowed.contains(key)) {
            throw new IllegalStateException("key '" + key + "' is not declared for " + where);
        }
        return key;
    }
}
