package rocelab.observe.flow;

import java.util.Arrays;

/**
 * The flows of a run aggregated instead of listed (flows_aggregated.csv, see docs/outputs.md): all of them, and one
 * {@link FlowAggregate} per message size (a collective's messages come in a few sizes). Sizes beyond
 * {@link #MAX_SIZES} distinct ones share one row ({@code size_bytes} empty: "other sizes"). Looking a size up is a
 * probe in a small open-addressed table: nothing is allocated or boxed per flow.
 */
public final class FlowsBySize {
    public static final int MAX_SIZES = 256;

    private final FlowAggregate all = new FlowAggregate();
    private final long[] keys = new long[2 * MAX_SIZES];
    private final FlowAggregate[] bySize = new FlowAggregate[2 * MAX_SIZES];
    private int sizes;
    private FlowAggregate other;

    public FlowsBySize() {
        Arrays.fill(keys, -1);
    }

    private FlowAggregate of(long sizeBytes) {
        int mask = keys.length - 1;
        int i = (int) ((sizeBytes * 0x9E3779B97F4A7C15L) >>> 55) & mask;
        while (keys[i] != -1) {
            if (keys[i] == sizeBytes) {
                return bySize[i];
            }
            i = (i + 1) & mask;
        }
        if (sizes == MAX_SIZES) {
            if (other == null) {
                other = new FlowAggregate();
            }
            return other;
        }
        sizes++;
        keys[i] = sizeBytes;
        bySize[i] = new FlowAggregate();
        return bySize[i];
    }

    /** A completed flow (see {@link FlowAggregate#completed}). */
    public void completed(long sizeBytes, long startPs, long finishPs, long idealFctPs) {
        all.completed(sizeBytes, startPs, finishPs, idealFctPs);
        of(sizeBytes).completed(sizeBytes, startPs, finishPs, idealFctPs);
    }

    /** A flow that failed or never finished. */
    public void unfinished(long sizeBytes, boolean failed) {
        all.unfinished(sizeBytes, failed);
        of(sizeBytes).unfinished(sizeBytes, failed);
    }

    /** Every flow. */
    public FlowAggregate all() {
        return all;
    }

    /** The distinct sizes, ascending. */
    public long[] sizes() {
        long[] out = new long[sizes];
        int k = 0;
        for (long key : keys) {
            if (key != -1) {
                out[k++] = key;
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** The flows of one size (one of {@link #sizes}). */
    public FlowAggregate ofSize(long sizeBytes) {
        int mask = keys.length - 1;
        int i = (int) ((sizeBytes * 0x9E3779B97F4A7C15L) >>> 55) & mask;
        while (keys[i] != -1) {
            if (keys[i] == sizeBytes) {
                return bySize[i];
            }
            i = (i + 1) & mask;
        }
        throw new IllegalArgumentException("no flows of " + sizeBytes + " bytes");
    }

    /** The flows of the sizes beyond {@link #MAX_SIZES}, or null when there were not that many. */
    public FlowAggregate otherSizes() {
        return other;
    }
}
