package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A key of a scenario named by its path, {@code switch.ecn.kmin} or {@code traffic[0].senders}, and the edit that
 * sets it in a scenario's YAML tree. The edit works on the tree before the scenario reader sees it, so a value is
 * validated exactly as if it were written in the scenario; a key the base scenario does not have is added (and the
 * reader rejects it if it is no scenario key), positioned at the sweep file's key.
 */
final class KeyPath {
    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z0-9_-]+)((?:\\[\\d+\\])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)\\]");
    static final String FORMAT = "a scenario key path such as switch.ecn.kmin, nic.dcqcn.profile or traffic[0].senders";

    /** One step: a mapping key, or a list index. */
    private record Step(String key, int index) {
        boolean isIndex() {
            return key == null;
        }

        @Override
        public String toString() {
            return isIndex() ? "[" + index + "]" : key;
        }
    }

    private final String text;
    private final List<Step> steps;

    private KeyPath(String text, List<Step> steps) {
        this.text = text;
        this.steps = List.copyOf(steps);
    }

    /** Parses a path; {@code node} (the sweep file's key) positions the error. */
    static KeyPath parse(Doc doc, Node node) throws ScenarioException {
        String text = doc.text(node, "a vary key", FORMAT);
        List<Step> steps = new ArrayList<>();
        int offset = 0;
        for (String part : text.split("\\.", -1)) {
            Matcher m = SEGMENT.matcher(part);
            if (!m.matches()) {
                throw doc.at(node, offset, "'" + part + "' in '" + text + "' is not a key name or key[index]; expected "
                        + FORMAT);
            }
            steps.add(new Step(m.group(1), -1));
            Matcher i = INDEX.matcher(m.group(2));
            while (i.find()) {
                try {
                    steps.add(new Step(null, Integer.parseInt(i.group(1))));
                } catch (NumberFormatException e) {
                    throw doc.at(node, offset, "index " + i.group(1) + " is too large; expected a list index");
                }
            }
            offset += part.length() + 1;
        }
        return new KeyPath(text, steps);
    }

    String text() {
        return text;
    }

    /** The first mapping key of the path (the top-level scenario key). */
    String top() {
        return steps.get(0).key();
    }

    /** Whether this path names {@code other} or a key inside it (or the other way round). */
    boolean overlaps(KeyPath other) {
        int n = Math.min(steps.size(), other.steps.size());
        return steps.subList(0, n).equals(other.steps.subList(0, n));
    }

    /**
     * Sets the key to {@code value} in {@code root} (which is changed; give it a copy), creating missing mapping
     * keys with the position of {@code keyNode}. A list index must exist in the base scenario.
     */
    void set(Doc doc, Node root, Node sweepValue, Node keyNode, String baseName) throws ScenarioException {
        // Each point gets its own copy: the sweep's node is shared by every point that uses the value.
        Node value = YamlTrees.copy(sweepValue, null);
        Node container = root;
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            boolean last = i == steps.size() - 1;
            String where = i == 0 ? "the scenario" : pathTo(i);
            if (step.isIndex()) {
                if (!(container instanceof SequenceNode seq)) {
                    throw doc.at(keyNode, where + " is not a list in " + baseName + "; expected " + pathTo(i + 1)
                            + " to index a list");
                }
                if (step.index() >= seq.getValue().size()) {
                    throw doc.at(keyNode, where + " has " + seq.getValue().size() + " item"
                            + (seq.getValue().size() == 1 ? "" : "s") + " in " + baseName + ", so " + pathTo(i + 1)
                            + " does not exist; expected an index below " + seq.getValue().size());
                }
                if (last) {
                    seq.getValue().set(step.index(), value);
                } else {
                    container = seq.getValue().get(step.index());
                }
                continue;
            }
            if (!(container instanceof MappingNode map)) {
                throw doc.at(keyNode, where + " " + Doc.describe(container) + " in " + baseName + "; expected a mapping"
                        + " that can hold " + pathTo(i + 1));
            }
            NodeTuple found = null;
            int at = -1;
            List<NodeTuple> tuples = map.getValue();
            for (int t = 0; t < tuples.size(); t++) {
                if (tuples.get(t).getKeyNode() instanceof ScalarNode k && k.getValue().equals(step.key())) {
                    found = tuples.get(t);
                    at = t;
                }
            }
            Node next;
            if (last) {
                next = value;
            } else if (found != null && !Doc.isNull(found.getValueNode())) {
                next = found.getValueNode();
            } else if (steps.get(i + 1).isIndex()) {
                throw doc.at(keyNode, pathTo(i + 1) + " is not in " + baseName + ", so " + pathTo(i + 2)
                        + " does not exist; expected a list the base scenario has");
            } else {
                next = new MappingNode(Tag.MAP, true, new ArrayList<>(), keyNode.getStartMark(), keyNode.getEndMark(),
                        DumperOptions.FlowStyle.FLOW);
            }
            NodeTuple replaced = new NodeTuple(found != null ? found.getKeyNode() : key(step.key(), keyNode), next);
            if (found != null) {
                tuples.set(at, replaced);
            } else {
                tuples.add(replaced);
            }
            container = next;
        }
    }

    private static ScalarNode key(String name, Node at) {
        Mark start = at.getStartMark();
        return new ScalarNode(Tag.STR, name, start, at.getEndMark(), DumperOptions.ScalarStyle.PLAIN);
    }

    /** The path text up to (not including) step {@code end}. */
    private String pathTo(int end) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < end; i++) {
            if (i > 0 && !steps.get(i).isIndex()) {
                b.append('.');
            }
            b.append(steps.get(i));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
