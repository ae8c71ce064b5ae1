package rocelab.observe.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A CSV document (RFC 4180, comma separated, header row) that pandas reads without options. Every CSV file rocelab
 * writes goes through it, so every one is safe to open in a spreadsheet.
 */
public final class CsvTable {
    /** Rows held before they go to {@link #sink}. */
    private static final int FLUSH_CHARS = 1 << 16;
    private final StringBuilder text = new StringBuilder(FLUSH_CHARS);
    private final int columns;
    /** Where the rows go as they come (null: the document is kept, {@link #toString}). */
    private final Writer sink;

    public CsvTable(List<String> header) {
        this(header, null);
    }

    private CsvTable(List<String> header, Writer sink) {
        this.columns = header.size();
        this.sink = sink;
        row(header.toArray());
    }

    /**
     * A table whose rows go to {@code sink} as they come, some 64 K characters at a time, for a file of hundreds of
     * thousands of rows (the 1,024-host all-to-all's pfc.csv, 60 MB, was a string, then its bytes, then a direct buffer
     * of its size in the writing thread). {@link #finish} writes the last rows.
     */
    public static CsvTable streamedTo(Writer sink, List<String> header) {
        return new CsvTable(header, Objects.requireNonNull(sink, "sink"));
    }

    /** Writes the rows not yet written to the sink, and flushes it. */
    public void finish() throws IOException {
        if (sink == null) {
            throw new IllegalStateException("a table kept in memory is read with toString");
        }
        sink.append(text);
        text.setLength(0);
        sink.flush();
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
        if (sink != null && text.length() >= FLUSH_CHARS) {
            try {
                sink.append(text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            text.setLength(0);
        }
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
        if (sink != null) {
            throw new IllegalStateException("a streamed table's rows are in its sink");
        }
        return text.toString();
    }
}
