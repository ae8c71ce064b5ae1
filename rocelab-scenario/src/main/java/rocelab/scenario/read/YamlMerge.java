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
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Merges YAML mappings key by key, keeping every node (and so its line and column): how a device override lays
 * over the uniform section. Nested mappings merge, anything else (scalars, lists) is replaced.
 */
final class YamlMerge {
    /** Keys that select a scheme, and the keys that belong to one scheme only. */
    private static final List<String> SCHEME_SELECTORS = List.of("marking", "threshold");
    private static final List<String> SCHEME_KEYS = List.of("kmin", "kmax", "pmax", "k", "alpha", "xoff", "xon");

    private YamlMerge() {}

    private static boolean changesScheme(MappingNode base, MappingNode over) {
        for (String selector : SCHEME_SELECTORS) {
            String was = scalar(base, selector);
            String now = scalar(over, selector);
            if (now != null && !now.equals(was)) {
                return true;
            }
        }
        return false;
    }

    private static String scalar(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (key(t).equals(key) && t.getValueNode() instanceof ScalarNode s) {
                return s.getValue();
            }
        }
        return null;
    }

    /** {@code over} laid on {@code base}; either may be null. */
    static Node merge(Node base, Node over) {
        if (over == null || Doc.isNull(over)) {
            return base;
        }
        if (!(base instanceof MappingNode b) || !(over instanceof MappingNode o)) {
            return over;
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : b.getValue()) {
            out.put(key(t), t);
        }
        if (changesScheme(b, o)) {
            // Thresholds of one ECN scheme or PFC threshold kind mean nothing to another: they do not carry over.
            out.keySet().removeAll(SCHEME_KEYS);
        }
        for (NodeTuple t : o.getValue()) {
            NodeTuple old = out.get(key(t));
            if (old != null && old.getValueNode() instanceof MappingNode && t.getValueNode() instanceof MappingNode) {
                out.put(key(t), new NodeTuple(t.getKeyNode(), merge(old.getValueNode(), t.getValueNode())));
            } else {
                out.remove(key(t));
                out.put(key(t), t);
            }
        }
        return new MappingNode(Tag.MAP, true, new ArrayList<>(out.values()), o.getStartMark(), o.getEndMark(),
                o.getFlowStyle());
    }

    /** The mapping without the given keys (the selectors of an override). */
    static Node without(Node node, String... keys) {
        if (!(node instanceof MappingNode m)) {
            return node;
        }
        List<String> drop = Arrays.asList(keys);
        List<NodeTuple> kept = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            if (!drop.contains(key(t))) {
                kept.add(t);
            }
        }
        return new MappingNode(Tag.MAP, true, kept, m.getStartMark(), m.getEndMark(), m.getFlowStyle());
    }

    private static String key(NodeTuple t) {
        return t.getKeyNode() instanceof ScalarNode s ? s.getValue() : String.valueOf(t.getKeyNode());
    }
}
