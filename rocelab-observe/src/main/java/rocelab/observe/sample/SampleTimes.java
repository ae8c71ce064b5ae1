package rocelab.observe.sample;

import java.util.Arrays;

/**
 * The time of each row of a sampled table, kept once per sample instead of once per row: every row a sample adds
 * has that sample's time (a 1,024-host all-to-all adds tens of millions of rate rows over a few thousand samples).
 */
final class SampleTimes {
    /** Room for the first 1,024 samples (10 ms at the default interval) from the start, as the rows' blocks. */
    private long[] times = new long[1024];
    /** The first row of each sample. */
    private int[] firstRows = new int[1024];
    private int samples;
    /** The sample {@link #timeOfRow} found last (rows are read in order), on whichever thread. */
    private int hint;

    /** Rows added from now on, until the next call, are at {@code timePs}; {@code rows} rows exist so far. */
    void startSample(long timePs, int rows) {
        if (samples > 0 && firstRows[samples - 1] == rows) {
            times[samples - 1] = timePs; // the previous sample added no row
            return;
        }
        if (samples == times.length) {
            times = Arrays.copyOf(times, samples * 2);
            firstRows = Arrays.copyOf(firstRows, samples * 2);
        }
        times[samples] = timePs;
        firstRows[samples] = rows;
        samples++;
    }

    /**
     * The time of row {@code row}. Safe on several threads at once (queues.csv and the report read the same rows
     * side by side): the shared hint is only where the search starts, and checked before it is used. It was read
     * again after being set, so another reader's sample could come back in between: a row of queues.csv came out,
     * now and then, at another sample's time.
     */
    long timeOfRow(int row) {
        int s = sampleOf(row, hint);
        hint = s;
        return times[s];
    }

    /**
     * A reader of the rows' times in order with a hint of its own, for readers on several threads at once (rates.csv
     * and the report's busiest rates read the same rows side by side).
     */
    Cursor cursor() {
        return new Cursor();
    }

    final class Cursor {
        private int hint;

        long timeOfRow(int row) {
            hint = sampleOf(row, hint);
            return times[hint];
        }
    }

    /** The last sample that starts at or before {@code row}, looked for from sample {@code s} first. */
    private int sampleOf(int row, int s) {
        if (s >= samples || firstRows[s] > row || s + 1 < samples && firstRows[s + 1] <= row) {
            int lo = 0;
            int hi = samples - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (firstRows[mid] <= row) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }
        return s;
    }
}
