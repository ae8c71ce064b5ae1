package rocelab.scenario;

import java.util.Arrays;
import java.util.List;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * What else of the workload ran on a traffic collective's RNICs while it ran: its ideal time is the call alone, and
 * another traffic item's flows (background Poisson traffic, an incast) or a job's that leave from or arrive at its
 * ranks' hosts share those RNICs on any network. An all-reduce beside web-search traffic at 30 % load took 2.4x its
 * ideal, which read as the fabric's doing. By identity: the workload's items by their task ranges, the flows' hosts
 * and their spans in the run (a flow from its post to its delivery, flows.csv's start_us to delivered_us).
 */
final class TrafficBeside {
    /** One item of the workload: its name in outputs and its tasks {@code [firstTask, endTask)}. */
    record Part(String name, int firstTask, int endTask) {}

    private TrafficBeside() {}

    /**
     * The parts of {@code parts} other than {@code own} whose flows touched {@code hosts} within {@code [startPs,
     * endPs)}: how many, the one there longest (the union of its flows' spans there) and for how long.
     */
    static CollectiveRecord.Concurrent of(TaskTimes times, List<Part> parts, int own, boolean[] hosts, long startPs,
            long endPs) {
        TaskGraph g = times.graph();
        int count = 0;
        long longest = 0;
        String name = "";
        for (int p = 0; p < parts.size(); p++) {
            if (p == own) {
                continue;
            }
            Part part = parts.get(p);
            long[] from = new long[16];
            long[] to = new long[16];
            int n = 0;
            for (int t = part.firstTask(); t < part.endTask(); t++) {
                int f = g.flowIndex(t);
                if (f < 0 || !(hosts[g.flowSource(f)] || hosts[g.flowDestination(f)])) {
                    continue;
                }
                long s = times.taskStartPs(t);
                if (s < 0) {
                    continue;
                }
                long e = times.taskEndPs(t) >= 0 ? times.taskEndPs(t) : endPs;
                long a = Math.max(s, startPs);
                long b = Math.min(e, endPs);
                if (a < b) {
                    if (n == from.length) {
                        from = Arrays.copyOf(from, 2 * n);
                        to = Arrays.copyOf(to, 2 * n);
                    }
                    from[n] = a;
                    to[n++] = b;
                }
            }
            long covered = union(from, to, n);
            if (covered > 0) {
                count++;
                if (covered > longest) {
                    longest = covered;
                    name = part.name();
                }
            }
        }
        return count == 0 ? CollectiveRecord.Concurrent.NONE : new CollectiveRecord.Concurrent(count, name, longest);
    }

    /** The length of the union of the intervals {@code [from[i], to[i])}. */
    private static long union(long[] from, long[] to, int n) {
        if (n == 0) {
            return 0;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(from[x], from[y]));
        long total = 0;
        long a = from[order[0]];
        long b = to[order[0]];
        for (int k = 1; k < n; k++) {
            int i = order[k];
            if (from[i] > b) {
                total += b - a;
                a = from[i];
                b = to[i];
            } else {
                b = Math.max(b, to[i]);
            }
        }
        return total + (b - a);
    }
}
