package rocelab.observe.sample;

import java.util.Arrays;

/**
 * The rows of rates.csv: queue pair, rate and congestion notifications received, in primitive blocks of
 * {@value #BLOCK_ROWS} rows (16 bytes a row; the time is kept per sample by {@link SampleTimes}). A 1,024-host
 * all-to-all keeps tens of millions of them, so they are as small as the values allow: a QP index and a count of
 * notifications received fit in an int (a QP would need a notification every microsecond for 35 simulated
 * minutes to pass it; {@link Math#toIntExact} would say so).
 */
final class RateRows {
    private static final int BLOCK_SHIFT = 12;
    static final int BLOCK_ROWS = 1 << BLOCK_SHIFT;
    private static final int ROW_MASK = BLOCK_ROWS - 1;

    private int[][] queuePairs = new int[4][];
    private long[][] rates = new long[4][];
    private int[][] cnps = new int[4][];
    private int rows;

    void add(int queuePair, long rateBps, long cnpsReceived) {
        int k = rows >>> BLOCK_SHIFT;
        int i = rows & ROW_MASK;
        if (i == 0) {
            if (k == rates.length) {
                queuePairs = Arrays.copyOf(queuePairs, k * 2);
                rates = Arrays.copyOf(rates, k * 2);
                cnps = Arrays.copyOf(cnps, k * 2);
            }
            queuePairs[k] = new int[BLOCK_ROWS];
            rates[k] = new long[BLOCK_ROWS];
            cnps[k] = new int[BLOCK_ROWS];
        }
        queuePairs[k][i] = queuePair;
        rates[k][i] = rateBps;
        cnps[k][i] = Math.toIntExact(cnpsReceived);
        rows++;
    }

    int rows() {
        return rows;
    }

    int queuePair(int row) {
        return queuePairs[row >>> BLOCK_SHIFT][row & ROW_MASK];
    }

    long rateBps(int row) {
        return rates[row >>> BLOCK_SHIFT][row & ROW_MASK];
    }

    long cnps(int row) {
        return cnps[row >>> BLOCK_SHIFT][row & ROW_MASK];
    }
}
