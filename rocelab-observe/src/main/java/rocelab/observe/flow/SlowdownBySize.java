package rocelab.observe.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The completed flows' slowdowns by flow size, as the congestion-control literature plots them (HPCC, DCQCN, Swift:
 * median and tail slowdown against flow size): the flows in order of size cut into {@link #BINS} bins of about equal
 * flow counts, each bin's FCT and slowdown quantiles. A size is never split between two bins, so a bin can hold more
 * than its share (the bins after it then share what is left), and a run whose flows all have one size has one bin. Quantiles are nearest rank, as in
 * {@link Percentiles}. Flows whose slowdown is not known (no closed form) are left out.
 *
 * @param bins the bins, smallest sizes first
 */
public record SlowdownBySize(List<Bin> bins) {
    /** How many bins the flows are cut into when there are enough flows: 5 % of the flows each. */
    public static final int BINS = 20;

    /**
     * One bin: its flows, the sizes it spans, and their FCT (picoseconds) and slowdown quantiles.
     */
    public record Bin(int flows, long sizeMinBytes, long sizeMaxBytes, long fctP50Ps, long fctP99Ps,
            double slowdownMean, double slowdownP50, double slowdownP95, double slowdownP99, double slowdownMax) {}

    public SlowdownBySize {
        bins = List.copyOf(bins);
    }

    /** The bins of {@code flows}' completed flows (no bins when none completed). */
    public static SlowdownBySize of(Iterable<FlowRecord> flows) {
        int n = 0;
        for (FlowRecord f : flows) {
            if (counted(f)) {
                n++;
            }
        }
        long[] sizes = new long[n];
        int k = 0;
        for (FlowRecord f : flows) {
            if (counted(f) && k < n) {
                sizes[k++] = f.sizeBytes();
            }
        }
        Arrays.sort(sizes);
        // Each bin's largest size: the size after an equal share of the flows left for the bins left, moved up past
        // every flow of that size. Shares of what is left, not of all: after one size took several bins' worth, the
        // next bins still get their share (fixed 5 % steps left bins of one flow behind such a size).
        long[] upper = new long[Math.min(BINS, n)];
        int bins = 0;
        int from = 0;
        for (int b = 0; b < BINS && from < n; b++) {
            int left = BINS - b;
            int to = from + (int) (((long) n - from + left - 1) / left);
            long top = sizes[to - 1];
            while (to < n && sizes[to] == top) {
                to++;
            }
            upper[bins++] = top;
            from = to;
        }
        int[] count = new int[bins];
        for (long s : sizes) {
            count[bin(upper, bins, s)]++;
        }
        double[][] slow = new double[bins][];
        long[][] fct = new long[bins][];
        long[] min = new long[bins];
        for (int b = 0; b < bins; b++) {
            slow[b] = new double[count[b]];
            fct[b] = new long[count[b]];
            min[b] = Long.MAX_VALUE;
        }
        int[] at = new int[bins];
        for (FlowRecord f : flows) {
            if (!counted(f)) {
                continue;
            }
            int b = bin(upper, bins, f.sizeBytes());
            if (at[b] < count[b]) {
                slow[b][at[b]] = f.slowdown();
                fct[b][at[b]++] = f.fctPs();
                min[b] = Math.min(min[b], f.sizeBytes());
            }
        }
        List<Bin> out = new ArrayList<>(bins);
        for (int b = 0; b < bins; b++) {
            double[] s = slow[b];
            Arrays.sort(s);
            Arrays.sort(fct[b]);
            double sum = 0;
            for (double v : s) {
                sum += v;
            }
            out.add(new Bin(s.length, min[b], upper[b], fct[b][Percentiles.nearestRank(fct[b].length, 50)],
                    fct[b][Percentiles.nearestRank(fct[b].length, 99)],
                    sum / s.length, Percentiles.of(s, 50), Percentiles.of(s, 95), Percentiles.of(s, 99),
                    s[s.length - 1]));
        }
        return new SlowdownBySize(out);
    }

    private static boolean counted(FlowRecord f) {
        return f.completed() && !Double.isNaN(f.slowdown());
    }

    /** The first bin whose largest size is at least {@code size}. */
    private static int bin(long[] upper, int bins, long size) {
        int i = Arrays.binarySearch(upper, 0, bins, size);
        return i >= 0 ? i : Math.min(bins - 1, -i - 1);
    }
}
