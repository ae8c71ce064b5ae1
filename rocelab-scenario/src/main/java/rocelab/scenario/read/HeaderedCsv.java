package rocelab.scenario.read;

import java.util.ArrayList;
import java.util.List;

/**
 * A small CSV file with one fixed header line, then one record per non-blank line (the flow list, the request
 * trace): a byte-order mark and CRLF line ends are accepted, and every problem names the file, line and column.
 */
final class HeaderedCsv {
    /** Turns one data line into a record. */
    interface RowReader<T> {
        T read(String line, int lineNo) throws ScenarioException;
    }

    private HeaderedCsv() {}

    /**
     * The records of {@code text}, shown in messages as {@code shown}; {@code noRows} says what an empty file lacks
     * ("the file has no flows").
     */
    static <T> List<T> rows(String text, String header, String shown, String noRows, RowReader<T> rows)
            throws ScenarioException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] lines = text.split("\n", -1);
        List<T> out = new ArrayList<>();
        int headerLine = 0;
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (line.isBlank()) {
                continue;
            }
            if (headerLine == 0) {
                if (!line.equals(header)) {
                    throw new ScenarioException(shown, lineNo, 1, "the header is '" + line + "'; expected the header "
                            + header);
                }
                headerLine = lineNo;
                continue;
            }
            out.add(rows.read(line, lineNo));
        }
        if (headerLine == 0) {
            throw new ScenarioException(shown, 1, 1, "the file is empty; expected the header " + header);
        }
        if (out.isEmpty()) {
            throw new ScenarioException(shown, headerLine + 1, 1, noRows + "; expected at least one row after the"
                    + " header " + header);
        }
        return out;
    }

    /** One field of a row: its text without surrounding blanks, and the 1-based column where it starts. */
    record Field(String value, int column) {}

    /** The comma-separated fields of a data line, which must have as many as {@code header} names. */
    static Field[] fields(String line, int lineNo, String shown, String header) throws ScenarioException {
        int expected = header.split(",").length;
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == ',') {
                starts.add(i + 1);
            }
        }
        int n = starts.size();
        if (n != expected) {
            int at = n < expected ? line.length() + 1 : starts.get(expected) + 1;
            throw new ScenarioException(shown, lineNo, at, "the row has " + n + (n == 1 ? " field" : " fields")
                    + "; expected " + expected + " fields: " + header);
        }
        Field[] out = new Field[n];
        for (int f = 0; f < n; f++) {
            int start = starts.get(f);
            int end = f + 1 < n ? starts.get(f + 1) - 1 : line.length();
            String field = line.substring(start, end);
            String value = field.strip();
            out[f] = new Field(value, start + 1 + (value.isEmpty() ? 0 : field.indexOf(value)));
        }
        return out;
    }
}
