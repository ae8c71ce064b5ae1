package rocelab.scenario.sweep;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The numbers of a summary.json, flattened to column names: nested keys joined with '.', list items by index
 * ({@code fct.p99_us}, {@code collectives[0].busbw_gbytes_per_s}). Each number keeps its text exactly as the
 * summary wrote it, so a results table built from the same summaries is the same bytes wherever it is built.
 */
public final class SummaryMetrics {
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");

    private SummaryMetrics() {}

    /** Flattened name to number text, in the summary's key order; strings, booleans and nulls are left out. */
    public static Map<String, String> numbers(String summaryJson) {
        Map<String, String> out = new LinkedHashMap<>();
        walk(node(summaryJson), "", out);
        return out;
    }

    /**
     * Why a summary.json text is not one a run wrote (not JSON, or not an object with a {@code stop_reason}), in
     * plain words with its line and column; null when it is one.
     */
    public static String problem(String summaryJson) {
        Node n;
        try {
            n = node(summaryJson);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark();
            return (m == null ? "" : "line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": ")
                    + "not valid JSON (" + e.getProblem() + ")";
        } catch (YAMLException e) {
            return "not valid JSON";
        }
        if (!(n instanceof MappingNode)) {
            return n == null ? "empty" : "not a JSON object";
        }
        if (text(summaryJson, "stop_reason") == null) {
            return "no stop_reason: not a complete summary";
        }
        return null;
    }

    /** A string at the top level of the summary (such as stop_reason), or null. */
    public static String text(String summaryJson, String key) {
        if (node(summaryJson) instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)
                        && t.getValueNode() instanceof ScalarNode v) {
                    return v.getValue();
                }
            }
        }
        return null;
    }

    /** A string in a mapping at the top level of the summary ({@code counters.rate_cuts_unit}), or null. */
    public static String text(String summaryJson, String parent, String key) {
        if (node(summaryJson) instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(parent)
                        && t.getValueNode() instanceof MappingNode inner) {
                    for (NodeTuple u : inner.getValue()) {
                        if (u.getKeyNode() instanceof ScalarNode k2 && k2.getValue().equals(key)
                                && u.getValueNode() instanceof ScalarNode v) {
                            return v.getValue();
                        }
                    }
                }
            }
        }
        return null;
    }

    private static Node node(String json) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return new Yaml(options).compose(new StringReader(json));
    }

    private static void walk(Node n, String name, Map<String, String> out) {
        if (n instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                String key = ((ScalarNode) t.getKeyNode()).getValue();
                walk(t.getValueNode(), name.isEmpty() ? key : name + "." + key, out);
            }
        } else if (n instanceof SequenceNode s) {
            for (int i = 0; i < s.getValue().size(); i++) {
                walk(s.getValue().get(i), name + "[" + i + "]", out);
            }
        } else if (n instanceof ScalarNode s && s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN
                && NUMBER.matcher(s.getValue()).matches()) {
            out.put(name, s.getValue());
        }
    }
}
