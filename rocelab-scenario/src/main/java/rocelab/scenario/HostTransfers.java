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
            int src = g.transferSource(t);
            int dst = g.transferDestination(t);
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
            int src = g.transferSource(t);
            int dst = g.transferDestination(t);
            long sentEnd = k == TaskGraph.Kind.FLOW ? d.completedPs(g.flowIndex(t)) : end;
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
        // Pass 1: how many transfers each port serves (ports are numbered densely: each item's copy of 4 per host).
        int[] count = new int[64];
        int entries = 0;
        for (int t = 0; t < n; t++) {
            if (!bound.portWork(t, w)) {
                continue;
            }
            for (int side = 0; side < 8; side += 4) {
                long key = w[side];
                if (key >= MAX_PORTS) {
                    throw new IllegalStateException("more ports than the ideal account's busy periods can count: " + key);
                }
                if (key >= count.length) {
                    count = java.util.Arrays.copyOf(count, (int) Math.max(key + 1, Math.min(MAX_PORTS, 2L * count.length)));
                }
                count[(int) key]++;
                entries++;
            }
        }
        int ports = count.length;
        int[] first = new int[ports + 1];
        int widest = 0;
        for (int k = 0; k < ports; k++) {
            first[k + 1] = first[k] + count[k];
            widest = Math.max(widest, count[k]);
        }
        // Pass 2: each port's releases and works side by side, in its own stretch (a counting sort by port).
        long[] release = new long[entries];
        long[] work = new long[entries];
        int[] hostOf = new int[ports];
        int[] at = java.util.Arrays.copyOf(first, ports);
        for (int t = 0; t < n; t++) {
            if (!bound.portWork(t, w)) {
                continue;
            }
            for (int side = 0; side < 8; side += 4) {
                int k = (int) w[side];
                hostOf[k] = (int) w[side + 1];
                release[at[k]] = w[side + 2];
                work[at[k]++] = w[side + 3];
            }
        }
        // Each port's stretch in release order, then its busy periods, per host.
        long[] tmpRelease = new long[widest];
        long[] tmpWork = new long[widest];
        Periods periods = new Periods(perHost.size());
        for (int k = 0; k < ports; k++) {
            int lo = first[k];
            int hi = first[k + 1];
            if (lo == hi) {
                continue;
            }
            sortByRelease(release, work, lo, hi, tmpRelease, tmpWork);
            int host = hostOf[k];
            long periodStart = release[lo];
            long free = periodStart;
            for (int e = lo; e < hi; e++) {
                if (release[e] > free) {
                    periods.add(host, periodStart, free);
                    periodStart = release[e];
                    free = release[e];
                }
                free = rocelab.engine.Saturating.add(free, work[e]);
            }
            periods.add(host, periodStart, free);
        }
        for (int h = 0; h < perHost.size(); h++) {
            int extra = periods.count(h);
            if (extra == 0) {
                continue;
            }
            List<long[]> own = perHost.get(h);
            long[] s = new long[own.size() + extra];
            long[] e = new long[s.length];
            for (int x = 0; x < own.size(); x++) {
                long[] iv = own.get(x);
                s[x] = iv[0];
                e[x] = iv[1];
            }
            periods.copy(h, s, e, own.size());
            perHost.set(h, merged(s, e));
        }
    }

    /** Port keys beyond this are refused: the counting sort's array of them would outgrow the heap (256 MB). */
    private static final long MAX_PORTS = 1L << 26;

    /**
     * Sorts {@code release[lo, hi)} ascending, {@code work} moved alongside: a bottom-up merge sort of the two arrays
     * side by side (no index arrays, no boxing), through the scratch arrays.
     */
    static void sortByRelease(long[] release, long[] work, int lo, int hi, long[] tmpRelease, long[] tmpWork) {
        int n = hi - lo;
        // A port's transfers come in the graph's order, mostly their release order already: nothing to move then.
        int i = lo + 1;
        while (i < hi && release[i - 1] <= release[i]) {
            i++;
        }
        if (i >= hi) {
            return;
        }
        long[] srcR = release;
        long[] srcW = work;
        long[] dstR = tmpRelease;
        long[] dstW = tmpWork;
        int srcOff = lo;
        int dstOff = 0;
        for (int width = 1; width < n; width *= 2) {
            for (int a = 0; a < n; a += 2 * width) {
                int mid = Math.min(a + width, n);
                int end = Math.min(a + 2 * width, n);
                int x = a;
                int y = mid;
                if (mid < end && srcR[srcOff + mid - 1] <= srcR[srcOff + mid] || mid >= end) {
                    // Already in order (or a lone run): moved as it is.
                    System.arraycopy(srcR, srcOff + a, dstR, dstOff + a, end - a);
                    System.arraycopy(srcW, srcOff + a, dstW, dstOff + a, end - a);
                    continue;
                }
                for (int o = a; o < end; o++) {
                    if (y >= end || x < mid && srcR[srcOff + x] <= srcR[srcOff + y]) {
                        dstR[dstOff + o] = srcR[srcOff + x];
                        dstW[dstOff + o] = srcW[srcOff + x++];
                    } else {
                        dstR[dstOff + o] = srcR[srcOff + y];
                        dstW[dstOff + o] = srcW[srcOff + y++];
                    }
                }
            }
            long[] r = srcR;
            srcR = dstR;
            dstR = r;
            long[] q = srcW;
            srcW = dstW;
            dstW = q;
            int off = srcOff;
            srcOff = dstOff;
            dstOff = off;
        }
        if (srcR != release) {
            System.arraycopy(srcR, srcOff, release, lo, n);
            System.arraycopy(srcW, srcOff, work, lo, n);
        }
    }

    /** Busy periods per host, as primitives: a host's in a chain of its own through one pair of growing arrays. */
    private static final class Periods {
        private long[] start = new long[64];
        private long[] end = new long[64];
        private int[] next = new int[64];
        private final int[] head;
        private final int[] count;
        private int size;

        Periods(int hosts) {
            head = new int[hosts];
            count = new int[hosts];
            java.util.Arrays.fill(head, -1);
        }

        void add(int host, long from, long to) {
            if (to <= from || host < 0 || host >= head.length) {
                return;
            }
            if (size == start.length) {
                start = java.util.Arrays.copyOf(start, 2 * size);
                end = java.util.Arrays.copyOf(end, 2 * size);
                next = java.util.Arrays.copyOf(next, 2 * size);
            }
            start[size] = from;
            end[size] = to;
            next[size] = head[host];
            head[host] = size++;
            count[host]++;
        }

        int count(int host) {
            return count[host];
        }

        /** Host {@code host}'s periods into {@code s} and {@code e} from index {@code at}, in no particular order. */
        void copy(int host, long[] s, long[] e, int at) {
            for (int i = head[host]; i >= 0; i = next[i]) {
                s[at] = start[i];
                e[at++] = end[i];
            }
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
