package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import rocelab.scenario.read.HeaderedCsv.Field;

/**
 * An input file of the ns-3 RDMA model (the HPCC simulator's topology and flow files, read by its {@code third.cc}) as
 * its non-blank lines of blank-separated fields, each with its line and column, so that every problem names them. A
 * byte-order mark and CRLF line ends are accepted.
 */
final class Ns3Lines {
    /** One non-blank line: its 1-based number, its fields, and its length (the column after it is length + 1). */
    record Line(int number, List<Field> fields, int length) {}

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern NEGATIVE = Pattern.compile("-\\d+");

    private final String shown;
    private final List<Line> lines = new ArrayList<>();
    private final int lineCount;
    private int next;

    /** The lines of {@code text}, shown in messages as {@code shown}. */
    Ns3Lines(String text, String shown) {
        this.shown = shown;
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] raw = text.split("\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String line = raw[i].endsWith("\r") ? raw[i].substring(0, raw[i].length() - 1) : raw[i];
            List<Field> fields = fields(line);
            if (!fields.isEmpty()) {
                lines.add(new Line(i + 1, fields, line.length()));
            }
        }
        // A file ending in a line end has an empty last piece, which is no line of its own.
        this.lineCount = raw.length > 1 && raw[raw.length - 1].isEmpty() ? raw.length - 1 : raw.length;
    }

    private static List<Field> fields(String line) {
        List<Field> out = new ArrayList<>();
        int at = 0;
        while (at < line.length()) {
            while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
                at++;
            }
            int from = at;
            while (at < line.length() && !Character.isWhitespace(line.charAt(at))) {
                at++;
            }
            if (at > from) {
                out.add(new Field(line.substring(from, at), from + 1));
            }
        }
        return out;
    }

    String shown() {
        return shown;
    }

    boolean hasNext() {
        return next < lines.size();
    }

    /**
     * The next non-blank line. At the end of the file it is an error just past the file's last line: "{@code problem};
     * expected {@code expected}".
     */
    Line next(String problem, String expected) throws ScenarioException {
        if (!hasNext()) {
            throw new ScenarioException(shown, lines.isEmpty() ? 1 : lineCount + 1, 1, problem + "; expected "
                    + expected);
        }
        return lines.get(next++);
    }

    /** A line must have exactly {@code count} fields; a missing one is reported after the last, an extra one at it. */
    void requireFields(Line line, int count, String expected) throws ScenarioException {
        int n = line.fields().size();
        if (n < count) {
            throw at(line.number(), line.length() + 1, "the line has " + n + (n == 1 ? " field" : " fields")
                    + "; expected " + expected);
        }
        if (n > count) {
            Field extra = line.fields().get(count);
            throw at(line.number(), extra.column(), "an extra field '" + extra.value() + "' (the line has " + n
                    + " fields); expected " + expected);
        }
    }

    /** Field {@code index} of {@code line} as a whole number in {@code min..max}, named {@code label} in messages. */
    long whole(Line line, int index, String label, long min, long max, String expected) throws ScenarioException {
        Field f = line.fields().get(index);
        String v = f.value();
        if (NEGATIVE.matcher(v).matches()) {
            throw at(line.number(), f.column(), label + " " + v + " is negative; expected " + expected);
        }
        if (!DIGITS.matcher(v).matches()) {
            throw at(line.number(), f.column(), label + " " + Doc.quoted(v) + " is not a whole number; expected "
                    + expected);
        }
        long value;
        try {
            value = Long.parseLong(v);
        } catch (NumberFormatException e) {
            value = Long.MAX_VALUE;
        }
        if (value < min || value > max) {
            throw at(line.number(), f.column(), label + " " + v + " is out of range; expected " + expected);
        }
        return value;
    }

    ScenarioException at(int line, int column, String detail) {
        return new ScenarioException(shown, line, column, detail);
    }

    ScenarioException at(Line line, int index, String detail) {
        return at(line.number(), line.fields().get(index).column(), detail);
    }
}
