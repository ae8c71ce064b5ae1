package rocelab.scenario.read;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/** One YAML document being read: turns nodes into values and problems into positioned exceptions. */
final class Doc {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");

    private final String file;

    Doc(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    /**
     * Marks named with this prefix and a file name belong to that file, not to the document being read: the values a
     * sweep file splices into a scenario keep their own positions, so an error in one names the sweep file.
     */
    static final String FILE_MARK = "rocelab-file:";

    /** The file a mark belongs to: its own for a spliced-in node, else this document's. */
    private String fileOf(Mark mark) {
        String name = mark == null ? null : mark.getName();
        return name != null && name.startsWith(FILE_MARK) ? name.substring(FILE_MARK.length()) : file;
    }

    ScenarioException at(Mark mark, String detail) {
        return mark == null ? new ScenarioException(file, 1, 1, detail)
                : new ScenarioException(fileOf(mark), mark.getLine() + 1, mark.getColumn() + 1, detail);
    }

    ScenarioException at(Node node, String detail) {
        return at(node.getStartMark(), detail);
    }

    /** A problem at character {@code offset} inside a one-line scalar (for example one number in "1-4,7"). */
    ScenarioException at(Node node, int offset, String detail) {
        Mark start = node.getStartMark();
        Mark end = node.getEndMark();
        if (node instanceof ScalarNode s && start != null && end != null && start.getLine() == end.getLine()) {
            DumperOptions.ScalarStyle style = s.getScalarStyle();
            int quote = style == DumperOptions.ScalarStyle.SINGLE_QUOTED
                    || style == DumperOptions.ScalarStyle.DOUBLE_QUOTED ? 1 : 0;
            return new ScenarioException(fileOf(start), start.getLine() + 1, start.getColumn() + 1 + quote + offset,
                    detail);
        }
        return at(node, detail);
    }

    /**
     * {@code value} in single quotes for a message, its control characters escaped ({@code \0}, {@code \t},
     * {@code \n}, {@code \x1B}, ...): a name that holds a NUL or an escape sequence is shown, not obeyed by the
     * terminal.
     */
    static String quoted(String value) {
        StringBuilder b = new StringBuilder(value.length() + 2).append('\'');
        value.codePoints().forEach(c -> {
            if (!Character.isISOControl(c)) {
                b.appendCodePoint(c);
            } else if (c == 0) {
                b.append("\\0");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else {
                b.append(String.format(Locale.ROOT, "\\x%02X", c));
            }
        });
        return b.append('\'').toString();
    }

    /** How a node that has the wrong shape looks, as a verb phrase: "is a list", "has no value". */
    static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "is a mapping";
        }
        if (node instanceof SequenceNode) {
            return "is a list";
        }
        if (isNull(node)) {
            return "has no value";
        }
        return "is " + quoted(((ScalarNode) node).getValue());
    }

    static boolean isNull(Node node) {
        return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL);
    }

    /** The text of a scalar; anything else (list, mapping, empty value) is an error. */
    String text(Node node, String label, String expected) throws ScenarioException {
        if (!(node instanceof ScalarNode s) || isNull(node)) {
            throw at(node, label + " " + describe(node) + "; expected " + expected);
        }
        return s.getValue();
    }

    List<Node> list(Node node, String label, String expected) throws ScenarioException {
        if (!(node instanceof SequenceNode s)) {
            throw at(node, label + " " + describe(node) + "; expected " + expected);
        }
        return s.getValue();
    }

    int integer(Node node, String label, int min, int max) throws ScenarioException {
        long v = longValue(node, label, wholeNumber(min, max));
        if (v < min || v > max) {
            throw at(node, label + " " + v + " is out of range; expected " + wholeNumber(min, max));
        }
        return (int) v;
    }

    long longValue(Node node, String label, String expected) throws ScenarioException {
        String t = text(node, label, expected);
        if (!INTEGER.matcher(t).matches()) {
            throw at(node, label + " '" + t + "' is not a whole number; expected " + expected);
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw at(node, label + " '" + t + "' is too large; expected " + expected);
        }
    }

    boolean bool(Node node, String label) throws ScenarioException {
        String t = text(node, label, "true or false");
        if (t.equals("true") || t.equals("false")) {
            return t.equals("true");
        }
        throw at(node, label + " '" + t + "' is not a boolean; expected true or false");
    }

    long size(Node node, String label, long min) throws ScenarioException {
        long v = unit(node, label, UnitParser.SIZE_FORMAT, 's');
        if (v < min) {
            throw at(node, label + " '" + text(node, label, "") + "' is too small; expected a size of at least "
                    + min + (min == 1 ? " byte" : " bytes"));
        }
        return v;
    }

    long rate(Node node, String label) throws ScenarioException {
        return unit(node, label, UnitParser.RATE_FORMAT, 'r');
    }

    /** The latest time a scenario may name: half the representable range, so that what follows it still fits. */
    static final long MAX_TIME_PS = Long.MAX_VALUE / 2;

    long time(Node node, String label) throws ScenarioException {
        long ps = unit(node, label, UnitParser.TIME_FORMAT, 't');
        if (ps > MAX_TIME_PS) {
            throw at(node, "'" + text(node, label, UnitParser.TIME_FORMAT) + "' is beyond the simulated time range;"
                    + " expected a time of at most " + MAX_TIME_PS / 1_000_000_000_000L + "s (about 53 days)");
        }
        return ps;
    }

    private long unit(Node node, String label, String format, char kind) throws ScenarioException {
        String t = text(node, label, format);
        try {
            return switch (kind) {
                case 's' -> UnitParser.bytes(t);
                case 'r' -> UnitParser.rateBps(t);
                default -> UnitParser.timePs(t);
            };
        } catch (IllegalArgumentException e) {
            throw at(node, e.getMessage());
        }
    }

    /** A decimal number in [min, max] (fractions such as pmax or g; {@code 1/256} is accepted too). */
    double number(Node node, String label, double min, double max) throws ScenarioException {
        String expected = "a number in " + trim(min) + ".." + trim(max) + " (e.g. 0.2 or 1/256)";
        String t = text(node, label, expected);
        double v;
        try {
            int slash = t.indexOf('/');
            v = slash < 0 ? Double.parseDouble(t)
                    : Double.parseDouble(t.substring(0, slash).strip()) / Double.parseDouble(t.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            throw at(node, label + " '" + t + "' is not a number; expected " + expected);
        }
        if (!(v >= min && v <= max)) {
            throw at(node, label + " " + t + " is out of range; expected " + expected);
        }
        return v;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String wholeNumber(long min, long max) {
        if (max == Integer.MAX_VALUE || max == Long.MAX_VALUE) {
            return "a whole number >= " + min;
        }
        return "a whole number in " + min + ".." + max;
    }

    /** Builds a record, turning a rejection by its constructor into an error at {@code node}. */
    <T> T build(Node node, String where, Supplier<T> builder) throws ScenarioException {
        try {
            return builder.get();
        } catch (IllegalArgumentException e) {
            throw at(node, e.getMessage() + "; expected valid values for " + where);
        }
    }
}
