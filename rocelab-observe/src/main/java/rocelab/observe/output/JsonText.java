package rocelab.observe.output;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Renders a tree of maps, lists, strings, numbers, booleans and nulls as indented JSON (RFC 8259).
 *
 * <p>Written by hand on purpose: the outputs are small fixed trees, and loading a JSON library's databinding
 * classes cost about half a second on every run, a third of the wall time of a small scenario.
 */
public final class JsonText {
    private JsonText() {}

    public static String render(Object tree) {
        StringBuilder b = new StringBuilder(1024);
        value(b, tree, 0);
        return b.append('\n').toString();
    }

    /** The tree on one line, without indentation (for files of many small records, such as a trace). */
    public static String compact(Object tree) {
        StringBuilder b = new StringBuilder(128);
        compact(b, tree);
        return b.toString();
    }

    /** Appends {@link #compact(Object)}'s text of {@code tree} to {@code b}. */
    public static void appendCompact(StringBuilder b, Object tree) {
        compact(b, tree);
    }

    private static void compact(StringBuilder b, Object v) {
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(i++ == 0 ? "" : ", ");
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                compact(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ", ");
                compact(b, l.get(i));
            }
            b.append(']');
        } else {
            value(b, v, 0);
        }
    }

    private static void value(StringBuilder b, Object v, int depth) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> m) {
            object(b, m, depth);
        } else if (v instanceof List<?> l) {
            array(b, l, depth);
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof BigDecimal d) {
            b.append(d.toPlainString());
        } else if (v instanceof Double d) {
            String s = Numbers.format(d);
            b.append(s.isEmpty() ? "null" : s);
        } else if (v instanceof Float f) {
            value(b, f.doubleValue(), depth);
        } else if (v instanceof Long n) {
            b.append(n.longValue()); // the digits of toString, without a string made for them
        } else if (v instanceof Integer n) {
            b.append(n.intValue());
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            string(b, v.toString());
        }
    }

    private static void object(StringBuilder b, Map<?, ?> m, int depth) {
        if (m.isEmpty()) {
            b.append("{}");
            return;
        }
        b.append("{\n");
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            indent(b, depth + 1);
            string(b, String.valueOf(e.getKey()));
            b.append(": ");
            value(b, e.getValue(), depth + 1);
            b.append(++i < m.size() ? ",\n" : "\n");
        }
        indent(b, depth);
        b.append('}');
    }

    private static void array(StringBuilder b, List<?> l, int depth) {
        if (l.isEmpty()) {
            b.append("[]");
            return;
        }
        b.append("[\n");
        for (int i = 0; i < l.size(); i++) {
            indent(b, depth + 1);
            value(b, l.get(i), depth + 1);
            b.append(i + 1 < l.size() ? ",\n" : "\n");
        }
        indent(b, depth);
        b.append(']');
    }

    private static void indent(StringBuilder b, int depth) {
        for (int i = 0; i < depth; i++) {
            b.append("  ");
        }
    }

    static void string(StringBuilder b, String s) {
        b.append('"');
        // Most strings (names, keys) need no escape: appended whole rather than a char at a time (a job's trace
        // writes millions of them).
        int plain = 0;
        while (plain < s.length()) {
            char c = s.charAt(plain);
            if (c < 0x20 || c == '"' || c == '\\') {
                break;
            }
            plain++;
        }
        if (plain == s.length()) {
            b.append(s).append('"'); // copied as a whole (a range of a string is appended a char at a time)
            return;
        }
        b.append(s, 0, plain);
        for (int i = plain; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
