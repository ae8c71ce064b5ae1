package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;
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
    /** Per rank, means over the measured iterations, in us: iteration, compute, exposed communication and idle time. */
    record Times(double iteration, double compute, double exposed, double idle) {}

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
            for (int r = 0; r < ranks[j].length; r++) {
                ranks[j][r] = rankTimes(shape, j, r, d, own);
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
    private static Times rankTimes(JobShape shape, int j, int r, TaskTimes d, List<List<long[]>> own) {
        JobTasks jt = shape.jobs.get(j);
        JobSpec job = jt.job();
        int host = job.layout().host(r);
        List<long[]> moving = host < own.size() ? own.get(host) : List.of();
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
            count++;
        }
        if (count == 0) {
            return new Times(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double perIteration = 1e6 * count;
        return new Times(span / perIteration, compute / perIteration, exposed / perIteration,
                (span - compute - exposed) / perIteration);
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
