package rocelab.scenario.read;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Deep copies of YAML node trees (optionally claiming their positions for a file) and their text. */
final class YamlTrees {
    private YamlTrees() {}

    /** A deep copy; with {@code file} set, every position says it is in that file (see {@link Doc#FILE_MARK}). */
    static Node copy(Node n, String file) {
        Mark start = mark(n.getStartMark(), file);
        Mark end = mark(n.getEndMark(), file);
        if (n instanceof MappingNode m) {
            List<NodeTuple> tuples = new ArrayList<>();
            for (NodeTuple t : m.getValue()) {
                tuples.add(new NodeTuple(copy(t.getKeyNode(), file), copy(t.getValueNode(), file)));
            }
            return new MappingNode(m.getTag(), true, tuples, start, end, m.getFlowStyle());
        }
        if (n instanceof SequenceNode s) {
            List<Node> items = new ArrayList<>();
            for (Node i : s.getValue()) {
                items.add(copy(i, file));
            }
            return new SequenceNode(s.getTag(), true, items, start, end, s.getFlowStyle());
        }
        if (n instanceof ScalarNode s) {
            return new ScalarNode(s.getTag(), s.getValue(), start, end, s.getScalarStyle());
        }
        throw new IllegalArgumentException("unexpected YAML node " + n.getNodeId());
    }

    private static Mark mark(Mark m, String file) {
        if (m == null || file == null) {
            return m;
        }
        return new Mark(Doc.FILE_MARK + file, m.getIndex(), m.getLine(), m.getColumn(), new int[0], 0);
    }

    /** The tree as YAML text (block style where the source was, no line folding). */
    static String text(Node root) {
        DumperOptions options = new DumperOptions();
        options.setSplitLines(false);
        options.setWidth(Integer.MAX_VALUE);
        options.setIndent(2);
        StringWriter out = new StringWriter();
        new Yaml(options).serialize(root, out);
        return out.toString();
    }

    /** A value as one line of text: a scalar as written, anything else in YAML flow style. */
    static String oneLine(Node n) {
        if (n instanceof ScalarNode s) {
            return s.getValue();
        }
        Node flow = copy(n, null);
        flowStyle(flow);
        return text(flow).strip();
    }

    private static void flowStyle(Node n) {
        if (n instanceof MappingNode m) {
            m.setFlowStyle(DumperOptions.FlowStyle.FLOW);
            for (NodeTuple t : m.getValue()) {
                flowStyle(t.getValueNode());
            }
        } else if (n instanceof SequenceNode s) {
            s.setFlowStyle(DumperOptions.FlowStyle.FLOW);
            s.getValue().forEach(YamlTrees::flowStyle);
        }
    }
}
