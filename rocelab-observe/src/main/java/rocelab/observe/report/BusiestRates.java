package rocelab.observe.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * The queue pairs whose rate series the report draws, found in one pass over rates.csv's rows without keeping
 * them: the {@code n} QPs whose rate (in Gb/s as rates.csv rounds it) changed most often between their rows, ties
 * to the QP that appeared first, as {@link TimeCharts} ranks them. A 1,024-host all-to-all has tens of millions of
 * rows, which the report used to copy into memory whole to draw six series.
 */
final class BusiestRates {
    /** Per QP index: whether it is drawn. */
    final boolean[] chosen;
    /** QPs that have at least one row. */
    final int series;

    private BusiestRates(boolean[] chosen, int series) {
        this.chosen = chosen;
        this.series = series;
    }

    static BusiestRates of(TimeSeriesSampler s, int queuePairs, int n) {
        int[] changes = new int[queuePairs];
        double[] last = new double[queuePairs];
        int[] firstSeen = new int[queuePairs];
        Arrays.fill(firstSeen, -1);
        int[] seen = {0};
        try {
            s.forEachRate((timePs, q, rateBps, cnps) -> {
                double gbps = ReportData.gbps(rateBps);
                if (firstSeen[q] < 0) {
                    firstSeen[q] = seen[0]++;
                } else if (gbps != last[q]) {
                    changes[q]++;
                }
                last[q] = gbps;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean[] chosen = new boolean[queuePairs];
        for (int q : busiest(changes, firstSeen, n)) {
            chosen[q] = true;
        }
        return new BusiestRates(chosen, seen[0]);
    }

    /**
     * The (at most) {@code n} QPs that changed, most changes first, ties to the one seen first. Kept in order as the
     * QPs go by (n is a handful): a sorted list of every QP that changed boxed a million of them at 1,024 hosts,
     * beside the run's other records.
     */
    static int[] busiest(int[] changes, int[] firstSeen, int n) {
        int[] best = new int[Math.max(0, n)];
        int kept = 0;
        for (int q = 0; q < changes.length; q++) {
            if (changes[q] == 0) {
                continue;
            }
            int at = kept;
            while (at > 0 && before(q, best[at - 1], changes, firstSeen)) {
                at--;
            }
            if (at == n) {
                continue;
            }
            int end = Math.min(kept, n - 1);
            System.arraycopy(best, at, best, at + 1, end - at);
            best[at] = q;
            kept = Math.min(kept + 1, n);
        }
        return Arrays.copyOf(best, kept);
    }

    /** Whether QP {@code a} comes before {@code b}: more changes, then seen first. */
    private static boolean before(int a, int b, int[] changes, int[] firstSeen) {
        return changes[a] != changes[b] ? changes[a] > changes[b] : firstSeen[a] < firstSeen[b];
    }
}
