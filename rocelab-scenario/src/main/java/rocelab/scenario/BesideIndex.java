package rocelab.scenario;

import java.util.Arrays;
import java.util.List;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * What else of the workload ran on a collective's RNICs while it ran: its ideal time is the call alone, and another
 * item's flows (background Poisson traffic, an incast, another job) that leave from or arrive at its ranks' hosts
 * share those RNICs on any network. An all-reduce beside web-search traffic at 30 % load took 2.4x its ideal, which
 * read as the fabric's doing. By identity: the workload's items by their task ranges, the flows' hosts and their spans
 * in the run (a flow from its post to its delivery, flows.csv's start_us to delivered_us, or to the run's end when it
 * was not delivered).
 *
 * <p>Built once per run: for every item and host, the union of the spans of the item's flows from or to that host, as
 * sorted disjoint intervals, so a call (of a job's hundreds of thousands) is answered from its hosts' intervals within
 * its span, not by a scan of every flow.
 */
final class BesideIndex {
    /** One item of the workload: its name in outputs and its tasks {@code [firstTask, endTask)}. */
    record Part(String name, int firstTask, int endTask) {}

    private final List<Part> parts;
    /** Per part: the hosts its flows touched, ascending. */
    private final int[][] hostsOf;
    /** Per part, per host of {@link #hostsOf}: the merged spans, {from0, to0, from1, to1, ...}. */
    private final long[][][] spans;
    /** Whether it indexes NVLink transfers (for calls inside one server) rather than flows (their RNICs). */
    private final boolean nvlink;

    /** {@code endPs}: the run's end, where a flow still under way is counted to. */
    BesideIndex(TaskTimes times, List<Part> parts, int hostCount, long endPs) {
        this(times, parts, hostCount, endPs, false);
    }

    /**
     * With {@code nvlink}, of the parts' NVLink transfers instead of their flows, by their two GPUs: what shared the
     * NVLink of a call inside one server (a 4-GPU AllReduce beside another item's PXN hops took 1.06x its ideal, and
     * nothing said why).
     */
    BesideIndex(TaskTimes times, List<Part> parts, int hostCount, long endPs, boolean nvlink) {
        this.nvlink = nvlink;
        this.parts = List.copyOf(parts);
        this.hostsOf = new int[parts.size()][];
        this.spans = new long[parts.size()][][];
        TaskGraph g = times.graph();
        // Scratch by host, reused for every part: only the hosts a part touches keep arrays afterwards, so a workload
        // of many items on many hosts holds its spans, not items x hosts slots.
        long[][] raw = new long[hostCount][];
        int[] lengths = new int[hostCount];
        int[] touched = new int[hostCount];
        for (int p = 0; p < parts.size(); p++) {
            int touchedCount = 0;
            for (int t = parts.get(p).firstTask(); t < parts.get(p).endTask(); t++) {
                int f = g.flowIndex(t);
                boolean counted = nvlink ? g.kind(t) == TaskGraph.Kind.NVLINK : f >= 0;
                long s = !counted ? -1 : times.taskStartPs(t);
                long e = !counted ? -1 : times.taskEndPs(t) >= 0 ? times.taskEndPs(t) : endPs;
                if (s < 0 || e <= s) {
                    // Not a flow (an NVLink transfer), or not posted by the run's end: nothing of it was there.
                    continue;
                }
                for (int h : nvlink ? new int[] {g.transferSource(t), g.transferDestination(t)}
                        : new int[] {g.flowSource(f), g.flowDestination(f)}) {
                    if (lengths[h] == 0) {
                        touched[touchedCount++] = h;
                    }
                    long[] a = raw[h];
                    int n = lengths[h];
                    if (a == null || n == a.length) {
                        a = raw[h] = Arrays.copyOf(a == null ? new long[0] : a, Math.max(8, 2 * n));
                    }
                    a[n] = s;
                    a[n + 1] = e;
                    lengths[h] = n + 2;
                }
            }
            int[] hosts = Arrays.copyOf(touched, touchedCount);
            Arrays.sort(hosts);
            long[][] merged = new long[touchedCount][];
            for (int i = 0; i < touchedCount; i++) {
                merged[i] = merge(raw[hosts[i]], lengths[hosts[i]]);
                lengths[hosts[i]] = 0;
            }
            hostsOf[p] = hosts;
            spans[p] = merged;
        }
    }

    /**
     * The parts other than {@code own} (-1: none is the call's own) with a flow on one of {@code hosts} within
     * {@code [startPs, endPs)}: how many, the one there longest (the union of its spans there) and for how long.
     */
    CollectiveRecord.Beside of(int own, int[] hosts, long startPs, long endPs) {
        int count = 0;
        long longest = 0;
        String name = "";
        long[] clipped = new long[16];
        for (int p = 0; p < parts.size(); p++) {
            if (p == own) {
                continue;
            }
            int n = 0;
            for (int h : hosts) {
                int at = Arrays.binarySearch(hostsOf[p], h);
                if (at < 0) {
                    continue;
                }
                long[] a = spans[p][at];
                // The first interval that ends after the start, then on while they begin before the end.
                int lo = 0;
                int hi = a.length / 2;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (a[2 * mid + 1] <= startPs) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                for (int i = lo; i < a.length / 2 && a[2 * i] < endPs; i++) {
                    if (n + 2 > clipped.length) {
                        clipped = Arrays.copyOf(clipped, 2 * clipped.length);
                    }
                    clipped[n] = Math.max(a[2 * i], startPs);
                    clipped[n + 1] = Math.min(a[2 * i + 1], endPs);
                    n += 2;
                }
            }
            long covered = measure(merge(clipped, n));
            if (covered > 0) {
                count++;
                if (covered > longest) {
                    longest = covered;
                    name = parts.get(p).name();
                }
            }
        }
        return count == 0 ? CollectiveRecord.Beside.NONE : new CollectiveRecord.Beside(count, name, longest, nvlink);
    }

    /** The union of the intervals {from, to} in {@code a[0, n)}, as sorted disjoint intervals. */
    static long[] merge(long[] a, int n) {
        int k = n / 2;
        // Sort the intervals by start: indices ordered by their starts.
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(a[2 * x], a[2 * y]));
        long[] out = new long[n];
        int m = 0;
        for (int idx = 0; idx < k; idx++) {
            int i = order[idx];
            long from = a[2 * i];
            long to = a[2 * i + 1];
            if (to <= from) {
                continue;
            }
            if (m > 0 && from <= out[m - 1]) {
                out[m - 1] = Math.max(out[m - 1], to);
            } else {
                out[m] = from;
                out[m + 1] = to;
                m += 2;
            }
        }
        return Arrays.copyOf(out, m);
    }

    static long measure(long[] merged) {
        long total = 0;
        for (int i = 0; i < merged.length; i += 2) {
            total += merged[i + 1] - merged[i];
        }
        return total;
    }
}
