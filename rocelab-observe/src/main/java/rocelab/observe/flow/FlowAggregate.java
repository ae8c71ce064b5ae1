package rocelab.observe.flow;

import java.util.Arrays;

/**
 * What is reported about the flows of a run too large for a row per flow (a streamed run: see docs/outputs.md,
 * {@code flows: aggregated}): counts, bytes, the first post and last completion, and the FCT and slowdown
 * distributions as log histograms. A quantile is the lower edge of the bucket holding it, clamped to the exact
 * minimum and maximum: at most 1/128 (0.8 %) below the true value, never above it. Adding a flow allocates nothing.
 */
public final class FlowAggregate {
    /** Mantissa bits kept per power of two: 128 buckets per octave. */
    private static final int SUB = 7;

    private long count;
    private long completed;
    private long failed;
    private long bytes;
    private long firstStartPs = Long.MAX_VALUE;
    private long lastFinishPs = -1;
    private long fctSumPs;
    private long fctMinPs = Long.MAX_VALUE;
    private long fctMaxPs = -1;
    private final long[] fct = new long[64 << SUB];
    /** Slowdown x 1,000,000, so the same histogram serves it. */
    private final long[] slowdown = new long[64 << SUB];
    private long slowdownMin = Long.MAX_VALUE;
    private long slowdownMax = -1;

    /** A completed flow: posted at {@code startPs}, acknowledged at {@code finishPs}, its time alone {@code idealFctPs}. */
    public void completed(long sizeBytes, long startPs, long finishPs, long idealFctPs) {
        count++;
        completed++;
        bytes += sizeBytes;
        firstStartPs = Math.min(firstStartPs, startPs);
        lastFinishPs = Math.max(lastFinishPs, finishPs);
        long f = finishPs - startPs;
        fctSumPs += f;
        fctMinPs = Math.min(fctMinPs, f);
        fctMaxPs = Math.max(fctMaxPs, f);
        fct[bucket(f)]++;
        long s = idealFctPs > 0 ? Math.round(1e6 * f / (double) idealFctPs) : 0;
        slowdown[bucket(s)]++;
        slowdownMin = Math.min(slowdownMin, s);
        slowdownMax = Math.max(slowdownMax, s);
    }

    /** A flow that failed or never finished. */
    public void unfinished(long sizeBytes, boolean hasFailed) {
        count++;
        failed += hasFailed ? 1 : 0;
    }

    static int bucket(long v) {
        if (v < (1L << SUB)) {
            return (int) Math.max(0, v);
        }
        int exp = 63 - Long.numberOfLeadingZeros(v);
        int shift = exp - SUB;
        return ((shift + 1) << SUB) + (int) ((v >>> shift) & ((1L << SUB) - 1));
    }

    /** The lower edge of bucket b. */
    static long lowerEdge(int b) {
        if (b < (1 << SUB) * 1) {
            return b;
        }
        int shift = (b >>> SUB) - 1;
        long mantissa = (1L << SUB) | (b & ((1 << SUB) - 1));
        return mantissa << shift;
    }

    private static long quantile(long[] histogram, long n, double q, long min, long max) {
        if (n == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long seen = 0;
        for (int b = 0; b < histogram.length; b++) {
            seen += histogram[b];
            if (seen >= rank) {
                return Math.min(max, Math.max(min, lowerEdge(b)));
            }
        }
        return max;
    }

    public long count() {
        return count;
    }

    public long completedCount() {
        return completed;
    }

    public long failedCount() {
        return failed;
    }

    public long unfinishedCount() {
        return count - completed - failed;
    }

    public long bytesCompleted() {
        return bytes;
    }

    public long firstStartPs() {
        return completed == 0 ? -1 : firstStartPs;
    }

    public long lastFinishPs() {
        return lastFinishPs;
    }

    public long fctMinPs() {
        return completed == 0 ? -1 : fctMinPs;
    }

    public long fctMaxPs() {
        return fctMaxPs;
    }

    public double fctMeanPs() {
        return completed == 0 ? -1 : fctSumPs / (double) completed;
    }

    /** The FCT quantile {@code q} (0..1) in ps, at most 0.8 % low. */
    public long fctQuantilePs(double q) {
        return quantile(fct, completed, q, fctMinPs, fctMaxPs);
    }

    /** The slowdown quantile {@code q} (FCT over the flow's time alone), at most 0.8 % low. */
    public double slowdownQuantile(double q) {
        return quantile(slowdown, completed, q, slowdownMin, slowdownMax) / 1e6;
    }

    public double slowdownMax() {
        return slowdownMax / 1e6;
    }

    @Override
    public String toString() {
        return "FlowAggregate" + Arrays.toString(new long[] {count, completed, failed, bytes});
    }
}
