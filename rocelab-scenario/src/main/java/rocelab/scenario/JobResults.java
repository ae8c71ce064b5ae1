package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.RankRecord;
import rocelab.workload.collective.Collective;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;

/**
 * The GPU's view of the jobs of a run, from the task times of the packet-level run and of the same graph in
 * ideal-network mode: per rank and iteration, compute time is the union of its compute tasks, idle time the rest of
 * its iteration; per job, iteration and completion times.
 */
final class JobResults {
    private final List<JobTasks> jobs;
    private final TaskTimes real;
    private final IdealBound ideal;
    /** The ideal model ({@code --ideal}): the run is the bound itself, and its group figures are the bound's too. */
    private final boolean idealOnly;

    private final Bounds bounds;

    private final List<List<long[]>> realTransfers;
    private final List<List<long[]>> idealTransfers;

    /**
     * The bounds of the groups the job outputs report (each a walk of {@link IdealBound#lastEndPs}), per job in
     * {@code jobs}' order: the job's end; per iteration from the warm-up on, its end from its gates ({@link #SAME_AS_END}
     * where that is the job's end's walk, see {@link #idealIteration}); per call in {@link JobTasks#calls()}' order, its
     * end. They need the task graph and the ideal network only, not the run, so they can be made while it goes.
     */
    record Bounds(long[] jobEndPs, long[][] iterationEndPs, long[][] callEndPs) {}

    /** An iteration's bound that is the job's end's (the walk cut at its gates meets the same transfers). */
    static final long SAME_AS_END = Long.MIN_VALUE;

    /** Every group bound of {@link Bounds}, on {@code ideal}. */
    static Bounds bounds(List<JobTasks> jobs, IdealBound ideal) {
        long[] end = new long[jobs.size()];
        long[][] iteration = new long[jobs.size()][];
        long[][] call = new long[jobs.size()][];
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            JobSpec job = jt.job();
            // The bound of the job's end: its ranks' own bounds and the work of the ports of every transfer before.
            end[j] = ideal.lastEndPs(jt.ends()[job.iterations() - 1], new int[0], 0);
            iteration[j] = new long[job.iterations()];
            for (int k = job.warmup(); k < job.iterations(); k++) {
                iteration[j][k] = k == job.iterations() - 1 && onlyRootsBehind(ideal.graph(), jt.gates()[k])
                        ? SAME_AS_END : ideal.lastEndPs(jt.ends()[k], jt.gates()[k], 0);
            }
            call[j] = new long[jt.calls().size()];
            for (int c = 0; c < call[j].length; c++) {
                JobTasks.Call x = jt.calls().get(c);
                // The bound of the call's end: its members' own bounds and the work of the ports of its transfers.
                call[j][c] = ideal.lastEndPs(x.done(), x.entries(), x.firstTask());
            }
        }
        return new Bounds(end, iteration, call);
    }

    JobResults(List<JobTasks> jobs, TaskTimes real, IdealBound ideal) {
        this(jobs, real, ideal, bounds(jobs, ideal));
    }

    /** As above, with the group bounds already made on {@code ideal} ({@link #bounds}). */
    JobResults(List<JobTasks> jobs, TaskTimes real, IdealBound ideal, Bounds bounds) {
        this.jobs = jobs;
        this.real = real;
        this.ideal = ideal;
        this.bounds = bounds;
        this.idealOnly = real == ideal;
        this.realTransfers = transfers(real);
        this.idealTransfers = transfers(ideal);
        for (JobTasks jt : jobs) {
            List<List<Integer>> perRank = new ArrayList<>();
            for (int r = 0; r < jt.job().layout().size(); r++) {
                perRank.add(new ArrayList<>());
            }
            for (int i = 0; i < jt.computeTasks().length; i++) {
                perRank.get(jt.computeRanks()[i]).add(i);
            }
            computeOf.put(jt, perRank);
        }
    }

    /** Per job and rank, the indices of its compute tasks in {@link JobTasks#computeTasks()}. */
    private final java.util.Map<JobTasks, List<List<Integer>>> computeOf = new java.util.IdentityHashMap<>();

    /** Per rank, means over the measured iterations: iteration, compute, exposed communication and idle time. */
    private record Times(double iteration, double compute, double exposed, double idle) {}

    /** A rank's times in the packet-level run and on the ideal network. */
    private record RankTimes(Times real, Times ideal) {
        double networkWait() {
            return Math.max(0, real.exposed() + real.idle() - ideal.exposed() - ideal.idle());
        }
    }

    List<JobRecord> jobRecords() {
        List<JobRecord> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            JobSpec job = jt.job();
            int n = job.layout().size();
            long idealEnd = bounds.jobEndPs()[j];
            double idealIteration = idealIteration(jt, idealEnd, bounds.iterationEndPs()[j]);
            long end = idealOnly ? idealEnd : latest(real, jt.ends()[job.iterations() - 1]);
            double[] mean = new double[6];
            double maxWait = 0;
            for (int r = 0; r < n; r++) {
                RankTimes t = rank(jt, r);
                mean[0] += t.real().compute() / n;
                mean[1] += t.real().exposed() / n;
                mean[2] += t.real().idle() / n;
                mean[3] += t.ideal().exposed() / n;
                mean[4] += t.ideal().idle() / n;
                mean[5] += t.networkWait() / n;
                maxWait = Math.max(maxWait, t.networkWait());
            }
            out.add(new JobRecord(job.name(), n, job.iterations(), job.warmup(), job.startPs(), Math.max(end, 0),
                    end >= 0, Math.max(idealEnd, 0), idealOnly ? idealIteration : iteration(jt, real),
                    idealIteration, mean[0], mean[1],
                    mean[2], mean[3], mean[4], mean[5], maxWait, job.notes()));
        }
        return out;
    }

    List<RankRecord> rankRecords() {
        List<RankRecord> out = new ArrayList<>();
        for (JobTasks jt : jobs) {
            JobSpec job = jt.job();
            for (int r = 0; r < job.layout().size(); r++) {
                RankTimes t = rank(jt, r);
                StringBuilder coords = new StringBuilder();
                for (Dim d : Dim.values()) {
                    if (job.layout().degree(d) > 1) {
                        coords.append(coords.length() == 0 ? "" : " ").append(d.key()).append('=')
                                .append(job.layout().coord(r, d));
                    }
                }
                out.add(new RankRecord(job.name(), r, job.layout().host(r), coords.toString(), t.real().iteration(),
                        t.real().compute(), t.real().exposed(), t.real().idle(), t.ideal().exposed(),
                        t.ideal().idle()));
            }
        }
        return out;
    }

    /** Ranks per job on the timeline: enough to see the pattern, bounded for jobs of thousands of GPUs. */
    static final int TIMELINE_RANKS = 64;

    /**
     * Each rank's last iteration in the packet-level run (the first {@link #TIMELINE_RANKS} ranks of each job): its compute steps, and the stretches when its own data was
     * moving (merged), so the report can draw where each GPU spent the iteration.
     */
    List<rocelab.observe.job.TimelineRecord> timeline() {
        List<rocelab.observe.job.TimelineRecord> out = new ArrayList<>();
        for (JobTasks jt : jobs) {
            JobSpec job = jt.job();
            int k = job.iterations() - 1;
            for (int r = 0; r < Math.min(job.layout().size(), TIMELINE_RANKS); r++) {
                long from = real.taskEndPs(jt.gates()[k][r]);
                long to = real.taskEndPs(jt.ends()[k][r]);
                if (from < 0 || to < 0) {
                    continue;
                }
                for (int i : computeOf.get(jt).get(r)) {
                    int t = jt.computeTasks()[i];
                    if (jt.computeIterations()[i] == k && real.taskStartPs(t) >= 0
                            && real.taskEndPs(t) > real.taskStartPs(t)) {
                        out.add(new rocelab.observe.job.TimelineRecord(job.name(), r, "compute", real.taskStartPs(t),
                                real.taskEndPs(t), jt.computeNames().get(i)));
                    }
                }
                int host = job.layout().host(r);
                List<long[]> moving = host < realTransfers.size() ? clip(realTransfers.get(host), from, to)
                        : new ArrayList<>();
                moving.sort((x, y) -> Long.compare(x[0], y[0]));
                long start = -1;
                long end = -1;
                for (long[] iv : moving) {
                    if (iv[0] > end) {
                        if (start >= 0) {
                            out.add(new rocelab.observe.job.TimelineRecord(job.name(), r, "comm", start, end, ""));
                        }
                        start = iv[0];
                        end = iv[1];
                    } else {
                        end = Math.max(end, iv[1]);
                    }
                }
                if (start >= 0) {
                    out.add(new rocelab.observe.job.TimelineRecord(job.name(), r, "comm", start, end, ""));
                }
            }
        }
        return out;
    }

    /** Ranks per job in timeline.json: every iteration of each, bounded for jobs of thousands of GPUs. */
    static final int TRACE_RANKS = 256;

    /**
     * Every iteration of each job's first {@link #TRACE_RANKS} ranks in the packet-level run, for timeline.json: per
     * rank and iteration a span cut into compute, exposed communication and idle stretches (the same unions as
     * ranks.csv, so they add up to its columns), every compute step, each member's part of every collective call
     * (from entering the call to its part done) and both sides of every send/receive, joined by an arrow.
     */
    void timeline(rocelab.observe.trace.GpuTimeline out) {
        TaskGraph g = real.graph();
        for (JobTasks jt : jobs) {
            JobSpec job = jt.job();
            int ranks = Math.min(job.layout().size(), TRACE_RANKS);
            java.util.Set<Integer> traced = new java.util.HashSet<>();
            for (int r = 0; r < ranks; r++) {
                int host = job.layout().host(r);
                out.gpu(g.serverOf(host), host, "gpu " + host + " (" + job.name() + " rank " + r + ")");
                traced.add(host);
            }
            for (int r = 0; r < ranks; r++) {
                int host = job.layout().host(r);
                List<long[]> moving = host < realTransfers.size() ? realTransfers.get(host) : List.of();
                for (int k = 0; k < job.iterations(); k++) {
                    long from = real.taskEndPs(jt.gates()[k][r]);
                    long to = real.taskEndPs(jt.ends()[k][r]);
                    if (from < 0 || to < 0) {
                        continue;
                    }
                    List<long[]> busy = new ArrayList<>();
                    for (int i : computeOf.get(jt).get(r)) {
                        int t = jt.computeTasks()[i];
                        if (jt.computeIterations()[i] == k && real.taskStartPs(t) >= 0
                                && real.taskEndPs(t) > real.taskStartPs(t)) {
                            busy.add(new long[] {real.taskStartPs(t), real.taskEndPs(t)});
                        }
                    }
                    java.util.Map<String, Object> args = new java.util.LinkedHashMap<>();
                    args.put("job", job.name());
                    args.put("rank", r);
                    args.put("iteration", k);
                    args.put("warmup", k < job.warmup());
                    out.span(host, "iteration", "iteration " + k, from, to, args);
                    stretches(out, host, merge(clip(busy, from, to)), merge(clip(moving, from, to)), from, to);
                }
                for (int i : computeOf.get(jt).get(r)) {
                    int t = jt.computeTasks()[i];
                    if (real.taskStartPs(t) >= 0 && real.taskEndPs(t) > real.taskStartPs(t)) {
                        out.compute(host, jt.computeNames().get(i), real.taskStartPs(t), real.taskEndPs(t),
                                rocelab.observe.trace.GpuTimeline.args("iteration", jt.computeIterations()[i]));
                    }
                }
            }
            for (JobTasks.Call c : jt.calls()) {
                Collective call = c.call();
                String name = call.op().key() + " " + bytes(call.sizeBytes());
                for (int i = 0; i < call.ranks().length; i++) {
                    int host = call.ranks()[i];
                    long start = real.taskEndPs(c.entries()[i]);
                    long end = real.taskEndPs(c.done()[i]);
                    if (!traced.contains(host) || start < 0 || end < 0) {
                        continue;
                    }
                    java.util.Map<String, Object> args = new java.util.LinkedHashMap<>();
                    args.put("call", c.name());
                    args.put("collective", call.op().key());
                    args.put("algorithm", call.algorithm().key());
                    args.put("size_bytes", call.sizeBytes());
                    args.put("ranks", call.rankCount());
                    args.put("iteration", c.iteration());
                    out.comm(host, "collective", name, start, end, args);
                }
            }
            for (JobTasks.Transfer x : jt.transfers()) {
                int src = job.layout().host(x.srcRank());
                int dst = job.layout().host(x.dstRank());
                int f = x.flowTask();
                long posted = real.taskStartPs(f);
                long delivered = real.taskEndPs(f);
                long sent = g.kind(f) == TaskGraph.Kind.FLOW ? real.completedPs(g.flowIndex(f)) : delivered;
                long recvPosted = real.taskEndPs(x.recvEntry());
                if (posted < 0 || delivered < 0 || sent < 0 || recvPosted < 0) {
                    continue;
                }
                int from = -1;
                int to = -1;
                if (traced.contains(src)) {
                    from = out.comm(src, "send", "send " + bytes(x.bytes()) + " to rank " + x.dstRank(), posted, sent,
                            rocelab.observe.trace.GpuTimeline.args("step", x.sendName(), "size_bytes", x.bytes(), "peer", x.dstRank(),
                                    "iteration", x.iteration()));
                }
                if (traced.contains(dst)) {
                    to = out.comm(dst, "recv", "recv " + bytes(x.bytes()) + " from rank " + x.srcRank(), recvPosted,
                            delivered, rocelab.observe.trace.GpuTimeline.args("step", x.recvName(), "size_bytes", x.bytes(), "peer",
                                    x.srcRank(), "iteration", x.iteration()));
                }
                if (from >= 0 && to >= 0) {
                    out.arrow(bytes(x.bytes()) + " rank " + x.srcRank() + " -> " + x.dstRank(), from, to);
                }
            }
        }
    }

    /** The iteration [from, to) cut into compute (busy), exposed communication (moving, not busy) and idle. */
    private static void stretches(rocelab.observe.trace.GpuTimeline out, int host, List<long[]> busy,
            List<long[]> moving, long from, long to) {
        java.util.TreeSet<Long> cuts = new java.util.TreeSet<>();
        cuts.add(from);
        cuts.add(to);
        for (long[] iv : busy) {
            cuts.add(iv[0]);
            cuts.add(iv[1]);
        }
        for (long[] iv : moving) {
            cuts.add(iv[0]);
            cuts.add(iv[1]);
        }
        String state = null;
        long since = from;
        Long prev = null;
        int b = 0;
        int m = 0;
        for (long cut : cuts) {
            if (prev != null) {
                // Both lists are sorted and disjoint, and the cuts rise: skip the intervals that ended.
                while (b < busy.size() && busy.get(b)[1] <= prev) {
                    b++;
                }
                while (m < moving.size() && moving.get(m)[1] <= prev) {
                    m++;
                }
                boolean computing = b < busy.size() && busy.get(b)[0] <= prev;
                boolean movingNow = m < moving.size() && moving.get(m)[0] <= prev;
                String s = computing ? "compute" : movingNow ? "exposed_comm" : "idle";
                if (!s.equals(state)) {
                    if (state != null) {
                        emit(out, host, state, since, prev);
                    }
                    state = s;
                    since = prev;
                }
            }
            prev = cut;
        }
        if (state != null) {
            emit(out, host, state, since, to);
        }
    }

    private static void emit(rocelab.observe.trace.GpuTimeline out, int host, String state, long from, long to) {
        String name = switch (state) {
            case "compute" -> "compute";
            case "exposed_comm" -> "exposed communication";
            default -> "idle";
        };
        out.span(host, state, name, from, to, rocelab.observe.trace.GpuTimeline.args());
    }

    /** Sorted, disjoint intervals covering the same time. */
    private static List<long[]> merge(List<long[]> intervals) {
        intervals.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] iv : intervals) {
            if (!out.isEmpty() && iv[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], iv[1]);
            } else {
                out.add(new long[] {iv[0], iv[1]});
            }
        }
        return out;
    }

    static String bytes(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        double v = b;
        while (v >= 1024 && u < units.length - 1 && b % (1L << (10 * (u + 1))) == 0) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v)) + " " + units[u];
    }

    List<CollectiveRecord> collectiveRecords() {
        List<CollectiveRecord> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            for (int x = 0; x < jt.calls().size(); x++) {
                JobTasks.Call c = jt.calls().get(x);
                long[] idealSpan = span(ideal, c.entries(), c.done());
                idealSpan[1] = Math.max(idealSpan[1], bounds.callEndPs()[j][x]);
                long[] span = idealOnly ? idealSpan : span(real, c.entries(), c.done());
                Collective call = c.call();

                out.add(new CollectiveRecord(jt.job().name(), c.name(), call.op().key() + " " + call.algorithm().key(),
                        call.rankCount(), call.sizeBytes(), span[0], span[1], span[2] == 1,
                        call.op().busFactor(call.rankCount()), idealSpan[2] == 1 ? idealSpan[1] - idealSpan[0] : -1));
            }
        }
        return out;
    }

    /**
     * A call from the moment its last member entered (all are there, as nccl-tests synchronises them before its
     * timer starts) until its last member is done, and whether it completed. Waiting for late members is not the
     * collective's time: it shows as the early members' exposed communication or idle time.
     */
    static long[] span(TaskTimes d, int[] entries, int[] done) {
        long start = latest(d, entries);
        long last = latest(d, done);
        if (last < 0 || start < 0) {
            return new long[] {Math.max(start, 0), 0, 0};
        }
        return new long[] {start, last, 1};
    }

    /** Mean over measured iterations of: last rank done minus first rank started. */
    private static double iteration(JobTasks jt, TaskTimes d) {
        JobSpec job = jt.job();
        double sum = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            long from = Long.MAX_VALUE;
            for (int g : jt.gates()[k]) {
                from = Math.min(from, d.taskEndPs(g));
            }
            long to = latest(d, jt.ends()[k]);
            if (to < 0 || from < 0) {
                continue;
            }
            sum += (to - from) / 1e6;
            count++;
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /**
     * Mean over measured iterations on the ideal network: from the first rank's start to the bound of the last
     * rank's end, which counts the work of the ports of every transfer of the iteration (from its gates on):
     * {@code iterationEndPs}, made by {@link #bounds}. {@code idealEndPs} is the bound of the job's end, the walk back
     * from the last iteration's ends with nothing cut: when nothing but tasks without dependencies is behind that
     * iteration's gates (the first iteration, after the job's start), the walk cut at the gates meets the same
     * transfers, so its bound is that one ({@link #SAME_AS_END}), and a job of tens of millions of tasks is not walked
     * twice for the same figure.
     */
    private double idealIteration(JobTasks jt, long idealEndPs, long[] iterationEndPs) {
        JobSpec job = jt.job();
        double sum = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            long from = Long.MAX_VALUE;
            for (int g : jt.gates()[k]) {
                from = Math.min(from, ideal.taskEndPs(g));
            }
            long to = iterationEndPs[k] == SAME_AS_END ? idealEndPs : iterationEndPs[k];
            if (to < 0 || from < 0) {
                continue;
            }
            sum += (to - from) / 1e6;
            count++;
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /**
     * Whether the gates and what they wait on are no transfers, and what they wait on waits on nothing: then a walk
     * back over dependencies that passes through them meets no transfer it would not meet without them.
     */
    static boolean onlyRootsBehind(TaskGraph g, int[] gates) {
        java.util.BitSet late = new java.util.BitSet();
        for (int i = 0; i < g.lateDependencyCount(); i++) {
            late.set(g.lateTask(i));
        }
        for (int gate : gates) {
            if (g.kind(gate) == TaskGraph.Kind.FLOW || g.kind(gate) == TaskGraph.Kind.NVLINK || late.get(gate)) {
                return false;
            }
            for (int i = 0; i < g.dependencyCount(gate); i++) {
                int d = g.dependency(gate, i);
                if (d < 0 || g.kind(d) == TaskGraph.Kind.FLOW || g.kind(d) == TaskGraph.Kind.NVLINK
                        || g.dependencyCount(d) > 0 || late.get(d)) {
                    return false;
                }
            }
        }
        return true;
    }

    private RankTimes rank(JobTasks jt, int r) {
        return new RankTimes(rankTimes(jt, r, real, realTransfers), rankTimes(jt, r, ideal, idealTransfers));
    }

    /**
     * Per host, the intervals during which one of its transfers (a flow or an NVLink transfer it sends or
     * receives) was in progress, from posting until delivered (receiver) or acknowledged (sender), merged: sorted,
     * disjoint, touching ones joined. Only their union is ever used (clipped to an iteration), and a job of
     * thousands of GPUs has tens of millions of transfers, so they are gathered as primitive starts and ends per host
     * and merged at once, not kept as an object each.
     */
    private static List<List<long[]>> transfers(TaskTimes d) {
        TaskGraph g = d.graph();
        int hosts = 0;
        for (int t = 0; t < g.taskCount(); t++) {
            if (isTransfer(g, d, t)) {
                hosts = Math.max(hosts, 1 + Math.max(source(g, t), destination(g, t)));
            }
        }
        int[] count = new int[hosts];
        for (int t = 0; t < g.taskCount(); t++) {
            if (isTransfer(g, d, t)) {
                count[source(g, t)]++;
                count[destination(g, t)]++;
            }
        }
        long[][] starts = new long[hosts][];
        long[][] ends = new long[hosts][];
        for (int h = 0; h < hosts; h++) {
            starts[h] = new long[count[h]];
            ends[h] = new long[count[h]];
        }
        int[] fill = new int[hosts];
        for (int t = 0; t < g.taskCount(); t++) {
            if (!isTransfer(g, d, t)) {
                continue;
            }
            long end = d.taskEndPs(t);
            long sentEnd = g.kind(t) == TaskGraph.Kind.FLOW ? d.completedPs(g.flowIndex(t)) : end;
            int src = source(g, t);
            int dst = destination(g, t);
            starts[src][fill[src]] = d.taskStartPs(t);
            ends[src][fill[src]++] = sentEnd < 0 ? Long.MAX_VALUE : sentEnd;
            starts[dst][fill[dst]] = d.taskStartPs(t);
            ends[dst][fill[dst]++] = end < 0 ? Long.MAX_VALUE : end;
        }
        List<List<long[]>> perHost = new ArrayList<>(hosts);
        for (int h = 0; h < hosts; h++) {
            perHost.add(merged(starts[h], ends[h]));
            starts[h] = null;
            ends[h] = null;
        }
        return perHost;
    }

    private static boolean isTransfer(TaskGraph g, TaskTimes d, int t) {
        TaskGraph.Kind k = g.kind(t);
        return (k == TaskGraph.Kind.FLOW || k == TaskGraph.Kind.NVLINK) && d.taskStartPs(t) >= 0;
    }

    private static int source(TaskGraph g, int t) {
        return g.kind(t) == TaskGraph.Kind.FLOW ? g.flowSource(g.flowIndex(t)) : g.owner(t);
    }

    private static int destination(TaskGraph g, int t) {
        return g.kind(t) == TaskGraph.Kind.FLOW ? g.flowDestination(g.flowIndex(t)) : g.nvlinkDestination(t);
    }

    /**
     * The union of intervals [starts[i], ends[i]] (each start at most its end) as sorted, disjoint intervals, those
     * that touch joined. Starts and ends are sorted apart: the (i+1)-th smallest end lies before the (i+2)-th
     * smallest start exactly when the first i+1 intervals to start have all ended there, which is a gap.
     */
    static List<long[]> merged(long[] starts, long[] ends) {
        java.util.Arrays.sort(starts);
        java.util.Arrays.sort(ends);
        int n = starts.length;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (i == n - 1 || ends[i] < starts[i + 1]) {
                count++;
            }
        }
        long[] flat = new long[2 * count];
        int k = 0;
        int first = 0;
        for (int i = 0; i < n; i++) {
            if (i == n - 1 || ends[i] < starts[i + 1]) {
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

    /** Means over the measured iterations of rank r's span, compute, exposed communication and idle time, in us. */
    private Times rankTimes(JobTasks jt, int r, TaskTimes d, List<List<long[]>> transfers) {
        JobSpec job = jt.job();
        int host = job.layout().host(r);
        List<long[]> moving = host < transfers.size() ? transfers.get(host) : List.of();
        long span = 0;
        long compute = 0;
        long exposed = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            long from = d.taskEndPs(jt.gates()[k][r]);
            long to = d.taskEndPs(jt.ends()[k][r]);
            if (from < 0 || to < 0) {
                continue;
            }
            List<long[]> busy = new ArrayList<>();
            for (int i : computeOf.get(jt).get(r)) {
                if (jt.computeIterations()[i] == k) {
                    int t = jt.computeTasks()[i];
                    if (d.taskStartPs(t) >= 0 && d.taskEndPs(t) > d.taskStartPs(t)) {
                        busy.add(new long[] {d.taskStartPs(t), d.taskEndPs(t)});
                    }
                }
            }
            long computing = union(clip(busy, from, to));
            List<long[]> either = clip(moving, from, to);
            either.addAll(clip(busy, from, to));
            span += to - from;
            compute += computing;
            exposed += union(either) - computing;
            count++;
        }
        if (count == 0) {
            return new Times(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double perIteration = 1e6 * count;
        return new Times(span / perIteration, compute / perIteration, exposed / perIteration,
                (span - compute - exposed) / perIteration);
    }

    private static List<long[]> clip(List<long[]> intervals, long from, long to) {
        List<long[]> out = new ArrayList<>();
        for (long[] iv : intervals) {
            long a = Math.max(iv[0], from);
            long b = Math.min(iv[1], to);
            if (b > a) {
                out.add(new long[] {a, b});
            }
        }
        return out;
    }

    private static long union(List<long[]> intervals) {
        intervals.sort((x, y) -> Long.compare(x[0], y[0]));
        long total = 0;
        long curStart = -1;
        long curEnd = -1;
        for (long[] iv : intervals) {
            if (iv[0] > curEnd) {
                total += curEnd - curStart;
                curStart = iv[0];
                curEnd = iv[1];
            } else {
                curEnd = Math.max(curEnd, iv[1]);
            }
        }
        return total + (curEnd - curStart);
    }

    /** When the last of these tasks ended, or -1 if one has not. */
    static long latest(TaskTimes d, int[] tasks) {
        long t = 0;
        for (int task : tasks) {
            if (d.taskEndPs(task) < 0) {
                return -1;
            }
            t = Math.max(t, d.taskEndPs(task));
        }
        return t;
    }
}
