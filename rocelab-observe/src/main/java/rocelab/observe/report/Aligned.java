package rocelab.observe.report;

import java.util.Arrays;
import java.util.List;

/**
 * Step series on one shared x axis, as uPlot wants them: the union of the series' sample times (every series holds
 * its last value until its next sample), or, when that would be too many points, fixed-width buckets that keep each
 * series' highest value (so peaks survive thinning).
 */
final class Aligned {
    /** Up to this many distinct times are kept as they are. */
    static final int MAX_RAW = 6000;
    static final int BUCKETS = 3000;

    final double[] x;
    final double[][] y;

    private Aligned(double[] x, double[][] y) {
        this.x = x;
        this.y = y;
    }

    /**
     * @param times each series' sample times, ascending
     * @param values each series' values at those times
     * @param before the value before a series' first sample (NaN: none)
     */
    static Aligned of(List<double[]> times, List<double[]> values, double before, double xMin, double xMax) {
        return of(times, values, null, before, xMin, xMax);
    }

    /**
     * As {@link #of(List, List, double, double, double)}; a series whose {@code points} flag is set is a set of
     * points, not a step line: it has values only at its own sample times (or in the buckets that hold them).
     */
    static Aligned of(List<double[]> times, List<double[]> values, boolean[] points, double before, double xMin,
            double xMax) {
        int total = 0;
        for (double[] t : times) {
            total += t.length;
        }
        double[] all = new double[total + 2];
        int n = 0;
        for (double[] t : times) {
            System.arraycopy(t, 0, all, n, t.length);
            n += t.length;
        }
        all[n++] = xMin;
        all[n++] = xMax;
        Arrays.sort(all, 0, n);
        int u = 0;
        for (int i = 0; i < n; i++) {
            if (u == 0 || all[i] != all[u - 1]) {
                all[u++] = all[i];
            }
        }
        double[] x;
        boolean bucketed = u > MAX_RAW;
        if (!bucketed) {
            x = Arrays.copyOf(all, u);
        } else {
            x = new double[BUCKETS + 1];
            for (int b = 0; b <= BUCKETS; b++) {
                x[b] = xMin + (xMax - xMin) * b / BUCKETS;
            }
        }
        double[][] y = new double[times.size()][];
        for (int s = 0; s < times.size(); s++) {
            double[] t = times.get(s);
            double[] v = values.get(s);
            double[] out = new double[x.length];
            int j = 0;
            boolean isPoints = points != null && points[s];
            double held = isPoints ? Double.NaN : before;
            for (int i = 0; i < x.length; i++) {
                if (!bucketed) {
                    double at = Double.NaN;
                    while (j < t.length && t[j] <= x[i]) {
                        held = v[j++];
                        at = held;
                    }
                    out[i] = isPoints ? at : held;
                } else {
                    // Bucket i covers [x[i], x[i+1]): the value held entering it and every sample inside it.
                    double hi = i + 1 < x.length ? x[i + 1] : Double.MAX_VALUE;
                    double peak = isPoints ? Double.NaN : held;
                    while (j < t.length && t[j] < hi) {
                        held = v[j++];
                        peak = Double.isNaN(peak) ? held : Math.max(peak, held);
                    }
                    out[i] = peak;
                }
            }
            y[s] = out;
        }
        return new Aligned(x, y);
    }
}
