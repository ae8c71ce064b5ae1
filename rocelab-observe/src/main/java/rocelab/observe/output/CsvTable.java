package rocelab.observe.output;

import java.util.List;

/** A CSV document (RFC 4180, comma separated, header row) that pandas reads without options. */
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

    private static String cell(Object v) {
        String s;
        if (v == null) {
            s = "";
        } else if (v instanceof Double d) {
            s = Numbers.format(d);
        } else if (v instanceof java.math.BigDecimal b) {
            s = b.toPlainString();
        } else {
            s = v.toString();
        }
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
