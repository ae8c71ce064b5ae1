package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.RankRecord;
import rocelab.workload.collective.Collective;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.flow.IdealSpans;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.job.Dim;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;

/**
 * The GPU's view of the jobs of a run, from the task times of the packet-level run and of the same graph in
 * ideal-network mode (each made into a {@link JobAccount}): per rank and iteration, compute time is the union of its
 * compute tasks, idle time the rest of its iteration; per job, iteration and completion times.
 */
final class JobResults {
    private final List<JobTasks> jobs;
    private final TaskTimes real;
    private final IdealBound ideal;
    /** The ideal model ({@code --ideal}): the run is the bound itself, and its group figures are the bound's too. */
    private final boolean idealOnly;

    private final Bounds bounds;
    /** Per job, its calls' ideal times from their members' entries in the run, when made ahead; else null. */
    private final long[][] fromEntries;

    /** The jobs' figures in the run and on the ideal network (the same account in the ideal model). */
    private final JobAccount realAccount;
    private final JobAccount idealAccount;

    /**
     * The bounds of the groups the job outputs report, per job in {@code jobs}' order: the job's end (a walk of
     * {@link IdealBound#lastEndPs}); per iteration from the warm-up on, its span from its first activity to its
     * last rank's end ({@link IdealSpans#ofGroups}, -1 before the warm-up's end); per call in {@link JobTasks#calls()}'
     * order, its end; the bound of the warm-up's end (its last iteration's, -1 without a warm-up), from which the
     * ideal time per iteration is measured as the run's is. They need the task graph and the ideal network only, not the run, so they can be made while it
     * goes.
     */
    record Bounds(long[] jobEndPs, long[][] iterationSpanPs, long[][] callEndPs, long[] warmUpEndPs) {}

    /** Every group bound of {@link Bounds}, on {@code ideal}. */
    static Bounds bounds(List<JobTasks> jobs, IdealBound ideal) {
        return bounds(jobs, ideal, new CallWalks(jobs));
    }

    /**
     * As above, the jobs' ends and calls walked through {@code calls}: by this thread after the jobs' iterations, and
     * by any thread that helps meanwhile ({@link CallWalks#help}).
     */
    static Bounds bounds(List<JobTasks> jobs, IdealBound ideal, CallWalks calls) {
        long[][] iteration = new long[jobs.size()][];
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            JobSpec job = jt.job();
            // Each measured iteration's span: its tasks copied with its gates as done at 0 (the bound of its end minus
            // the bound of its first gate's end is not a bound of it: an audit found such an "ideal" iteration 44 %
            // longer than the run's, where the hot rank started its iteration late and the others early).
            int[][] from = new int[job.iterations()][];
            int[][] to = new int[job.iterations()][];
            for (int k = job.warmup(); k < job.iterations(); k++) {
                from[k] = jt.gates()[k];
                to[k] = jt.ends()[k];
            }
            iteration[j] = IdealSpans.ofGroups(ideal, from, to);
        }
        // The jobs' ends and calls after the iterations, so that the run's thread, done with its own records, can
        // walk them meanwhile (the 4,096-GPU iteration's end: 11 s).
        calls.walk(ideal);
        long[][] callEnds = calls.join();
        return new Bounds(calls.jobEndPs(), iteration, callEnds, calls.warmUpEndPs());
    }

    /**
     * From the accounts already made: the run's ({@code real}) and the ideal network's on {@code ideal} (null in the
     * ideal model, where the run is the bound and one account serves as both).
     */
    JobResults(JobAccount real, JobAccount idealAccount, IdealBound ideal, Bounds bounds) {
        this(real, idealAccount, ideal, bounds, null);
    }

    /**
     * As above, with each job's calls' ideal times from their members' entries in the run already made
     * ({@link #idealFromEntries(List, TaskTimes, IdealBound)}; null: made when the records are).
     */
    JobResults(JobAccount real, JobAccount idealAccount, IdealBound ideal, Bounds bounds, long[][] fromEntries) {
        this.fromEntries = fromEntries;
        this.jobs = real.jobs();
        this.real = real.times;
        this.ideal = ideal;
        this.bounds = bounds;
        this.idealOnly = idealAccount == null;
        if (idealOnly && real.times != ideal) {
            throw new IllegalArgumentException("no ideal account, but the run is not the ideal bound");
        }
        this.realAccount = real;
        this.idealAccount = idealOnly ? real : idealAccount;
    }

    /** A rank's times in the packet-level run and on the ideal network. */
    private record RankTimes(JobAccount.Times real, JobAccount.Times ideal) {
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
            double idealIteration = idealIteration(jt, bounds.iterationSpanPs()[j]);
            long end = idealOnly ? idealEnd : latest(real, jt.ends()[job.iterations() - 1]);
            double[] mean = new double[7];
            double maxWait = 0;
            for (int r = 0; r < n; r++) {
                RankTimes t = rank(j, r);
                mean[0] += t.real().compute() / n;
                mean[1] += t.real().exposed() / n;
                mean[2] += t.real().idle() / n;
                mean[3] += t.ideal().exposed() / n;
                mean[4] += t.ideal().idle() / n;
                mean[5] += t.networkWait() / n;
                mean[6] += t.real().lateEntry() / n;
                maxWait = Math.max(maxWait, t.networkWait());
            }
            out.add(new JobRecord(job.name(), n, job.iterations(), job.warmup(), job.startPs(), Math.max(end, 0),
                    end >= 0, Math.max(idealEnd, 0), idealOnly ? idealIteration : iteration(jt, real),
                    idealIteration, mean[0], mean[1],
                    mean[2], mean[3], mean[4], mean[5], maxWait, job.notes())
                    .withPerIteration(idealOnly ? idealPerIteration(jt, j) : perIteration(jt, real),
                            idealPerIteration(jt, j))
                    .withLateEntry(mean[6]));
        }
        return out;
    }

    List<RankRecord> rankRecords() {
        List<RankRecord> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            JobSpec job = jobs.get(j).job();
            for (int r = 0; r < job.layout().size(); r++) {
                RankTimes t = rank(j, r);
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


    List<CollectiveRecord> collectiveRecords() {
        List<CollectiveRecord> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            JobTasks jt = jobs.get(j);
            long[][] spans = new long[jt.calls().size()][];
            for (int x = 0; x < spans.length; x++) {
                spans[x] = realAccount.callSpan(j, x);
            }
            // On the ideal network's account the calls' spans are bounds each of its own, not one schedule: no call
            // is said to have run beside another there.
            boolean[] nvlink = nvlinkOnly(jt);
            CollectiveRecord.Concurrent[] concurrent = idealOnly ? null : ConcurrentCalls.withTransfers(jt, spans,
                    nvlink, realAccount.times, ConcurrentCalls.of(jt, spans, nvlink));
            long[] fromRunsEntries = idealOnly ? null
                    : fromEntries != null ? fromEntries[j] : idealFromEntries(jt, real, ideal);
            for (int x = 0; x < jt.calls().size(); x++) {
                JobTasks.Call c = jt.calls().get(x);
                long[] idealSpan = idealAccount.callSpan(j, x);
                idealSpan[1] = Math.max(idealSpan[1], bounds.callEndPs()[j][x]);
                long idealTime = idealSpan[2] == 1 ? idealSpan[1] - idealSpan[0] : -1;
                if (fromRunsEntries != null) {
                    idealTime = fromRunsEntries[x];
                }
                long[] span = idealOnly ? idealSpan : spans[x];
                Collective call = c.call();
                // A call starts when its last member enters it: one that some member never entered by the run's end
                // never started, and has no start (it was written as 0).
                long start = idealOnly || latest(realAccount.times, c.entries()) >= 0 ? span[0] : -1;

                out.add(new CollectiveRecord(jt.job().name(), c.name(), call.op().key() + " " + call.algorithm().key(),
                        call.rankCount(), call.sizeBytes(), start, span[1], span[2] == 1,
                        call.op().busFactor(call.rankCount()), idealTime,
                        c.iteration(), 1, concurrent == null ? CollectiveRecord.Concurrent.NONE : concurrent[x])
                        .withEntries(idealOnly ? -1 : earliest(realAccount.times, c.entries()),
                                idealOnly ? -1 : spread(idealAccount.times, c.entries())));
            }
            if (!idealOnly) {
                explainWidestEntry(out, out.size() - jt.calls().size(), jt);
            }
        }
        return out;
    }

    /**
     * The job's call after its warm-up whose members entered it furthest apart beyond their entries' bounds on the
     * ideal network (the one the summary names, {@link CollectiveRecord#entrySpreadBeyondIdealPs}, the first of
     * equals), given what its last member waited for before it entered ({@link LateEntry}). One walk per job.
     */
    private void explainWidestEntry(List<CollectiveRecord> out, int from, JobTasks jt) {
        int widest = -1;
        for (int x = 0; x < jt.calls().size(); x++) {
            CollectiveRecord c = out.get(from + x);
            if (c.iteration() >= jt.job().warmup() && c.entrySpreadPs() > 0 && (widest < 0
                    || c.entrySpreadBeyondIdealPs() > out.get(from + widest).entrySpreadBeyondIdealPs())) {
                widest = x;
            }
        }
        if (widest >= 0) {
            out.set(from + widest, out.get(from + widest).withLateEntry(LateEntry.of(jt, real, widest)));
        }
    }

    /** Per call of {@code jt}: whether it stays inside one server over NVLink (the graph has NVLink, one server). */
    private boolean[] nvlinkOnly(JobTasks jt) {
        boolean[] out = new boolean[jt.calls().size()];
        TaskGraph g = real.graph();
        if (g.localLinks() == null) {
            return out;
        }
        for (int x = 0; x < out.length; x++) {
            Collective k = jt.calls().get(x).call();
            boolean one = true;
            for (int r = 1; r < k.rankCount() && one; r++) {
                one = g.serverOf(k.host(r)) == g.serverOf(k.host(0));
            }
            out[x] = one;
        }
        return out;
    }

    /**
     * Per call of {@code jt}, the ideal network's bound of its time as the run measured it, from its last member's
     * entry to its last member done, its members entering when they did in the run ({@link IdealSpans}: the call's
     * tasks copied, each member's entry at its offset from the first): members that entered early may have done much
     * of the call before the last came, and the call with every member entering at once is then not a bound (an
     * audit's AlltoAllv ran 735 us against such an ideal of 893 us). -1 where a member never entered.
     */
    static long[] idealFromEntries(JobTasks jt, TaskTimes real, IdealBound ideal) {
        int n = jt.calls().size();
        int[][] from = new int[n][];
        long[][] at = new long[n][];
        int[][] to = new int[n][];
        long[] lastOffset = new long[n];
        for (int x = 0; x < n; x++) {
            JobTasks.Call c = jt.calls().get(x);
            long first = Long.MAX_VALUE;
            long last = -1;
            boolean entered = true;
            for (int e : c.entries()) {
                long t = real.taskEndPs(e);
                if (t < 0) {
                    entered = false;
                    break;
                }
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            if (!entered) {
                continue;
            }
            from[x] = c.entries();
            to[x] = c.done();
            at[x] = new long[c.entries().length];
            for (int i = 0; i < at[x].length; i++) {
                at[x][i] = real.taskEndPs(c.entries()[i]) - first;
            }
            lastOffset[x] = last - first;
        }
        long[] bound = IdealSpans.ofGroups(ideal, from, at, to);
        for (int x = 0; x < n; x++) {
            bound[x] = bound[x] < 0 ? -1 : Math.max(0, bound[x] - lastOffset[x]);
        }
        return bound;
    }

    /**
     * Per job of {@code jobs}, {@link #idealFromEntries(JobTasks, TaskTimes, IdealBound)}: they need the bound of every
     * task and the run's times, not the groups' bounds, so the run's main thread makes them while the ideal figures'
     * thread still walks those (the 4,096-GPU iteration: 22 s of calls' copies beside 39 s of its iteration's).
     */
    static long[][] idealFromEntries(List<JobTasks> jobs, TaskTimes real, IdealBound ideal) {
        long[][] out = new long[jobs.size()][];
        for (int j = 0; j < jobs.size(); j++) {
            out[j] = idealFromEntries(jobs.get(j), real, ideal);
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

    /**
     * Mean over measured iterations of: last rank done minus the iteration's first activity ({@link #firstActivityPs}).
     * Not from the first rank's gate: a pipeline's last stage ends its previous iteration early and then only waits
     * for the first stage's activations, and counting that wait made an iteration that each rank did in 17.7 ms read
     * 20.8 ms.
     */
    private static double iteration(JobTasks jt, TaskTimes d) {
        JobSpec job = jt.job();
        double sum = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            long from = firstActivityPs(jt, d, k);
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
     * When iteration k first did something: the earliest start of its compute steps and transfers (a transfer's
     * post, when its bytes may leave), or, where a delay before it had to start before it for the work to start when
     * it did, the latest such delay's start (a data-loading delay before the forward pass); -1 if nothing started.
     * Precisely: the latest time F, among the first compute or transfer's start and the earlier delays' starts, such
     * that the run with every gate of the iteration ending at F at the earliest starts every compute and transfer
     * when it did. A delay followed only by waiting (a pipeline's last stage loading its batch, then waiting for the
     * first stage's activations) does not open the iteration. So the run from F is the same run with every gate at F,
     * and the ideal iteration ({@link IdealSpans#ofGroups}, every gate at 0, where F is 0 by this same rule: some
     * rank's first work waits, through delays and joins, only on its gate) is measured the same way and bounds the
     * span from F. An iteration's tasks lie between its first gate and its last end, as the job emitter makes them,
     * each after the tasks it waits on but for a receive's late dependencies (a send, not delayed when F is kept).
     */
    static long firstActivityPs(JobTasks jt, TaskTimes d, int k) {
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        for (int g : jt.gates()[k]) {
            lo = Math.min(lo, g);
        }
        for (int e : jt.ends()[k]) {
            hi = Math.max(hi, e);
        }
        TaskGraph graph = d.graph();
        long work = Long.MAX_VALUE;
        long firstDelay = Long.MAX_VALUE;
        for (int t = lo; t <= hi; t++) {
            long s = d.taskStartPs(t);
            if (s < 0 || graph.kind(t) == TaskGraph.Kind.JOIN) {
                continue;
            }
            if (graph.kind(t) == TaskGraph.Kind.DELAY) {
                firstDelay = Math.min(firstDelay, s);
            } else {
                work = Math.min(work, s);
            }
        }
        if (work == Long.MAX_VALUE) {
            return firstDelay == Long.MAX_VALUE ? -1 : firstDelay;
        }
        if (firstDelay >= work) {
            return work;
        }
        // The delays' starts before the first work: the earliest is always kept (before it every rank only waited).
        TreeSet<Long> starts = new TreeSet<>();
        for (int t = lo; t <= hi; t++) {
            long s = d.taskStartPs(t);
            if (s >= 0 && s < work && graph.kind(t) == TaskGraph.Kind.DELAY) {
                starts.add(s);
            }
        }
        List<Long> candidates = new ArrayList<>(starts);
        candidates.add(work);
        int[] gates = jt.gates()[k].clone();
        Arrays.sort(gates);
        int good = 0;
        int bad = candidates.size();
        while (bad - good > 1) {
            int mid = (good + bad) >>> 1;
            if (keepsWork(graph, d, lo, hi, gates, candidates.get(mid))) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return candidates.get(good);
    }

    /**
     * Whether the run with the gates ending at {@code from} at the earliest would start every compute and transfer of
     * tasks lo..hi when it did (delays and joins shifted by what they wait on).
     */
    private static boolean keepsWork(TaskGraph graph, TaskTimes d, int lo, int hi, int[] gates, long from) {
        long[] end = new long[hi - lo + 1];
        for (int t = lo; t <= hi; t++) {
            long start = d.taskStartPs(t);
            long was = d.taskEndPs(t);
            long ready = Arrays.binarySearch(gates, t) >= 0 ? from : Long.MIN_VALUE;
            for (int i = 0; i < graph.dependencyCount(t); i++) {
                int dep = graph.dependency(t, i);
                int y = TaskGraph.target(dep);
                if (!TaskGraph.isAck(dep) && y >= lo && y < t) {
                    ready = Math.max(ready, end[y - lo]);
                }
            }
            switch (graph.kind(t)) {
                case JOIN -> end[t - lo] = Math.max(was, ready);
                case DELAY -> end[t - lo] = start < 0 || was < 0 ? was : Math.max(start, ready) + (was - start);
                default -> {
                    if (start >= 0 && ready > start) {
                        return false;
                    }
                    end[t - lo] = was;
                }
            }
        }
        return true;
    }

    /**
     * Mean over measured iterations of the bound of its span on the ideal network: from its first activity to its
     * last rank's end, whenever it started ({@link Bounds#iterationSpanPs}).
     */
    /**
     * The time per iteration: from the end of the last warm-up iteration (its last rank's end; without a warm-up, the
     * first iteration's first activity) to the end of the last iteration, over the measured iterations. Iterations
     * that overlap (a pipeline's first stage starts the next while the last stage ends this one) each span longer than
     * this, and adding their spans counts the overlap twice: an audit's pipeline job finished an iteration every
     * 16.0 ms while each iteration spanned 26.8 ms. NaN when an iteration has not ended.
     */
    static double perIteration(JobTasks jt, TaskTimes d) {
        JobSpec job = jt.job();
        int measured = job.iterations() - job.warmup();
        long from = job.warmup() > 0 ? latest(d, jt.ends()[job.warmup() - 1]) : firstActivityPs(jt, d, 0);
        long to = latest(d, jt.ends()[job.iterations() - 1]);
        return measured <= 0 || from < 0 || to < 0 ? Double.NaN : (to - from) / 1e6 / measured;
    }

    /**
     * The same on the ideal network: the bound of the last iteration's end less the bound of the warm-up's end (without
     * a warm-up, less the job's start, where the ideal's first activity is), over the measured iterations. Comparable
     * with {@link #perIteration}, measured the same way, but not a bound of it (a difference of two bounds is none);
     * the ideal JCT and the ideal span of an iteration are.
     */
    private double idealPerIteration(JobTasks jt, int j) {
        JobSpec job = jt.job();
        int measured = job.iterations() - job.warmup();
        long from = job.warmup() > 0 ? bounds.warmUpEndPs()[j] : job.startPs();
        long to = bounds.jobEndPs()[j];
        return measured <= 0 || from < 0 || to < 0 ? Double.NaN : (to - from) / 1e6 / measured;
    }

    private static double idealIteration(JobTasks jt, long[] iterationSpanPs) {
        JobSpec job = jt.job();
        double sum = 0;
        int count = 0;
        for (int k = job.warmup(); k < job.iterations(); k++) {
            if (iterationSpanPs[k] < 0) {
                continue;
            }
            sum += iterationSpanPs[k] / 1e6;
            count++;
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    private RankTimes rank(int j, int r) {
        return new RankTimes(realAccount.rank(j, r), idealAccount.rank(j, r));
    }

    /** When the last of these tasks ended, or -1 if one has not. */
    /** How far apart the ends of {@code tasks} are, or -1 when one of them has not ended. */
    static long spread(TaskTimes d, int[] tasks) {
        long first = earliest(d, tasks);
        return first < 0 ? -1 : latest(d, tasks) - first;
    }

    /** The earliest end of {@code tasks}, or -1 when one of them has not ended. */
    static long earliest(TaskTimes d, int[] tasks) {
        long t = Long.MAX_VALUE;
        for (int task : tasks) {
            if (d.taskEndPs(task) < 0) {
                return -1;
            }
            t = Math.min(t, d.taskEndPs(task));
        }
        return tasks.length == 0 ? -1 : t;
    }

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
