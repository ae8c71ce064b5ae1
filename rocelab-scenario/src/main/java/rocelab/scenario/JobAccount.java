package rocelab.scenario;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;

/**
 * The jobs' figures in one account of a run (the run's task times, or the ideal bound's), made at once: per job, each
 * host's merged intervals of the job's own transfers, per job and rank its times over the measured iterations, and
 * per call its span. Each account needs only its own task times, so the run's is made while the ideal bound is still
 * being made, and the ideal one beside it once the bound is there.
 */
final class JobAccount {
    /**
     * Per rank, means over the measured iterations, in us: iteration, compute, exposed communication and idle time; and
     * {@code lateEntry}, the part of the exposed communication spent in a collective call the rank had entered while
     * another member had not yet, before the call's own time (a send posted to a member that has not entered waits
     * for it: an audit's fast rank showed 3.53 ms of "exposed communication" for a 2.49 ms call).
     */
    record Times(double iteration, double compute, double exposed, double idle, double lateEntry) {
        Times(double iteration, double compute, double exposed, double idle) {
            this(iteration, compute, exposed, idle, Double.NaN);
        }
    }

    final JobShape shape;
    final TaskTimes times;
    /** Per job (in {@link JobShape#jobs}' order) and host, the merged intervals of the job's own transfers there. */
    private final List<List<List<long[]>>> transfers;
    /** Per job (in {@link JobShape#jobs}' order) and rank. */
    private final Times[][] ranks;
    /** Per job and call (in {@link JobTasks#calls()}' order), {@link JobResults#span}. */
    private final long[][][] callSpans;

    private JobAccount(JobShape shape, TaskTimes times, List<List<List<long[]>>> transfers, Times[][] ranks,
            long[][][] callSpans) {
        this.shape = shape;
        this.times = times;
        this.transfers = transfers;
        this.ranks = ranks;
        this.callSpans = callSpans;
    }

    static JobAccount of(JobShape shape, TaskTimes d) {
        List<List<List<long[]>>> transfers = new ArrayList<>(shape.jobs.size());
        Times[][] ranks = new Times[shape.jobs.size()][];
        long[][][] spans = new long[shape.jobs.size()][][];
        for (int j = 0; j < shape.jobs.size(); j++) {
            JobTasks jt = shape.jobs.get(j);
            // The job's own transfers only: another item's on the same hosts are not its GPUs' communication.
            List<List<long[]>> own = HostTransfers.of(d, shape.transfers.get(j));
            transfers.add(own);
            ranks[j] = new Times[jt.job().layout().size()];
            Map<Integer, List<List<long[]>>> late = lateWindows(jt, d);
            for (int r = 0; r < ranks[j].length; r++) {
                ranks[j][r] = rankTimes(shape, j, r, d, own, late);
            }
            spans[j] = new long[jt.calls().size()][];
            for (int c = 0; c < spans[j].length; c++) {
                JobTasks.Call x = jt.calls().get(c);
                spans[j][c] = JobResults.span(d, x.entries(), x.done());
            }
        }
        return new JobAccount(shape, d, transfers, ranks, spans);
    }

    /**
     * The merged intervals during which job j's own transfers from or to {@code host} were in progress (none when it
     * has none there).
     */
    List<long[]> moving(int j, int host) {
        List<List<long[]>> own = transfers.get(j);
        return host >= 0 && host < own.size() ? own.get(host) : List.of();
    }

    /** The jobs, in the order of {@link #rank}'s and {@link #callSpan}'s job index. */
    List<JobTasks> jobs() {
        return shape.jobs;
    }

    /** Rank r of job j. */
    Times rank(int j, int r) {
        return ranks[j][r];
    }

    /** A fresh copy of call c of job j's span: start, end, and 1 when it completed (else 0). */
    long[] callSpan(int j, int c) {
        return callSpans[j][c].clone();
    }

    /** Means over the measured iterations of rank r's span, compute, exposed communication and idle time, in us. */
    private static Times rankTimes(JobShape shape, int j, int r, TaskTimes d, List<List<long[]>> own,
            Map<Integer, List<List<long[]>>> lateByHost) {
        JobTasks jt = shape.jobs.get(j);
        JobSpec job = jt.job();
        int host = job.layout().host(r);
        List<long[]> moving = host < own.size() ? own.get(host) : List.of();
        List<List<long[]>> late = lateByHost.get(host);
        long span = 0;
        long compute = 0;
        long exposed = 0;
        long lateEntry = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            long from = d.taskEndPs(jt.gates()[k][r]);
            long to = d.taskEndPs(jt.ends()[k][r]);
            if (from < 0 || to < 0) {
                continue;
            }
            List<long[]> busy = new ArrayList<>();
            for (int i : shape.computeOf(j, r)) {
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
            // Within the calls this rank had entered before their last member did: exposed there is that wait.
            List<long[]> windows = late == null ? List.of() : late.get(k - job.warmup());
            if (!windows.isEmpty()) {
                List<long[]> w = merge(windows, from, to);
                lateEntry += overlap(merge(either, from, to), w) - overlap(merge(busy, from, to), w);
            }
            count++;
        }
        if (count == 0) {
            return new Times(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double perIteration = 1e6 * count;
        return new Times(span / perIteration, compute / perIteration, exposed / perIteration,
                (span - compute - exposed) / perIteration, lateEntry / perIteration);
    }

    /**
     * Per host and measured iteration, for each of the iteration's calls with a member on the host: from that
     * member's entry to the call's start, the last member's entry, when it entered before (carried by the call's own
     * entry tasks, not guessed from times). One pass over the job's calls and their members.
     */
    private static Map<Integer, List<List<long[]>>> lateWindows(JobTasks jt, TaskTimes d) {
        JobSpec job = jt.job();
        Map<Integer, List<List<long[]>>> out = new HashMap<>();
        for (JobTasks.Call c : jt.calls()) {
            if (c.iteration() < job.warmup() || c.iteration() >= job.iterations()) {
                continue;
            }
            int[] entries = c.entries();
            long last = JobResults.latest(d, entries);
            for (int i = 0; i < entries.length && last >= 0; i++) {
                long entered = d.taskEndPs(entries[i]);
                if (entered >= 0 && last > entered) {
                    List<List<long[]>> host = out.computeIfAbsent(c.call().host(i), h -> {
                        List<List<long[]>> perIteration = new ArrayList<>();
                        for (int k = job.warmup(); k < job.iterations(); k++) {
                            perIteration.add(new ArrayList<>());
                        }
                        return perIteration;
                    });
                    host.get(c.iteration() - job.warmup()).add(new long[] {entered, last});
                }
            }
        }
        return out;
    }

    /** How long two sorted lists of disjoint intervals overlap: one walk over both. */
    static long overlap(List<long[]> a, List<long[]> b) {
        long total = 0;
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            long lo = Math.max(a.get(i)[0], b.get(j)[0]);
            long hi = Math.min(a.get(i)[1], b.get(j)[1]);
            total += Math.max(0, hi - lo);
            if (a.get(i)[1] < b.get(j)[1]) {
                i++;
            } else {
                j++;
            }
        }
        return total;
    }

    /** The intervals clipped to [from, to] and merged: sorted, disjoint. */
    private static List<long[]> merge(List<long[]> intervals, long from, long to) {
        List<long[]> in = clip(intervals, from, to);
        in.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] iv : in) {
            if (!out.isEmpty() && iv[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], iv[1]);
            } else {
                out.add(new long[] {iv[0], iv[1]});
            }
        }
        return out;
    }

    /** The parts of the intervals inside [from, to], those left empty dropped. */
    static List<long[]> clip(List<long[]> intervals, long from, long to) {
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
}
