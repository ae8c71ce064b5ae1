package rocelab.scenario.perftest;

import java.util.Arrays;
import java.util.List;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.workload.graph.WorkloadDriver;
import rocelab.workload.traffic.PerftestTraffic;

/**
 * perftest over a simulated fabric: one message size of {@code ib_write_bw} or {@code ib_write_lat} between two hosts
 * of the scenario's topology (its own traffic replaced), posted as perftest's loops post ({@link PerftestTraffic}) and
 * reported with perftest's own arithmetic ({@code print_report_bw}, {@code print_report_lat} in its
 * perftest_parameters.c), the times being the simulation's: when each WRITE was posted, when its completion (the
 * ACK) reached the sender, when it landed at the receiver. The host's own time (PCIe, the driver, polling) is not
 * simulated, so the figures are the fabric's and the RNICs'.
 */
public final class Perftest {
    /** perftest drops this many of the largest latency samples before its statistics ({@code LAT_MEASURE_TAIL}). */
    static final int LAT_MEASURE_TAIL = 2;

    private Perftest() {}

    /**
     * One line of the bandwidth table. {@code peakBytesPerSecond} is 0 when the peak was not measured (perftest's
     * {@code --noPeak}, or more than 20,000 iterations); {@code completed} is false when the run ended first.
     */
    public record BandwidthRow(long sizeBytes, long iterations, double peakBytesPerSecond,
            double averageBytesPerSecond, double messagesPerSecond, boolean completed) {}

    /** One line of the latency table, in microseconds as perftest prints them. */
    public record LatencyRow(long sizeBytes, long iterations, double minUs, double maxUs, double typicalUs,
            double averageUs, double stdevUs, double p99Us, double p999Us, boolean completed) {}

    /** Runs {@code test} (a bandwidth test) and reports it as {@code ib_write_bw} does. */
    public static BandwidthRow bandwidth(ScenarioConfig fabric, PerftestTraffic test, boolean peak,
            ProgressListener progress) {
        if (test.latency()) {
            throw new IllegalArgumentException("a latency test");
        }
        WorkloadDriver d = run(fabric, test, progress);
        BandwidthRow mine = side(d, test, 0, peak);
        if (!test.bidirectional() || !mine.completed()) {
            return mine;
        }
        // perftest's print_full_bw_report with the other side's report: each figure the sum of both sides'.
        BandwidthRow theirs = side(d, test, test.queuePairs() * test.iterations(), peak);
        if (!theirs.completed()) {
            return theirs;
        }
        return new BandwidthRow(mine.sizeBytes(), mine.iterations(),
                mine.peakBytesPerSecond() + theirs.peakBytesPerSecond(),
                mine.averageBytesPerSecond() + theirs.averageBytesPerSecond(),
                mine.messagesPerSecond() + theirs.messagesPerSecond(), true);
    }

    /** One side's report, from its flows {@code first} .. {@code first + queuePairs * iterations - 1}. */
    private static BandwidthRow side(WorkloadDriver d, PerftestTraffic test, int first, boolean peak) {
        int iters = test.iterations();
        int n = test.queuePairs() * iters;
        long[] posted = new long[n];
        long[][] signalled = new long[n][];
        int signals = 0;
        for (int q = 0; q < test.queuePairs(); q++) {
            for (int m = 0; m < iters; m++) {
                int i = first + q * iters + m;
                posted[q * iters + m] = d.startedPs(i);
                if (d.completedPs(i) < 0) {
                    return new BandwidthRow(test.sizeBytes(), n, 0, 0, 0, false);
                }
                boolean last = m == iters - 1;
                if ((m + 1) % test.cqMod() == 0 || last) {
                    // A signalled completion tells of its batch: cqMod WRITEs, or what is left at the QP's last.
                    int batch = (m + 1) % test.cqMod() == 0 ? test.cqMod() : (m + 1) % test.cqMod();
                    signalled[signals++] = new long[] {d.completedPs(i), i, batch};
                }
            }
        }
        Arrays.sort(posted);
        long[][] seen = Arrays.copyOf(signalled, signals);
        Arrays.sort(seen, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        // tcompleted[j]: when the completions polled reached j + 1 in all (perftest records it at each poll).
        long[] completed = new long[n];
        Arrays.fill(completed, -1);
        int count = 0;
        for (long[] s : seen) {
            count += (int) s[2];
            completed[count - 1] = s[0];
        }
        double seconds = (completed[n - 1] - posted[0]) / 1e12;
        double bytes = (double) test.sizeBytes() * n;
        double peakRate = 0;
        if (peak && iters <= 20_000) {
            double best = peakInterval(posted, completed, test.cqMod());
            peakRate = best > 0 ? test.sizeBytes() / (best / 1e12) : 0;
        }
        return new BandwidthRow(test.sizeBytes(), n, peakRate, bytes / seconds, n / seconds, true);
    }

    /**
     * perftest's peak: the shortest time per WRITE over any run of WRITEs from the i-th posted to the j-th completed,
     * j at the completions it polled (every cqMod-th, and the last), in picoseconds per WRITE. perftest tries every
     * pair, O(n^2 / cqMod): with a moderation of 1 (its default above 8 KiB) and -q 16, 80,000 WRITEs took 22 s here.
     * The time per WRITE from i to j is the slope from the point (i, posted[i]) to (j + 1, completed[j]), so for each
     * j the best i is where the line from that point touches the upper hull of the points posted so far: the same
     * minimum in O(n log n).
     */
    static double peakInterval(long[] posted, long[] completed, int cqMod) {
        int n = posted.length;
        int[] hull = new int[n];
        int size = 0;
        double best = Double.MAX_VALUE;
        for (int j = 0; j < n; j++) {
            // The upper hull of (i, posted[i]) for i <= j: slopes between its vertices decrease.
            while (size >= 2 && !above(hull[size - 2], hull[size - 1], j, posted)) {
                size--;
            }
            hull[size++] = j;
            boolean polled = (j + 1) % cqMod == 0 || j == n - 1;
            if (!polled || completed[j] < 0) {
                continue;
            }
            // The tangent vertex: the first whose next edge is no steeper than its line to the query point.
            int lo = 0;
            int hi = size - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (edge(hull[mid], hull[mid + 1], posted) <= slope(hull[mid], j, posted, completed)) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            // Its neighbours too, against rounding in the comparisons.
            for (int k = Math.max(0, lo - 1); k <= Math.min(size - 1, lo + 1); k++) {
                best = Math.min(best, slope(hull[k], j, posted, completed));
            }
        }
        return best;
    }

    /** Whether b lies strictly above the segment from a to c (so b stays a vertex of the upper hull). */
    private static boolean above(int a, int b, int c, long[] posted) {
        return (double) (c - a) * (posted[b] - posted[a]) > (double) (b - a) * (posted[c] - posted[a]);
    }

    private static double edge(int a, int b, long[] posted) {
        return (double) (posted[b] - posted[a]) / (b - a);
    }

    /** Picoseconds per WRITE from WRITE i's post to the j-th completion. */
    private static double slope(int i, int j, long[] posted, long[] completed) {
        return (double) (completed[j] - posted[i]) / (j - i + 1);
    }

    /** Runs {@code test} (a latency test) and reports it as {@code ib_write_lat} does. */
    public static LatencyRow latency(ScenarioConfig fabric, PerftestTraffic test, ProgressListener progress) {
        if (!test.latency()) {
            throw new IllegalArgumentException("a bandwidth test");
        }
        WorkloadDriver d = run(fabric, test, progress);
        int iters = test.iterations();
        long[] posted = new long[iters];
        for (int k = 0; k < iters; k++) {
            // The client's WRITEs are the even flows; its last must have landed and been answered too.
            posted[k] = d.startedPs(2 * k);
        }
        if (d.deliveredPs(2 * iters - 1) < 0 || d.completedPs(2 * iters - 2) < 0) {
            return new LatencyRow(test.sizeBytes(), iters, 0, 0, 0, 0, 0, 0, 0, false);
        }
        return latencyRow(test.sizeBytes(), posted);
    }

    /**
     * perftest's statistics of a ping-pong from the client's post times: the intervals between posts are round
     * trips, halved; sorted, the largest {@link #LAT_MEASURE_TAIL} dropped; the median as its {@code get_median}
     * takes it; the standard deviation as it computes it, each deviation truncated to whole microseconds before it
     * is squared (so sub-microsecond spreads read 0.00, as on a real run).
     */
    static LatencyRow latencyRow(long size, long[] posted) {
        int iters = posted.length;
        int measured = iters - 1;
        long[] delta = new long[measured];
        for (int i = 0; i < measured; i++) {
            delta[i] = posted[i + 1] - posted[i];
        }
        Arrays.sort(delta);
        measured -= LAT_MEASURE_TAIL;
        double quotient = 2e6; // picoseconds of a round trip per microsecond of latency
        long median = (measured - 1) % 2 != 0 ? (delta[measured / 2] + delta[measured / 2 - 1]) / 2
                : delta[measured / 2];
        double sum = 0;
        for (int i = 0; i < measured; i++) {
            sum += delta[i] / quotient;
        }
        double average = sum / measured;
        double squares = 0;
        for (int i = 0; i < measured; i++) {
            int deviation = (int) (average - delta[i] / quotient);
            squares += (double) deviation * deviation;
        }
        int at99 = (int) Math.ceil(measured * 0.99);
        int at999 = (int) Math.ceil(measured * 0.999);
        return new LatencyRow(size, iters, delta[0] / quotient, delta[measured] / quotient, median / quotient,
                average, Math.sqrt(squares / measured), delta[at99] / quotient, delta[at999] / quotient, true);
    }

    private static WorkloadDriver run(ScenarioConfig fabric, PerftestTraffic test, ProgressListener progress) {
        Simulation sim = Simulation.assemble(fabric.withTraffic(List.of(test)));
        sim.run(progress);
        return sim.driver();
    }
}
