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
        return sorted[nearestRank(sorted.length, p)];
    }

    /** The index of the nearest-rank {@code p} percentile in {@code n} sorted values (0 when n is 0). */
    public static int nearestRank(int n, double p) {
        return Math.max(0, Math.min(n - 1, (int) Math.ceil(p / 100.0 * n) - 1));
    }

    /** The nearest-rank {@code p} percentile of sorted values; NaN when there are none. */
    public static double of(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[nearestRank(sorted.length, p)];
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
