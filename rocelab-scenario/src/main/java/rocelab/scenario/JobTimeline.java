package rocelab.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import rocelab.observe.job.TimelineRecord;
import rocelab.observe.trace.GpuTimeline;
import rocelab.workload.collective.Collective;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;

/**
 * The jobs' GPUs over time in the run (timeline.csv and the jobs' part of timeline.json), from the run's account
 * alone: it needs nothing of the ideal network, so it is made while the ideal bound may still be being made.
 */
final class JobTimeline {
    private final JobShape shape;
    private final JobAccount real;
    private final TaskTimes times;

    JobTimeline(JobAccount real) {
        this.shape = real.shape;
        this.real = real;
        this.times = real.times;
    }

    /** Ranks per job on the timeline: enough to see the pattern, bounded for jobs of thousands of GPUs. */
    static final int TIMELINE_RANKS = 64;

    /**
     * Each rank's last iteration in the packet-level run (the first {@link #TIMELINE_RANKS} ranks of each job): its compute steps, and the stretches when its own data was
     * moving (merged), so the report can draw where each GPU spent the iteration.
     */
    List<TimelineRecord> timeline() {
        List<TimelineRecord> out = new ArrayList<>();
        for (int j = 0; j < shape.jobs.size(); j++) {
            JobTasks jt = shape.jobs.get(j);
            JobSpec job = jt.job();
            int k = job.iterations() - 1;
            for (int r = 0; r < Math.min(job.layout().size(), TIMELINE_RANKS); r++) {
                long from = times.taskEndPs(jt.gates()[k][r]);
                long to = times.taskEndPs(jt.ends()[k][r]);
                if (from < 0 || to < 0) {
                    continue;
                }
                for (int i : shape.computeOf(j, r)) {
                    int t = jt.computeTasks()[i];
                    if (jt.computeIterations()[i] == k && times.taskStartPs(t) >= 0
                            && times.taskEndPs(t) > times.taskStartPs(t)) {
                        out.add(new TimelineRecord(job.name(), r, "compute", times.taskStartPs(t),
                                times.taskEndPs(t), jt.computeNames().get(i)));
                    }
                }
                int host = job.layout().host(r);
                List<long[]> moving = JobAccount.clip(real.moving(j, host), from, to);
                moving.sort((x, y) -> Long.compare(x[0], y[0]));
                long start = -1;
                long end = -1;
                for (long[] iv : moving) {
                    if (iv[0] > end) {
                        if (start >= 0) {
                            out.add(new TimelineRecord(job.name(), r, "comm", start, end, ""));
                        }
                        start = iv[0];
                        end = iv[1];
                    } else {
                        end = Math.max(end, iv[1]);
                    }
                }
                if (start >= 0) {
                    out.add(new TimelineRecord(job.name(), r, "comm", start, end, ""));
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
    void timeline(GpuTimeline out) {
        TaskGraph g = times.graph();
        for (int j = 0; j < shape.jobs.size(); j++) {
            JobTasks jt = shape.jobs.get(j);
            JobSpec job = jt.job();
            int ranks = Math.min(job.layout().size(), TRACE_RANKS);
            Set<Integer> traced = new HashSet<>();
            for (int r = 0; r < ranks; r++) {
                int host = job.layout().host(r);
                out.gpu(g.serverOf(host), host, "gpu " + host + " (" + job.name() + " rank " + r + ")");
                traced.add(host);
            }
            for (int r = 0; r < ranks; r++) {
                int host = job.layout().host(r);
                List<long[]> moving = real.moving(j, host);
                for (int k = 0; k < job.iterations(); k++) {
                    long from = times.taskEndPs(jt.gates()[k][r]);
                    long to = times.taskEndPs(jt.ends()[k][r]);
                    if (from < 0 || to < 0) {
                        continue;
                    }
                    List<long[]> busy = new ArrayList<>();
                    for (int i : shape.computeOf(j, r)) {
                        int t = jt.computeTasks()[i];
                        if (jt.computeIterations()[i] == k && times.taskStartPs(t) >= 0
                                && times.taskEndPs(t) > times.taskStartPs(t)) {
                            busy.add(new long[] {times.taskStartPs(t), times.taskEndPs(t)});
                        }
                    }
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("job", job.name());
                    args.put("rank", r);
                    args.put("iteration", k);
                    args.put("warmup", k < job.warmup());
                    out.span(host, "iteration", "iteration " + k, from, to, args);
                    stretches(out, host, IntervalUnion.of(JobAccount.clip(busy, from, to)),
                            IntervalUnion.of(JobAccount.clip(moving, from, to)), from, to);
                }
                for (int i : shape.computeOf(j, r)) {
                    int t = jt.computeTasks()[i];
                    if (times.taskStartPs(t) >= 0 && times.taskEndPs(t) > times.taskStartPs(t)) {
                        out.compute(host, jt.computeNames().get(i), times.taskStartPs(t), times.taskEndPs(t),
                                GpuTimeline.args("iteration", jt.computeIterations()[i]));
                    }
                }
            }
            for (JobTasks.Call c : jt.calls()) {
                Collective call = c.call();
                String name = call.op().key() + " " + bytes(call.sizeBytes());
                for (int i = 0; i < call.ranks().length; i++) {
                    int host = call.ranks()[i];
                    long start = times.taskEndPs(c.entries()[i]);
                    long end = times.taskEndPs(c.done()[i]);
                    if (!traced.contains(host) || start < 0 || end < 0) {
                        continue;
                    }
                    Map<String, Object> args = new LinkedHashMap<>();
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
                long posted = times.taskStartPs(f);
                long delivered = times.taskEndPs(f);
                long sent = g.kind(f) == TaskGraph.Kind.FLOW ? times.completedPs(g.flowIndex(f)) : delivered;
                long recvPosted = times.taskEndPs(x.recvEntry());
                if (posted < 0 || delivered < 0 || sent < 0 || recvPosted < 0) {
                    continue;
                }
                int from = -1;
                int to = -1;
                if (traced.contains(src)) {
                    from = out.comm(src, "send", "send " + bytes(x.bytes()) + " to rank " + x.dstRank(), posted, sent,
                            GpuTimeline.args("step", x.sendName(), "size_bytes", x.bytes(), "peer", x.dstRank(),
                                    "iteration", x.iteration()));
                }
                if (traced.contains(dst)) {
                    to = out.comm(dst, "recv", "recv " + bytes(x.bytes()) + " from rank " + x.srcRank(), recvPosted,
                            delivered, GpuTimeline.args("step", x.recvName(), "size_bytes", x.bytes(), "peer",
                                    x.srcRank(), "iteration", x.iteration()));
                }
                if (from >= 0 && to >= 0) {
                    out.arrow(bytes(x.bytes()) + " rank " + x.srcRank() + " -> " + x.dstRank(), from, to);
                }
            }
        }
    }

    /** The iteration [from, to) cut into compute (busy), exposed communication (moving, not busy) and idle. */
    private static void stretches(GpuTimeline out, int host, List<long[]> busy,
            List<long[]> moving, long from, long to) {
        TreeSet<Long> cuts = new TreeSet<>();
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

    private static void emit(GpuTimeline out, int host, String state, long from, long to) {
        String name = switch (state) {
            case "compute" -> "compute";
            case "exposed_comm" -> "exposed communication";
            default -> "idle";
        };
        out.span(host, state, name, from, to, GpuTimeline.args());
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
}
