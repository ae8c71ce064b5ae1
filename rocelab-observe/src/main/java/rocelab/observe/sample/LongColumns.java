package rocelab.observe.sample;

import java.util.Arrays;

/**
 * Rows of a fixed number of long columns in primitive blocks of {@value #BLOCK_ROWS} rows (no boxing). The blocks
 * never move once filled: growing by doubling one array needed the old and the new copy at once, up to three
 * times the rows' size at the moment of the copy (a 1,024-host all-to-all ran out of heap there), and left up to
 * half of the array unused; blocks hold the rows and at most one block's slack.
 */
final class LongColumns {
    private static final int BLOCK_SHIFT = 12;
    static final int BLOCK_ROWS = 1 << BLOCK_SHIFT;
    private static final int ROW_MASK = BLOCK_ROWS - 1;

    private final int width;
    private long[][] blocks = new long[4][];
    private long[] block;
    /** Where the next row starts in {@link #block}. */
    private int at;
    private int rows;

    LongColumns(int width) {
        this.width = width;
    }

    void add(long a, long b, long c) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
    }

    void add(long a, long b, long c, long d, long e) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
        data[i + 4] = e;
    }

    void add(long a, long b, long c, long d, long e, long f) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
        data[i + 4] = e;
        data[i + 5] = f;
    }

    /** The offset of a new row in {@link #block}, starting a block when the current one is full. */
    private int next() {
        if ((rows & ROW_MASK) == 0) {
            int k = rows >>> BLOCK_SHIFT;
            if (k == blocks.length) {
                blocks = Arrays.copyOf(blocks, k * 2);
            }
            block = new long[BLOCK_ROWS * width];
            blocks[k] = block;
            at = 0;
        }
        rows++;
        int i = at;
        at += width;
        return i;
    }

    int rows() {
        return rows;
    }

    long get(int row, int column) {
        return blocks[row >>> BLOCK_SHIFT][(row & ROW_MASK) * width + column];
    }
}
