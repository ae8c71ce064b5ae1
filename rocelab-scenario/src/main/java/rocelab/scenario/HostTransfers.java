package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.flow.IdealBound;
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
        if (d instanceof IdealBound bound) {
            addPortWork(bound, perHost);
        }
        return perHost;
    }

    /**
     * On the ideal network a message's own interval is its time alone, so messages that share a port overlap there:
     * an AlltoAll's rank showed its sends all moving for the first few hundred microseconds and then nothing of its
     * own moving while its ports' work held the call's end two milliseconds later (idle, "waiting for another rank",
     * where its RNIC was busy with its own bytes). Each port (of each workload item's own copy of the capacities, as
     * the bound has them) is busy at least over the busy periods of serving its transfers one at a time from their
     * releases, in release order: at every instant of such a period the transfers released since it began hold more
     * work than the time since, so one of them is still in progress whatever the order. Those periods are added to
     * the host's own transfer intervals.
     */
    private static void addPortWork(IdealBound bound, List<List<long[]>> perHost) {
        TaskGraph g = bound.graph();
        int n = g.taskCount();
        long[] w = new long[8];
        int count = 0;
        long[] key = new long[64];
        long[] host = new long[64];
        long[] release = new long[64];
        long[] work = new long[64];
        for (int t = 0; t < n; t++) {
            if (!bound.portWork(t, w)) {
                continue;
            }
            for (int side = 0; side < 8; side += 4) {
                if (count == key.length) {
                    key = java.util.Arrays.copyOf(key, 2 * count);
                    host = java.util.Arrays.copyOf(host, 2 * count);
                    release = java.util.Arrays.copyOf(release, 2 * count);
                    work = java.util.Arrays.copyOf(work, 2 * count);
                }
                key[count] = w[side];
                host[count] = w[side + 1];
                release[count] = w[side + 2];
                work[count] = w[side + 3];
                count++;
            }
        }
        int[] order = sortedByKeyAndRelease(key, release, count);
        List<List<long[]>> extra = new ArrayList<>();
        for (int h = 0; h < perHost.size(); h++) {
            extra.add(new ArrayList<>());
        }
        int i = 0;
        while (i < count) {
            int j = i;
            long periodStart = release[order[i]];
            long free = periodStart;
            while (j < count && key[order[j]] == key[order[i]]) {
                int e = order[j];
                if (release[e] > free) {
                    add(extra, (int) host[e], periodStart, free);
                    periodStart = release[e];
                    free = release[e];
                }
                free = rocelab.engine.Saturating.add(free, work[e]);
                j++;
            }
            add(extra, (int) host[order[i]], periodStart, free);
            i = j;
        }
        for (int h = 0; h < perHost.size(); h++) {
            if (extra.get(h).isEmpty()) {
                continue;
            }
            List<long[]> all = new ArrayList<>(perHost.get(h));
            all.addAll(extra.get(h));
            long[] s = new long[all.size()];
            long[] e = new long[all.size()];
            for (int x = 0; x < s.length; x++) {
                s[x] = all.get(x)[0];
                e[x] = all.get(x)[1];
            }
            perHost.set(h, merged(s, e));
        }
    }

    /** The indices 0..count-1 ordered by (key, release): a merge sort of primitives (no boxing per transfer). */
    private static int[] sortedByKeyAndRelease(long[] key, long[] release, int count) {
        int[] a = new int[count];
        int[] b = new int[count];
        for (int i = 0; i < count; i++) {
            a[i] = i;
        }
        for (int width = 1; width < count; width *= 2) {
            for (int lo = 0; lo < count; lo += 2 * width) {
                int mid = Math.min(lo + width, count);
                int hi = Math.min(lo + 2 * width, count);
                int x = lo;
                int y = mid;
                for (int o = lo; o < hi; o++) {
                    boolean left = y >= hi || (x < mid && (key[a[x]] < key[a[y]]
                            || key[a[x]] == key[a[y]] && release[a[x]] <= release[a[y]]));
                    b[o] = left ? a[x++] : a[y++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    private static void add(List<List<long[]>> extra, int host, long from, long to) {
        if (to > from && host < extra.size()) {
            extra.get(host).add(new long[] {from, to});
        }
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
