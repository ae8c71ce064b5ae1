package rocelab.observe.output;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A CSV document (RFC 4180, comma separated, header row) that pandas reads without options. Every CSV file rocelab
 * writes goes through it, so every one is safe to open in a spreadsheet.
 */
public final class CsvTable {
    private final StringBuilder text = new StringBuilder(1 << 16);
    private final int columns;

    public CsvTable(List<String> header) {
        this.columns = header.size();
        row(header.toArray());
    }

    public CsvTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
        }
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(cell(cells[i]));
        }
        text.append('\n');
        return this;
    }

    static String cell(Object v) {
        String s;
        if (v == null) {
            s = "";
        } else if (v instanceof Double d) {
            s = Numbers.format(d);
        } else if (v instanceof BigDecimal b) {
            s = b.toPlainString();
        } else {
            s = v.toString();
            if (!(v instanceof Number)) {
                s = neutralised(s);
            }
        }
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    /**
     * Text that a spreadsheet would read as a formula ({@code =}, {@code +}, {@code -}, {@code @}, tab or carriage
     * return first: a name a user wrote, such as {@code =HYPERLINK(...)}) gets a leading apostrophe, as the OWASP
     * advice on CSV injection says; text that is a plain number (a negative one too) stays a number.
     */
    static String neutralised(String s) {
        if (s.isEmpty() || "=+-@\t\r".indexOf(s.charAt(0)) < 0 || NUMBER.matcher(s).matches()) {
            return s;
        }
        return "'" + s;
    }

    private static final Pattern NUMBER =
            Pattern.compile("[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    @Override
    public String toString() {
        return text.toString();
    }
}
