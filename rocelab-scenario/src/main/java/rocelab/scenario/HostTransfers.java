package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * Per host, the intervals during which one of its transfers (a flow or an NVLink transfer it sends or receives) was in
 * progress in one account of the run (the run's task times or the ideal bound's), from posting until delivered
 * (receiver) or acknowledged (sender), merged: sorted, disjoint, touching ones joined. Only their union is ever used
 * (clipped to an iteration), and a job of thousands of GPUs has tens of millions of transfers, so they are gathered
 * as primitive starts and ends, each host's in its own stretch of two flat arrays, and merged at once, not kept as an
 * object each.
 */
final class HostTransfers {
    private HostTransfers() {}

    /**
     * Where each host's stretch begins in the flat arrays: {@code offsets[h]} to {@code offsets[h + 1]} hold host h's
     * transfers, each transfer counted at its sender and at its receiver. Made from the graph alone, once for both
     * accounts: it counts every transfer, started or not, and an account fills only the ones it started.
     */
    record Layout(int[] offsets) {
        int hosts() {
            return offsets.length - 1;
        }
    }

    /** The layout of the graph's transfers: one pass over its tasks. */
    static Layout layout(TaskGraph g) {
        int n = g.taskCount();
        int[] count = new int[0];
        for (int t = 0; t < n; t++) {
            TaskGraph.Kind k = g.kind(t);
            if (k != TaskGraph.Kind.FLOW && k != TaskGraph.Kind.NVLINK) {
                continue;
            }
            int src;
            int dst;
            if (k == TaskGraph.Kind.FLOW) {
                int f = g.flowIndex(t);
                src = g.flowSource(f);
                dst = g.flowDestination(f);
            } else {
                src = g.owner(t);
                dst = g.nvlinkDestination(t);
            }
            int needed = 1 + Math.max(src, dst);
            if (needed > count.length) {
                count = java.util.Arrays.copyOf(count, Math.max(needed, 2 * count.length));
            }
            count[src]++;
            count[dst]++;
        }
        int hosts = count.length;
        while (hosts > 0 && count[hosts - 1] == 0) {
            hosts--;
        }
        int[] offsets = new int[hosts + 1];
        for (int h = 0; h < hosts; h++) {
            offsets[h + 1] = offsets[h] + count[h];
        }
        return new Layout(offsets);
    }

    /**
     * Each host's merged transfer intervals in {@code d} (a host beyond the list has none): one pass over the tasks
     * into the layout's stretches, then each stretch sorted and merged.
     */
    static List<List<long[]>> of(TaskTimes d, Layout layout) {
        TaskGraph g = d.graph();
        int hosts = layout.hosts();
        int[] offsets = layout.offsets();
        long[] starts = new long[offsets[hosts]];
        long[] ends = new long[offsets[hosts]];
        int[] fill = java.util.Arrays.copyOf(offsets, hosts);
        int n = g.taskCount();
        for (int t = 0; t < n; t++) {
            TaskGraph.Kind k = g.kind(t);
            if (k != TaskGraph.Kind.FLOW && k != TaskGraph.Kind.NVLINK) {
                continue;
            }
            long start = d.taskStartPs(t);
            if (start < 0) {
                continue;
            }
            long end = d.taskEndPs(t);
            int src;
            int dst;
            long sentEnd;
            if (k == TaskGraph.Kind.FLOW) {
                int f = g.flowIndex(t);
                src = g.flowSource(f);
                dst = g.flowDestination(f);
                sentEnd = d.completedPs(f);
            } else {
                src = g.owner(t);
                dst = g.nvlinkDestination(t);
                sentEnd = end;
            }
            starts[fill[src]] = start;
            ends[fill[src]++] = sentEnd < 0 ? Long.MAX_VALUE : sentEnd;
            starts[fill[dst]] = start;
            ends[fill[dst]++] = end < 0 ? Long.MAX_VALUE : end;
        }
        List<List<long[]>> perHost = new ArrayList<>(hosts);
        for (int h = 0; h < hosts; h++) {
            perHost.add(merged(starts, ends, offsets[h], fill[h]));
        }
        return perHost;
    }

    /** {@link #merged(long[], long[], int, int)} of the whole arrays. */
    static List<long[]> merged(long[] starts, long[] ends) {
        return merged(starts, ends, 0, starts.length);
    }

    /**
     * The union of intervals [starts[i], ends[i]] for i in [from, to) (each start at most its end) as sorted,
     * disjoint intervals, those that touch joined; sorts that stretch of both arrays. Starts and ends are sorted
     * apart: the (i+1)-th smallest end lies before the (i+2)-th smallest start exactly when the first i+1 intervals
     * to start have all ended there, which is a gap.
     */
    static List<long[]> merged(long[] starts, long[] ends, int from, int to) {
        java.util.Arrays.sort(starts, from, to);
        java.util.Arrays.sort(ends, from, to);
        int count = 0;
        for (int i = from; i < to; i++) {
            if (i == to - 1 || ends[i] < starts[i + 1]) {
                count++;
            }
        }
        long[] flat = new long[2 * count];
        int k = 0;
        int first = from;
        for (int i = from; i < to; i++) {
            if (i == to - 1 || ends[i] < starts[i + 1]) {
                flat[k++] = starts[first];
                flat[k++] = ends[i];
                first = i + 1;
            }
        }
        return new Intervals(flat);
    }

    /**
     * Intervals held flat ({@code start, end, start, end, ...}), read as a list of {@code {start, end}} made on each
     * read: the merged transfers of a job of thousands of GPUs are tens of millions of intervals, kept for the whole
     * of the outputs, and an array object each cost more than twice their 16 bytes.
     */
    private static final class Intervals extends java.util.AbstractList<long[]> implements java.util.RandomAccess {
        private final long[] flat;

        Intervals(long[] flat) {
            this.flat = flat;
        }

        @Override
        public long[] get(int i) {
            java.util.Objects.checkIndex(i, size());
            return new long[] {flat[2 * i], flat[2 * i + 1]};
        }

        @Override
        public int size() {
            return flat.length / 2;
        }
    }
}
