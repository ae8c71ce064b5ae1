package rocelab.observe.sample;

import java.util.Arrays;

/** Rows of a fixed number of long columns in one growable primitive array (no boxing, amortised growth). */
final class LongColumns {
    private final int width;
    private long[] data;
    private int rows;

    LongColumns(int width, int initialRows) {
        this.width = width;
        this.data = new long[width * Math.max(16, initialRows)];
    }

    void add(long a, long b, long c) {
        ensure();
        int i = rows++ * width;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
    }

    void add(long a, long b, long c, long d) {
        ensure();
        int i = rows++ * width;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
    }

    void add(long a, long b, long c, long d, long e, long f) {
        ensure();
        int i = rows++ * width;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
        data[i + 4] = e;
        data[i + 5] = f;
    }

    private void ensure() {
        if ((rows + 1) * width > data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
    }

    int rows() {
        return rows;
    }

    long get(int row, int column) {
        return data[row * width + column];
    }
}
