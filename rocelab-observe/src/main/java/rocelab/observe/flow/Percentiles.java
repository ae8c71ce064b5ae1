package rocelab.observe.flow;

import java.util.Arrays;

/** Exact percentiles (nearest rank) of a set of values, as reported in summaries. */
public final class Percentiles {
    private final long[] sorted;

    public Percentiles(long[] values) {
        this.sorted = values.clone();
        Arrays.sort(sorted);
    }

    public int count() {
        return sorted.length;
    }

    /** The smallest value with at least {@code p} percent of the values at or below it; -1 when empty. */
    public long percentile(double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public long min() {
        return sorted.length == 0 ? -1 : sorted[0];
    }

    public long max() {
        return sorted.length == 0 ? -1 : sorted[sorted.length - 1];
    }

    public double mean() {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double s = 0;
        for (long v : sorted) {
            s += v;
        }
        return s / sorted.length;
    }
}
