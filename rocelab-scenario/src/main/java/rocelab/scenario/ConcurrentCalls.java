package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.collective.Collective;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobTasks;

/**
 * Which of a job's calls were under way at once on a shared RNIC: a call's ideal time is the call alone, and a call
 * that ran beside the same job's other calls on its ranks' RNICs (a tensor-parallel AllReduce beside a data-parallel
 * one on another stream) shares those RNICs on any network, ideal included. An audit read "x1.99 against the ideal" of
 * such a call as the fabric's doing; the summary and report now name what ran beside it. By identity: the calls'
 * members (their hosts) and their spans in the run, not a guess from nearby traffic. Likewise the job's own
 * point-to-point transfers ({@link #withTransfers}).
 */
final class ConcurrentCalls {
    private ConcurrentCalls() {}

    /**
     * Per call of {@code jt} (in {@link JobTasks#calls()}' order), its concurrent calls, from the calls' spans in the
     * run ({start, end, completed}: an unfinished call is under way to its last known time, its start). A call inside
     * one server over NVLink ({@code nvlinkOnly}) touches no RNIC: it has none and is nobody's.
     */
    static CollectiveRecord.Concurrent[] of(JobTasks jt, long[][] spans, boolean[] nvlinkOnly) {
        int n = jt.calls().size();
        CollectiveRecord.Concurrent[] out = new CollectiveRecord.Concurrent[n];
        Arrays.fill(out, CollectiveRecord.Concurrent.NONE);
        if (n < 2) {
            return out;
        }
        // Per host, its calls by start time, and the latest end among each prefix: a backward scan stops where every
        // earlier call had ended before the one looked at began, so the work is the calls that do overlap.
        int hosts = 0;
        for (JobTasks.Call c : jt.calls()) {
            Collective k = c.call();
            for (int i = 0; i < k.rankCount(); i++) {
                hosts = Math.max(hosts, k.host(i) + 1);
            }
        }
        int[] count = new int[hosts + 1];
        for (JobTasks.Call c : jt.calls()) {
            Collective k = c.call();
            for (int i = 0; i < k.rankCount(); i++) {
                count[k.host(i) + 1]++;
            }
        }
        for (int h = 0; h < hosts; h++) {
            count[h + 1] += count[h];
        }
        // The calls in order of start (ties by index), then each host's calls filled in that order: sorted per host.
        Integer[] order = new Integer[n];
        for (int x = 0; x < n; x++) {
            order[x] = x;
        }
        Arrays.sort(order, (a, b) -> spans[a][0] != spans[b][0] ? Long.compare(spans[a][0], spans[b][0])
                : Integer.compare(a, b));
        int[] rank = new int[n];
        for (int i = 0; i < n; i++) {
            rank[order[i]] = i;
        }
        int[] byHost = new int[count[hosts]];
        int[] fill = Arrays.copyOf(count, hosts);
        for (int i = 0; i < n; i++) {
            int x = order[i];
            Collective k = jt.calls().get(x).call();
            for (int r = 0; r < k.rankCount(); r++) {
                byHost[fill[k.host(r)]++] = x;
            }
        }
        long[] prefixEnd = new long[byHost.length];
        for (int h = 0; h < hosts; h++) {
            long latest = Long.MIN_VALUE;
            for (int p = count[h]; p < count[h + 1]; p++) {
                latest = Math.max(latest, end(spans[byHost[p]]));
                prefixEnd[p] = latest;
            }
        }
        int[] seen = new int[n];
        Arrays.fill(seen, -1);
        for (int x = 0; x < n; x++) {
            long start = spans[x][0];
            long end = end(spans[x]);
            if (end <= start || nvlinkOnly[x]) {
                continue;
            }
            int calls = 0;
            int longest = -1;
            long longestPs = 0;
            Collective k = jt.calls().get(x).call();
            for (int i = 0; i < k.rankCount(); i++) {
                int h = k.host(i);
                int p = find(byHost, count[h], count[h + 1], x, rank);
                // From the earliest call on the host that may still run when x starts (back while the latest end so
                // far passes x's start) to the last that starts before x ends.
                int q = p;
                while (q > count[h] && prefixEnd[q - 1] > start) {
                    q--;
                }
                for (; q < count[h + 1] && spans[byHost[q]][0] < end; q++) {
                    int y = byHost[q];
                    long overlap = Math.min(end, end(spans[y])) - Math.max(start, spans[y][0]);
                    if (y != x && overlap > 0 && seen[y] != x && !nvlinkOnly[y]) {
                        seen[y] = x;
                        calls++;
                        if (overlap > longestPs || overlap == longestPs && y < longest) {
                            longest = y;
                            longestPs = overlap;
                        }
                    }
                }
            }
            if (calls > 0) {
                // A call has the same name in every iteration: another iteration's is named with its iteration.
                JobTasks.Call other = jt.calls().get(longest);
                String name = other.iteration() == jt.calls().get(x).iteration() ? other.name()
                        : other.name() + " of iteration " + other.iteration();
                out[x] = new CollectiveRecord.Concurrent(calls, name, longestPs);
            }
        }
        return out;
    }

    /**
     * The calls of {@code calls} (per call of {@code jt}) with the job's own point-to-point transfers under way on
     * each call's ranks' RNICs while it ran: a transfer whose flow (post to delivery, in the run {@code d}) leaves or
     * reaches the host of one of the call's ranks and overlaps the call's span. A pipeline's send beside a data-parallel
     * AllReduce on the same RNIC shares it on any network, ideal included, as another call does. By identity: the
     * job's own transfers and their spans, not a guess from nearby traffic. Transfers over NVLink touch no RNIC, and
     * neither do calls inside one server.
     */
    static CollectiveRecord.Concurrent[] withTransfers(JobTasks jt, long[][] spans, boolean[] nvlinkOnly,
            TaskTimes d, CollectiveRecord.Concurrent[] calls) {
        CollectiveRecord.Concurrent[] out = calls.clone();
        TaskGraph g = d.graph();
        List<JobTasks.Transfer> fabric = new ArrayList<>();
        for (JobTasks.Transfer t : jt.transfers()) {
            if (t.flowTask() >= 0 && g.kind(t.flowTask()) == TaskGraph.Kind.FLOW && d.taskStartPs(t.flowTask()) >= 0) {
                fabric.add(t);
            }
        }
        if (fabric.isEmpty()) {
            return out;
        }
        // Per host, its transfers by post time with the latest delivery among each prefix (as for the calls above).
        Map<Integer, List<long[]>> byHost = new HashMap<>();
        for (int i = 0; i < fabric.size(); i++) {
            JobTasks.Transfer t = fabric.get(i);
            long start = d.taskStartPs(t.flowTask());
            long end = d.taskEndPs(t.flowTask());
            // An undelivered flow is under way to the run's end, as far as known: from its post on.
            long[] row = {start, end < 0 ? Long.MAX_VALUE : end, i, 0};
            int src = jt.job().layout().host(t.srcRank());
            int dst = jt.job().layout().host(t.dstRank());
            byHost.computeIfAbsent(src, k -> new ArrayList<>()).add(row);
            if (dst != src) {
                byHost.computeIfAbsent(dst, k -> new ArrayList<>()).add(row.clone());
            }
        }
        for (List<long[]> rows : byHost.values()) {
            rows.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[2], b[2]));
            long latest = Long.MIN_VALUE;
            for (long[] row : rows) {
                latest = Math.max(latest, row[1]);
                row[3] = latest;
            }
        }
        int[] seen = new int[fabric.size()];
        Arrays.fill(seen, -1);
        for (int x = 0; x < spans.length; x++) {
            long start = spans[x][0];
            long end = end(spans[x]);
            if (end <= start || nvlinkOnly[x]) {
                continue;
            }
            int count = 0;
            int longest = -1;
            long longestPs = 0;
            Collective k = jt.calls().get(x).call();
            for (int i = 0; i < k.rankCount(); i++) {
                List<long[]> rows = byHost.get(k.host(i));
                if (rows == null) {
                    continue;
                }
                // The last transfer posted before the call ends, then back while a transfer so far may still run.
                int lo = 0;
                int hi = rows.size();
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (rows.get(mid)[0] < end) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                for (int q = lo - 1; q >= 0 && rows.get(q)[3] > start; q--) {
                    long[] row = rows.get(q);
                    int y = (int) row[2];
                    long overlap = Math.min(end, row[1]) - Math.max(start, row[0]);
                    if (overlap > 0 && seen[y] != x) {
                        seen[y] = x;
                        count++;
                        if (overlap > longestPs || overlap == longestPs && y < longest) {
                            longest = y;
                            longestPs = overlap;
                        }
                    }
                }
            }
            if (count > 0) {
                JobTasks.Transfer t = fabric.get(longest);
                String name = t.sendName() + " from rank " + t.srcRank() + " to rank " + t.dstRank()
                        + (t.iteration() == jt.calls().get(x).iteration() ? "" : " of iteration " + t.iteration());
                out[x] = out[x].withTransfers(count, name, longestPs);
            }
        }
        return out;
    }

    /** A call's end in the run: its last member's done, or, unfinished, its start (nothing known after it). */
    private static long end(long[] span) {
        return span[2] == 1 ? span[1] : span[0];
    }

    /** Where call x sits in one host's calls, which are in the order of {@code rank}. */
    private static int find(int[] byHost, int from, int to, int x, int[] rank) {
        int lo = from;
        int hi = to - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Integer.compare(rank[byHost[mid]], rank[x]);
            if (c == 0) {
                return mid;
            } else if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        throw new IllegalStateException("call " + x + " is not among its host's calls");
    }
}
