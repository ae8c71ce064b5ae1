package rocelab.observe.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A CSV file that rocelab wrote (no quoted commas in the columns the report reads), by column name. */
final class Csv {
    final List<String> header;
    final List<String[]> rows;
    private final Map<String, Integer> index = new HashMap<>();

    private final Path file;

    private Csv(Path file, List<String> header, List<String[]> rows) {
        this.file = file;
        this.header = header;
        this.rows = rows;
        for (int i = 0; i < header.size(); i++) {
            index.put(header.get(i), i);
        }
    }

    /**
     * Reads a file, or returns null when it does not exist.
     *
     * @throws RunFolderException (located: file, line, column) when it is not UTF-8 text or a row does not have the
     *     header's number of fields: not a CSV file rocelab wrote
     */
    static Csv read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        String text = utf8(file);
        List<String> lines = text.lines().toList();
        if (lines.isEmpty()) {
            return null;
        }
        List<String> header = List.of(lines.get(0).split(",", -1));
        List<String[]> rows = new ArrayList<>(lines.size());
        for (int i = 1; i < lines.size(); i++) {
            String[] row = lines.get(i).split(",", -1);
            if (row.length != header.size() && !lines.get(i).contains("\"")) {
                throw new RunFolderException(file + ":" + (i + 1) + ":1: " + row.length + " fields; expected "
                        + header.size() + " as in the header (a CSV file as rocelab run writes it)");
            }
            rows.add(row);
        }
        return new Csv(file, header, rows);
    }

    /** The file's text, or a located error at the first byte that is not UTF-8. */
    private static String utf8(Path file) throws IOException {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(Files.readAllBytes(file));
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(in.remaining());
        java.nio.charset.CoderResult r = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT).decode(in, out, true);
        if (r.isError() || in.remaining() > 0 && !r.isUnderflow()) {
            out.flip();
            String before = out.toString();
            int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
            int column = before.length() - before.lastIndexOf('\n');
            throw new RunFolderException(file + ":" + line + ":" + column + ": not UTF-8 text; expected a CSV file as"
                    + " rocelab run writes it");
        }
        out.flip();
        return out.toString();
    }

    int col(String name) {
        Integer i = index.get(name);
        if (i == null) {
            throw new IllegalArgumentException(file + ":1:1: column " + name + " is missing from the header; expected"
                    + " the header rocelab run writes");
        }
        return i;
    }

    static double num(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
}
