package rocelab.scenario;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import rocelab.engine.Saturating;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * Per host, the intervals during which one of its transfers (a flow or an NVLink transfer it sends or receives) was in
 * progress in one account of the run (the run's task times or the ideal bound's), from posting until delivered
 * (receiver) or acknowledged (sender), merged: sorted, disjoint, touching ones joined. The transfers are those of one
 * range of tasks: a job's own (its workload item's tasks, as {@link BesideIndex.Part} has them), so another item's
 * flows on the same RNIC (background traffic, another job) are not its GPUs' communication. Only their union is ever
 * used (clipped to an iteration), and a job of thousands of GPUs has tens of millions of transfers, so they are
 * gathered as primitive starts and ends, each host's in its own stretch of two flat arrays, and merged at once, not
 * kept as an object each.
 */
final class HostTransfers {
    private HostTransfers() {}

    /**
     * Where each host's stretch begins in the flat arrays: {@code offsets[h]} to {@code offsets[h + 1]} hold host h's
     * transfers among tasks {@code [firstTask, endTask)}, each transfer counted at its sender and at its receiver.
     * Made from the graph alone, once for both accounts: it counts every transfer of the range, started or not, and an
     * account fills only the ones it started.
     */
    record Layout(int[] offsets, int firstTask, int endTask) {
        int hosts() {
            return offsets.length - 1;
        }
    }

    /** The layout of all the graph's transfers: one pass over its tasks. */
    static Layout layout(TaskGraph g) {
        return layout(g, 0, g.taskCount());
    }

    /** The layout of the transfers among tasks {@code [firstTask, endTask)} (one workload item's): one pass. */
    static Layout layout(TaskGraph g, int firstTask, int endTask) {
        int[] count = new int[0];
        for (int t = firstTask; t < endTask; t++) {
            TaskGraph.Kind k = g.kind(t);
            if (k != TaskGraph.Kind.FLOW && k != TaskGraph.Kind.NVLINK) {
                continue;
            }
            int src = g.transferSource(t);
            int dst = g.transferDestination(t);
            int needed = 1 + Math.max(src, dst);
            if (needed > count.length) {
                count = Arrays.copyOf(count, Math.max(needed, 2 * count.length));
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
        return new Layout(offsets, firstTask, endTask);
    }

    /**
     * Each host's merged transfer intervals in {@code d} (a host beyond the list has none): one pass over the tasks
     * into the layout's stretches, then each stretch sorted and merged. In the ideal bound's account each host's
     * ports' busy periods join them ({@link #portPeriods}); they read only the bound's finished times, so a large
     * ideal account makes them on a thread of its own beside the pass, and merges its hosts in two halves side by
     * side (the 4,096-GPU Megatron iteration's ideal account took 8 s on one thread while main only waited for it).
     */
    static List<List<long[]>> of(TaskTimes d, Layout layout) {
        return of(d, layout, PARALLEL_FROM);
    }

    /** {@link #of(TaskTimes, Layout)}, on two threads from {@code parallelFrom} transfer ends (tests: any). */
    static List<List<long[]>> of(TaskTimes d, Layout layout, int parallelFrom) {
        int hosts = layout.hosts();
        int[] offsets = layout.offsets();
        IdealBound bound = d instanceof IdealBound b ? b : null;
        // Only the ideal account: the run's is made while the bound still takes the second core.
        boolean parallel = bound != null && offsets[hosts] >= parallelFrom;
        Aside<Periods> ports = !parallel ? null
                : new Aside<>("rocelab-ideal-ports", () -> portPeriods(bound, layout, true));
        long[] starts = new long[offsets[hosts]];
        long[] ends = new long[offsets[hosts]];
        int[] fill = gather(d, layout, starts, ends);
        Periods periods = ports != null ? ports.join() : bound != null ? portPeriods(bound, layout, false) : null;
        @SuppressWarnings("unchecked")
        List<long[]>[] perHost = new List[hosts];
        // Two halves of about as many intervals each when the account is large; one otherwise.
        int half = parallel ? halfway(offsets) : hosts;
        Aside<Void> upper = half < hosts ? new Aside<>("rocelab-host-transfers", () -> {
            mergeHosts(half, hosts, offsets, fill, starts, ends, periods, perHost);
            return null;
        }) : null;
        mergeHosts(0, half, offsets, fill, starts, ends, periods, perHost);
        if (upper != null) {
            upper.join();
        }
        return Arrays.asList(perHost);
    }

    /** Ideal accounts with at least this many transfer ends use a second thread ({@link #of}). */
    static final int PARALLEL_FROM = 1 << 16;

    /** The first host of the second half: the hosts before it hold about half of all the intervals. */
    private static int halfway(int[] offsets) {
        int hosts = offsets.length - 1;
        int h = 0;
        while (h < hosts && offsets[h + 1] <= offsets[hosts] / 2) {
            h++;
        }
        return h;
    }

    /**
     * Every started transfer of the layout's range in {@code d} at its sender (posting to acknowledgement) and its
     * receiver (posting to delivery), into the hosts' stretches of {@code starts} and {@code ends}; returns where each
     * stretch's filled part ends.
     */
    private static int[] gather(TaskTimes d, Layout layout, long[] starts, long[] ends) {
        TaskGraph g = d.graph();
        int[] offsets = layout.offsets();
        int[] fill = Arrays.copyOf(offsets, offsets.length - 1);
        for (int t = layout.firstTask(); t < layout.endTask(); t++) {
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
        return fill;
    }

    /**
     * Hosts {@code [from, to)}: each one's own intervals and its ports' busy periods (if any) merged into
     * {@code perHost[h]}. A host's stretch is sorted in place when it has no periods; otherwise both are copied into
     * arrays of its own and merged at once (the union of the own intervals and the periods, in one sort).
     */
    private static void mergeHosts(int from, int to, int[] offsets, int[] fill, long[] starts, long[] ends,
            Periods periods, List<long[]>[] perHost) {
        for (int h = from; h < to; h++) {
            int extra = periods == null ? 0 : periods.count(h);
            if (extra == 0) {
                perHost[h] = merged(starts, ends, offsets[h], fill[h]);
                continue;
            }
            int own = fill[h] - offsets[h];
            long[] s = new long[own + extra];
            long[] e = new long[s.length];
            System.arraycopy(starts, offsets[h], s, 0, own);
            System.arraycopy(ends, offsets[h], e, 0, own);
            periods.copy(h, s, e, own);
            perHost[h] = merged(s, e);
        }
    }

    /**
     * On the ideal network a message's own interval is its time alone, so messages that share a port overlap there:
     * an AlltoAll's rank showed its sends all moving for the first few hundred microseconds and then nothing of its
     * own moving while its ports' work held the call's end two milliseconds later (idle, "waiting for another rank",
     * where its RNIC was busy with its own bytes). Each port (of each workload item's own copy of the capacities, as
     * the bound has them) is busy at least over the busy periods of serving its transfers one at a time from their
     * releases, in release order: at every instant of such a period the transfers released since it began hold more
     * work than the time since, so one of them is still in progress whatever the order. Those periods, per host of
     * the layout, are added to the host's own transfer intervals. Only the layout's range of tasks is served: a job's
     * ports are its own copy, so its busy periods are of its own transfers.
     */
    private static Periods portPeriods(IdealBound bound, Layout layout, boolean parallel) {
        int hosts = layout.hosts();
        int firstTask = layout.firstTask();
        int n = layout.endTask();
        // On two threads the tasks are split in halves; each port's entries are placed lower half first, so every
        // port's stretch is the same as one thread's.
        int mid = parallel ? firstTask + (n - firstTask) / 2 : n;
        // Pass 1: how many transfers each port serves (ports are numbered densely: each item's copy of 4 per host).
        // Only the keys: the work (two divisions and the flow's bytes) is read once, in pass 2.
        Aside<int[]> upperCount = mid < n ? new Aside<>("rocelab-ideal-ports-count", () -> countPorts(bound, mid, n))
                : null;
        int[] lowCount = countPorts(bound, firstTask, mid);
        int[] highCount = upperCount != null ? upperCount.join() : new int[0];
        int ports = Math.max(lowCount.length, highCount.length);
        int[] first = new int[ports + 1];
        int widest = 0;
        for (int k = 0; k < ports; k++) {
            int c = (k < lowCount.length ? lowCount[k] : 0) + (k < highCount.length ? highCount[k] : 0);
            first[k + 1] = first[k] + c;
            widest = Math.max(widest, c);
        }
        // Pass 2: each port's releases and works side by side, in its own stretch (a counting sort by port).
        int entries = first[ports];
        long[] release = new long[entries];
        long[] work = new long[entries];
        int[] lowHost = new int[ports];
        int[] highHost = new int[ports];
        int[] highAt = new int[ports];
        for (int k = 0; k < ports; k++) {
            highAt[k] = first[k] + (k < lowCount.length ? lowCount[k] : 0);
        }
        Aside<Void> upperPlace = mid < n ? new Aside<>("rocelab-ideal-ports-place", () -> {
            place(bound, mid, n, highAt, release, work, highHost);
            return null;
        }) : null;
        place(bound, firstTask, mid, Arrays.copyOf(first, ports), release, work, lowHost);
        if (upperPlace != null) {
            upperPlace.join();
        }
        int[] hostOf = new int[ports];
        for (int k = 0; k < ports; k++) {
            hostOf[k] = k < lowCount.length && lowCount[k] > 0 ? lowHost[k] : highHost[k];
        }
        // Each port's stretch in release order, then its busy periods, per host.
        long[] tmpRelease = new long[widest];
        long[] tmpWork = new long[widest];
        Periods periods = new Periods(hosts);
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
            int from = lo;
            for (int e = lo; e < hi; e++) {
                if (release[e] > free) {
                    addPeriod(periods, host, periodStart, free, from, e, work);
                    periodStart = release[e];
                    free = release[e];
                    from = e;
                }
                long x = work[e];
                free = Saturating.add(free, x < 0 ? ~x : x);
            }
            addPeriod(periods, host, periodStart, free, from, hi, work);
        }
        return periods;
    }

    /** Pass 1 over tasks {@code [from, to)}: per port key, how many of their transfers it serves. */
    private static int[] countPorts(IdealBound bound, int from, int to) {
        long[] w = new long[2];
        int[] count = new int[64];
        for (int t = from; t < to; t++) {
            if (!bound.portKeys(t, w)) {
                continue;
            }
            for (int side = 0; side < 2; side++) {
                long key = w[side];
                if (key >= MAX_PORTS) {
                    throw new IllegalStateException("more ports than the ideal account's busy periods can count: " + key);
                }
                if (key >= count.length) {
                    count = Arrays.copyOf(count, (int) Math.max(key + 1, Math.min(MAX_PORTS, 2L * count.length)));
                }
                count[(int) key]++;
            }
        }
        return count;
    }

    /**
     * Pass 2 over tasks {@code [from, to)}: each transfer's release and work at its two ports, from {@code at[port]}
     * on, and each port's host into {@code hostOf}. A work whose transfer's own interval at that host covers it (from
     * its release to its release plus the work) is placed complemented (negative): a busy period of that one transfer
     * alone adds nothing to the host's union.
     */
    private static void place(IdealBound bound, int from, int to, int[] at, long[] release, long[] work,
            int[] hostOf) {
        TaskGraph g = bound.graph();
        long[] w = new long[8];
        for (int t = from; t < to; t++) {
            if (!bound.portWork(t, w)) {
                continue;
            }
            long end = bound.taskEndPs(t);
            long sentEnd = g.kind(t) == TaskGraph.Kind.FLOW ? bound.completedPs(g.flowIndex(t)) : end;
            for (int side = 0; side < 8; side += 4) {
                // As the host's own intervals have it (gather): the sender's ends at acknowledgement, the receiver's
                // at delivery, never if not.
                long ownEnd = side == 0 ? sentEnd : end;
                ownEnd = ownEnd < 0 ? Long.MAX_VALUE : ownEnd;
                int k = (int) w[side];
                long r = w[side + 2];
                long x = w[side + 3];
                hostOf[k] = (int) w[side + 1];
                release[at[k]] = r;
                work[at[k]++] = Saturating.add(r, x) <= ownEnd ? ~x : x;
            }
        }
    }

    /**
     * The busy period {@code [from, to]} of entries {@code [first, last)}: added to the host's periods unless it is a
     * single transfer's whose own interval at the host covers it (its work complemented), which the host's union
     * holds already. Most periods are such on the ideal network (the 4,096-GPU Megatron iteration: 66.5 million of
     * 66.9 million transfer ends, kept before at 20 bytes each and sorted again with the host's own intervals).
     */
    private static void addPeriod(Periods periods, int host, long from, long to, int first, int last, long[] work) {
        if (last - first == 1 && work[first] < 0) {
            return;
        }
        periods.add(host, from, to);
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
            Arrays.fill(head, -1);
        }

        void add(int host, long from, long to) {
            if (to <= from || host < 0 || host >= head.length) {
                return;
            }
            if (size == start.length) {
                start = Arrays.copyOf(start, 2 * size);
                end = Arrays.copyOf(end, 2 * size);
                next = Arrays.copyOf(next, 2 * size);
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
        Arrays.sort(starts, from, to);
        Arrays.sort(ends, from, to);
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
    private static final class Intervals extends AbstractList<long[]> implements RandomAccess {
        private final long[] flat;

        Intervals(long[] flat) {
            this.flat = flat;
        }

        @Override
        public long[] get(int i) {
            Objects.checkIndex(i, size());
            return new long[] {flat[2 * i], flat[2 * i + 1]};
        }

        @Override
        public int size() {
            return flat.length / 2;
        }
    }
}
