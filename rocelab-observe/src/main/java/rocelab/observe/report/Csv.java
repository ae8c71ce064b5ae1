package rocelab.observe.report;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A CSV file of a run folder (RFC 4180: quoted fields may hold commas, quotes and newlines), read with Jackson's CSV
 * parser, by column name. Bad content is a {@link RunFolderException} naming the file, line and column.
 */
final class Csv {
    private static final CsvFactory FACTORY = new CsvFactory();

    final Path file;
    final List<String> header;
    final List<String[]> rows;
    /** The line each row starts on (1-based; the header is line 1). */
    private final int[] lines;
    private final Map<String, Integer> index = new HashMap<>();

    private Csv(Path file, List<String> header, List<String[]> rows, int[] lines) {
        this.file = file;
        this.header = header;
        this.rows = rows;
        this.lines = lines;
        for (int i = 0; i < header.size(); i++) {
            index.put(header.get(i), i);
        }
    }

    /** Reads a file, or returns null when it does not exist. */
    static Csv read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<String[]> rows = new ArrayList<>();
        int[] lines = new int[1024];
        List<String> header = null;
        String text = utf8(file);
        try (Reader in = new StringReader(text);
                CsvParser parser = (CsvParser) FACTORY.createParser(in)) {
            // Streaming, without a schema: each row is one array of strings, quoted commas, quotes and newlines
            // kept in their field.
            List<String> fields = new ArrayList<>();
            int line = 1;
            int depth = 0;
            JsonToken t;
            while ((t = parser.nextToken()) != null) {
                if (t == JsonToken.START_ARRAY) {
                    depth++;
                    fields.clear();
                    line = parser.currentLocation().getLineNr();
                } else if (t == JsonToken.VALUE_STRING) {
                    fields.add(parser.getText());
                } else if (t == JsonToken.END_ARRAY && --depth == 0) {
                    String[] r = fields.toArray(new String[0]);
                    if (header == null) {
                        header = List.of(r);
                        continue;
                    }
                    if (r.length == 0 || r.length == 1 && r[0].isEmpty()) {
                        continue;
                    }
                    if (r.length != header.size()) {
                        throw new RunFolderException(file + ":" + line + ":1: " + r.length + " fields; expected "
                                + header.size() + " (" + String.join(",", header) + ")");
                    }
                    if (rows.size() == lines.length) {
                        lines = Arrays.copyOf(lines, lines.length * 2);
                    }
                    lines[rows.size()] = line;
                    rows.add(r);
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var at = e.getLocation();
            throw new RunFolderException(file + ":" + (at == null ? 0 : at.getLineNr()) + ":"
                    + (at == null ? 0 : at.getColumnNr()) + ": not valid CSV: " + e.getOriginalMessage());
        }
        if (header == null) {
            return null;
        }
        return new Csv(file, header, rows, lines);
    }

    /** The file as text, or an error at the line and column of its first byte that is not UTF-8. */
    private static String utf8(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        var decoder = StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        var result = decoder.decode(in, out, true);
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new RunFolderException(file + ":" + line + ":" + (at - lineStart + 1)
                    + ": not UTF-8 text; expected a CSV file as rocelab run writes it");
        }
        return out.flip().toString();
    }

    boolean has(String name) {
        return index.containsKey(name);
    }

    int col(String name) throws RunFolderException {
        Integer i = index.get(name);
        if (i == null) {
            throw new RunFolderException(file + ":1:1: expected a column named " + name + " in the header ("
                    + String.join(",", header) + ")");
        }
        return i;
    }

    /**
     * A text field as the run had it: CsvTable puts an apostrophe before text a spreadsheet would take for a formula
     * ({@code =}, {@code +}, {@code -}, {@code @}, tab, carriage return first), and this takes it off again.
     */
    String text(int row, String column) throws RunFolderException {
        String s = rows.get(row)[col(column)];
        return s.length() > 1 && s.charAt(0) == '\'' && "=+-@\t\r".indexOf(s.charAt(1)) >= 0 ? s.substring(1) : s;
    }

    /** A number, or NaN for an empty field. */
    double num(int row, String column) throws RunFolderException {
        int c = col(column);
        String s = rows.get(row)[c];
        if (s.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw bad(row, c, "a number", s);
        }
    }

    long integer(int row, String column) throws RunFolderException {
        int c = col(column);
        String s = rows.get(row)[c];
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw bad(row, c, "an integer", s);
        }
    }

    /** Microseconds (up to picosecond precision) as picoseconds, or -1 for an empty field. */
    long ps(int row, String column) throws RunFolderException {
        int c = col(column);
        String s = rows.get(row)[c];
        if (s.isEmpty()) {
            return -1;
        }
        try {
            return new BigDecimal(s).movePointRight(6).setScale(0, RoundingMode.HALF_EVEN)
                    .longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(row, c, "a time in microseconds", s);
        }
    }

    private RunFolderException bad(int row, int col, String expected, String found) {
        return new RunFolderException(file + ":" + lines[row] + ":" + (col + 1) + ": expected " + expected
                + " in column " + header.get(col) + ", found '" + found + "'");
    }
}
