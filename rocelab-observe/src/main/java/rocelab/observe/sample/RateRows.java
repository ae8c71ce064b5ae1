package rocelab.observe.sample;

import java.io.IOException;
import java.util.Arrays;

/**
 * The rows of rates.csv: queue pair, rate and congestion notifications received (16 bytes a row; the time is kept
 * per sample by {@link SampleTimes}). A QP index and a count of notifications received fit in an int (a QP would
 * need a notification every microsecond for 35 simulated minutes to pass it; {@link Math#toIntExact} would say so).
 * The newest rows are on the heap, in primitive blocks of {@value #BLOCK_ROWS} rows; once {@code memoryRows} of
 * them are there, they go to a temporary file ({@link RowSpill}) and their blocks are reused: a 1,024-host
 * all-to-all samples tens of millions of rows, which are read only when the run's outputs are written, in order.
 */
final class RateRows {
    private static final int BLOCK_SHIFT = 12;
    static final int BLOCK_ROWS = 1 << BLOCK_SHIFT;
    private static final int ROW_MASK = BLOCK_ROWS - 1;
    /**
     * Rows kept on the heap before they are moved to the file by default: 4 MB (rates.csv's and throughput.csv's
     * each; a sequential write of a few megabytes now and then costs the loop nothing measurable).
     */
    static final int MEMORY_ROWS = 1 << 18;

    private final int memoryRows;
    /** Blocks of the rows from {@link #spilled} on. */
    private int[][] queuePairs = new int[4][];
    private long[][] rates = new long[4][];
    private int[][] cnps = new int[4][];
    private int rows;
    /** Rows in {@link #spill}: the first ones. */
    private int spilled;
    private RowSpill spill;

    RateRows() {
        this(MEMORY_ROWS);
    }

    RateRows(int memoryRows) {
        if (memoryRows <= 0) {
            throw new IllegalArgumentException("rows kept in memory must be positive: " + memoryRows);
        }
        this.memoryRows = memoryRows;
    }

    void add(int queuePair, long rateBps, long cnpsReceived) {
        int notifications = Math.toIntExact(cnpsReceived);
        if (rows - spilled == memoryRows) {
            moveToFile();
        }
        int m = rows - spilled;
        int k = m >>> BLOCK_SHIFT;
        int i = m & ROW_MASK;
        if (i == 0) {
            if (k == rates.length) {
                queuePairs = Arrays.copyOf(queuePairs, k * 2);
                rates = Arrays.copyOf(rates, k * 2);
                cnps = Arrays.copyOf(cnps, k * 2);
            }
            if (rates[k] == null) { // blocks a spill emptied are reused
                queuePairs[k] = new int[BLOCK_ROWS];
                rates[k] = new long[BLOCK_ROWS];
                cnps[k] = new int[BLOCK_ROWS];
            }
        }
        queuePairs[k][i] = queuePair;
        rates[k][i] = rateBps;
        cnps[k][i] = notifications;
        rows++;
    }

    private void moveToFile() {
        if (spill == null) {
            spill = new RowSpill();
        }
        for (int m = 0; m < rows - spilled; m++) {
            int k = m >>> BLOCK_SHIFT;
            int i = m & ROW_MASK;
            spill.append(queuePairs[k][i], rates[k][i], cnps[k][i]);
        }
        spilled = rows;
    }

    int rows() {
        return rows;
    }

    /** Rows that went to the temporary file. */
    int rowsInFile() {
        return spilled;
    }

    /** Every row in order: its index (for its sample's time) and values. */
    void forEach(Row visitor) throws IOException {
        int[] row = {0};
        if (spill != null) {
            spill.forEach((qp, rate, n) -> visitor.accept(row[0]++, qp, rate, n));
        }
        for (int m = 0; m < rows - spilled; m++) {
            int k = m >>> BLOCK_SHIFT;
            int i = m & ROW_MASK;
            visitor.accept(spilled + m, queuePairs[k][i], rates[k][i], cnps[k][i]);
        }
    }

    /** One row of rates.csv as stored: its index, the QP's index, the rate in bits/s and notifications received. */
    interface Row {
        void accept(int row, int queuePair, long rateBps, int cnps) throws IOException;
    }
}
