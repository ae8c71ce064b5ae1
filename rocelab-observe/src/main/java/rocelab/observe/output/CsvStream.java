package rocelab.observe.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A CSV document written as it is made, straight to a stream: the same bytes as {@link CsvTable} for the same cells,
 * without holding the document (a flow-level run's flows.csv has millions of rows) or a boxed number or string per
 * cell. Integers and picosecond-as-microsecond times are formatted directly; a double goes through
 * {@link Numbers#format} once per distinct value seen recently (a run's slowdowns repeat).
 */
public final class CsvStream {
    private static final int CACHE = 1 << 10;

    private final OutputStream out;
    private final int columns;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private final long[] cachedBits = new long[CACHE];
    private final String[] cachedText = new String[CACHE];
    private int pos;
    private int cellsInRow;

    /** Writes the header row at once; the caller closes {@code out}, after {@link #flush}. */
    public CsvStream(OutputStream out, List<String> header) throws IOException {
        this.out = out;
        this.columns = header.size();
        for (String h : header) {
            text(h);
        }
        endRow();
    }

    private void separator() throws IOException {
        if (cellsInRow++ > 0) {
            put((byte) ',');
        }
    }

    /** An empty cell (an unknown value). */
    public CsvStream empty() throws IOException {
        separator();
        return this;
    }

    public CsvStream number(long v) throws IOException {
        separator();
        writeLong(v);
        return this;
    }

    /** Picoseconds as microseconds, exactly as {@link Numbers#micros} prints them. */
    public CsvStream micros(long ps) throws IOException {
        separator();
        if (ps == Long.MIN_VALUE) {
            ascii(Numbers.micros(ps).toPlainString());
            return this;
        }
        if (ps < 0) {
            put((byte) '-');
            ps = -ps;
        }
        writeLong(ps / 1_000_000);
        int frac = (int) (ps % 1_000_000);
        if (frac != 0) {
            put((byte) '.');
            int width = 6;
            while (frac % 10 == 0) {
                frac /= 10;
                width--;
            }
            for (int i = width - 1; i >= 0; i--) {
                digits[i] = (byte) ('0' + frac % 10);
                frac /= 10;
            }
            for (int i = 0; i < width; i++) {
                put(digits[i]);
            }
        }
        return this;
    }

    /** A double as {@link CsvTable} prints it ({@link Numbers#format}: NaN and infinities empty). */
    public CsvStream number(double v) throws IOException {
        separator();
        long bits = Double.doubleToRawLongBits(v);
        int slot = (int) (bits ^ bits >>> 29 ^ bits >>> 43) & (CACHE - 1);
        String s = cachedText[slot];
        if (s == null || cachedBits[slot] != bits) {
            s = Numbers.format(v);
            cachedText[slot] = s;
            cachedBits[slot] = bits;
        }
        ascii(s);
        return this;
    }

    public CsvStream bool(boolean v) throws IOException {
        separator();
        ascii(v ? "true" : "false");
        return this;
    }

    /** Text, quoted and neutralised as {@link CsvTable} does it (null: empty). */
    public CsvStream text(String s) throws IOException {
        separator();
        if (s != null) {
            byte[] b = CsvTable.cell(s).getBytes(StandardCharsets.UTF_8);
            for (byte x : b) {
                put(x);
            }
        }
        return this;
    }

    public void endRow() throws IOException {
        if (cellsInRow != columns) {
            throw new IllegalArgumentException("expected " + columns + " cells, got " + cellsInRow);
        }
        cellsInRow = 0;
        put((byte) '\n');
    }

    public void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
        out.flush();
    }

    private void writeLong(long v) throws IOException {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii(Long.toString(v));
                return;
            }
            put((byte) '-');
            v = -v;
        }
        int n = 0;
        do {
            digits[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (n > 0) {
            put(digits[--n]);
        }
    }

    private void ascii(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            put((byte) s.charAt(i));
        }
    }

    private void put(byte b) throws IOException {
        if (pos == buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
        }
        buf[pos++] = b;
    }
}
