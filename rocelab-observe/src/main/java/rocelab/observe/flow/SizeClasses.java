package rocelab.observe.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The completed flows' slowdowns in three fixed size classes, the ones pFabric and the studies after it report short
 * and long flows by: up to 100 KB, above 100 KB to 10 MB, above 10 MB (decimal units). Unlike the bins of
 * {@link SlowdownBySize}, which follow each run's flows, the classes are the same in every run, so a sweep can put
 * one class's tail next to another run's (summary.json {@code flows.slowdown_by_size}).
 */
public final class SizeClasses {
    /**
     * One class: its name (a summary.json key), its sizes ({@code aboveBytes} exclusive, {@code upToBytes} inclusive),
     * the completed flows its quantiles are of, and the flows of its sizes that did not complete (failed, or
     * unfinished when the run stopped): not in its quantiles, though often its slowest.
     */
    public record SizeClass(String name, String label, long aboveBytes, long upToBytes, int flows, double p50,
            double p95, double p99, int notCompleted) {}

    private static final String[] NAMES = {"up_to_100kb", "100kb_to_10mb", "above_10mb"};
    private static final String[] LABELS = {"<= 100 kB", "100 kB - 10 MB", "> 10 MB"};
    private static final long[] BOUNDS = {0, 100_000, 10_000_000, Long.MAX_VALUE};

    private SizeClasses() {}

    /**
     * The three classes of {@code flows}' completed flows with a slowdown, or an empty list when those flows have one
     * size only (or none): a class then says nothing the run's overall slowdown does not.
     */
    public static List<SizeClass> of(Iterable<FlowRecord> flows) {
        int[] count = new int[NAMES.length];
        int[] notCompleted = new int[NAMES.length];
        long firstSize = -1;
        boolean sizes = false;
        for (FlowRecord f : flows) {
            if (!f.completed()) {
                notCompleted[of(f.sizeBytes())]++;
            }
            if (counted(f)) {
                count[of(f.sizeBytes())]++;
                firstSize = firstSize < 0 ? f.sizeBytes() : firstSize;
                sizes |= f.sizeBytes() != firstSize;
            }
        }
        if (!sizes) {
            return List.of();
        }
        double[][] slow = new double[NAMES.length][];
        for (int c = 0; c < NAMES.length; c++) {
            slow[c] = new double[count[c]];
        }
        int[] at = new int[NAMES.length];
        for (FlowRecord f : flows) {
            if (counted(f)) {
                int c = of(f.sizeBytes());
                if (at[c] < count[c]) {
                    slow[c][at[c]++] = f.slowdown();
                }
            }
        }
        List<SizeClass> out = new ArrayList<>(NAMES.length);
        for (int c = 0; c < NAMES.length; c++) {
            double[] s = slow[c];
            Arrays.sort(s);
            out.add(new SizeClass(NAMES[c], LABELS[c], BOUNDS[c], BOUNDS[c + 1], s.length, Percentiles.of(s, 50),
                    Percentiles.of(s, 95), Percentiles.of(s, 99), notCompleted[c]));
        }
        return out;
    }

    private static boolean counted(FlowRecord f) {
        return f.completed() && !Double.isNaN(f.slowdown());
    }

    private static int of(long size) {
        return size <= BOUNDS[1] ? 0 : size <= BOUNDS[2] ? 1 : 2;
    }
}
