package rocelab.observe.output;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
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
    /** 10^0 to 10^18. */
    private static final long[] POWERS_OF_TEN = new long[19];
    /** The tens and ones digit of 0-99. */
    private static final byte[] TENS = new byte[100];
    private static final byte[] ONES = new byte[100];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
        for (int i = 0; i < 100; i++) {
            TENS[i] = (byte) ('0' + i / 10);
            ONES[i] = (byte) ('0' + i % 10);
        }
    }

    private final long[] cachedBits = new long[CACHE];
    private final String[] cachedText = new String[CACHE];
    /** {@link #rounded}'s recent answers, as {@link #number(double)}'s (the key also holds the decimals). */
    private final long[] roundedBits = new long[CACHE];
    private final int[] roundedDecimals = new int[CACHE];
    private final String[] roundedText = new String[CACHE];
    /**
     * The last text cell's string and its bytes: a column of a few fixed words (a flow's status) is the same string
     * row after row, and its cell need not be checked, quoted and encoded again for each of millions of rows.
     */
    private String lastText;
    private byte[] lastTextBytes;
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
        // Room for a sign, 13 integer digits, the point and 6 decimals, written in place.
        room(24);
        if (ps < 0) {
            buf[pos++] = '-';
            ps = -ps;
        }
        long whole = ps / 1_000_000;
        int frac = (int) (ps - whole * 1_000_000);
        digits(whole);
        if (frac != 0) {
            // All six decimals two at a time, then the trailing zeros dropped (at least one decimal is not zero).
            buf[pos] = '.';
            int hi = frac / 10_000;
            int rest = frac - hi * 10_000;
            int mid = rest / 100;
            int lo = rest - mid * 100;
            buf[pos + 1] = TENS[hi];
            buf[pos + 2] = ONES[hi];
            buf[pos + 3] = TENS[mid];
            buf[pos + 4] = ONES[mid];
            buf[pos + 5] = TENS[lo];
            buf[pos + 6] = ONES[lo];
            int end = pos + 6;
            while (buf[end] == '0') {
                end--;
            }
            pos = end + 1;
        }
        return this;
    }

    /**
     * {@code n / 1e9} exactly as {@link #number(double)} prints the double (a rate in bits per second as Gb/s):
     * rounded to 6 decimals, half to even, trailing zeros dropped, but from the integer, without formatting a double
     * (rates.csv of a 1,024-host run is 24 million rows, and {@link Numbers#format} was most of its writing).
     * It is the same: the double nearest n / 1e9 prints as that decimal (at most 15 digits, which a double
     * tells apart), or as another decimal within one ulp of it, far less than the 1e-9 between n / 1e9 and any
     * rounding midpoint but when n / 1e9 is one (n % 1000 == 500): that tie, and negative or huge n, take the
     * double's own way.
     */
    public CsvStream billionths(long n) throws IOException {
        long thousands = n / 1000;
        int rest = (int) (n - thousands * 1000);
        if (n < 0 || n >= 1_000_000_000_000_000L || rest == 500) {
            return number(n / 1e9);
        }
        return micros(rest > 500 ? thousands + 1 : thousands);
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

    /**
     * {@code Numbers.round(v, decimals)} as {@link #decimal} prints it, remembered for the values seen recently (a
     * job's collective calls repeat their bandwidths); like {@link Numbers#round}, NaN and infinities are refused.
     */
    public CsvStream rounded(double v, int decimals) throws IOException {
        long bits = Double.doubleToRawLongBits(v);
        int slot = (int) (bits ^ bits >>> 29 ^ bits >>> 43 ^ decimals) & (CACHE - 1);
        String s = roundedText[slot];
        if (s == null || roundedBits[slot] != bits || roundedDecimals[slot] != decimals) {
            s = Numbers.round(v, decimals).toPlainString();
            roundedText[slot] = s;
            roundedBits[slot] = bits;
            roundedDecimals[slot] = decimals;
        }
        separator();
        ascii(s);
        return this;
    }

    /** A decimal as {@link CsvTable} prints it (its plain text; null: empty). */
    public CsvStream decimal(BigDecimal v) throws IOException {
        separator();
        if (v != null) {
            ascii(v.toPlainString());
        }
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
            byte[] b;
            if (s == lastText) {
                b = lastTextBytes;
            } else {
                b = CsvTable.cell(s).getBytes(StandardCharsets.UTF_8);
                lastText = s;
                lastTextBytes = b;
            }
            if (b.length <= buf.length) {
                room(b.length);
                System.arraycopy(b, 0, buf, pos, b.length);
                pos += b.length;
            } else {
                for (byte x : b) {
                    put(x);
                }
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
        room(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii(Long.toString(v));
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        digits(v);
    }

    /**
     * The decimal digits of {@code v >= 0}, straight into the buffer (the caller made room for 19): two digits per
     * division, and int arithmetic once the value fits, as {@link Long#toString} does. A flow-level run's flows.csv is
     * tens of millions of numbers; a byte at a time through a bounds check cost more than the rest of the row.
     */
    private void digits(long v) {
        // The digit count from the bit length (log10(2) is about 1233 / 4096), then one comparison to correct it.
        int guess = (64 - Long.numberOfLeadingZeros(v)) * 1233 >>> 12;
        int len = v == 0 ? 1 : guess + (v >= POWERS_OF_TEN[guess] ? 1 : 0);
        int p = pos + len;
        pos = p;
        while (v > Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            buf[--p] = ONES[r];
            buf[--p] = TENS[r];
            v = q;
        }
        int i = (int) v;
        while (i >= 100) {
            int q = i / 100;
            int r = i - q * 100;
            buf[--p] = ONES[r];
            buf[--p] = TENS[r];
            i = q;
        }
        if (i >= 10) {
            buf[--p] = ONES[i];
            buf[--p] = TENS[i];
        } else {
            buf[--p] = (byte) ('0' + i);
        }
    }

    /** Makes room for {@code n} more bytes in the buffer (at most its size), writing out what it holds if need be. */
    private void room(int n) throws IOException {
        if (pos + n > buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
        }
    }

    private void ascii(String s) throws IOException {
        int n = s.length();
        if (n > buf.length) {
            for (int i = 0; i < n; i++) {
                put((byte) s.charAt(i));
            }
            return;
        }
        room(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) s.charAt(i);
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
