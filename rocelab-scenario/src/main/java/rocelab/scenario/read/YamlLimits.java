package rocelab.scenario.read;

import java.io.StringReader;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Where a YAML document crosses the reader's limits, and tags the scenario format does not have. SnakeYAML's own
 * limit errors carry no position; a second pass over the parser's events (linear in the text, whatever the
 * aliases expand to) finds the alias or the nesting that crossed the limit.
 */
final class YamlLimits {
    private YamlLimits() {}

    /** The position of the first alias of a collection beyond the limit, or of the first nesting beyond it. */
    static Mark where(String text, LoaderOptions options) {
        Set<String> collectionAnchors = new HashSet<>();
        int aliases = 0;
        int depth = 0;
        Mark deepest = null;
        int maxDepth = -1;
        try {
            for (Event e : new Yaml(options).parse(new StringReader(text))) {
                if (e instanceof CollectionStartEvent c) {
                    depth++;
                    if (c.getAnchor() != null) {
                        collectionAnchors.add(c.getAnchor());
                    }
                    if (depth > options.getNestingDepthLimit()) {
                        return e.getStartMark();
                    }
                    if (depth > maxDepth) {
                        maxDepth = depth;
                        deepest = e.getStartMark();
                    }
                } else if (e instanceof CollectionEndEvent) {
                    depth--;
                } else if (e instanceof AliasEvent a && collectionAnchors.contains(a.getAnchor())
                        && ++aliases > options.getMaxAliasesForCollections()) {
                    return e.getStartMark();
                }
            }
        } catch (RuntimeException unreadable) {
            // The composer's error stands; this pass only adds a position when it can.
        }
        return deepest;
    }

    /** Rejects explicit local tags ({@code !fabric}): the format has none, and SnakeYAML would drop them silently. */
    static void rejectTags(Doc doc, Node root) throws ScenarioException {
        check(doc, root, new IdentityHashMap<>());
    }

    private static void check(Doc doc, Node node, IdentityHashMap<Node, Boolean> seen) throws ScenarioException {
        if (node == null || seen.put(node, Boolean.TRUE) != null) {
            return;
        }
        Tag tag = node.getTag();
        if (tag != null && !tag.getValue().startsWith(Tag.PREFIX)) {
            throw doc.at(node, "tag '" + tag.getValue() + "' is not part of the scenario format; expected plain"
                    + " YAML values without tags");
        }
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                check(doc, t.getKeyNode(), seen);
                check(doc, t.getValueNode(), seen);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                check(doc, n, seen);
            }
        }
    }
}
