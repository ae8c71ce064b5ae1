package rocelab.observe.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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
        List<Integer> order = new ArrayList<>();
        for (int q = 0; q < queuePairs; q++) {
            if (changes[q] > 0) {
                order.add(q);
            }
        }
        order.sort(Comparator.comparingInt((Integer q) -> -changes[q]).thenComparingInt(q -> firstSeen[q]));
        boolean[] chosen = new boolean[queuePairs];
        for (int q : order.subList(0, Math.min(n, order.size()))) {
            chosen[q] = true;
        }
        return new BusiestRates(chosen, seen[0]);
    }
}
