package rocelab.scenario;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.job.JobSpec;
import rocelab.workload.job.JobTasks;

/**
 * The jobs' ends and calls' group bounds ({@link JobResults.Bounds#jobEndPs}, {@link JobResults.Bounds#warmUpEndPs},
 * {@link JobResults.Bounds#callEndPs}), walked by whichever thread is free: the ideal figures' thread once it has
 * bounded the jobs' iterations, and the run's main thread when it would otherwise wait for the figures ({@link #help},
 * on a walker of its own, {@link IdealBound#walker}). The ends first, one per claim, then the calls in chunks. The
 * 4,096-GPU Megatron iteration's 396,040 calls took 6.2 s after its end walk's 12.1 s while main waited; a thread
 * started for them at once slowed main's loop and records instead. Every bound is the same whoever walks it.
 */
final class CallWalks {
    /** Calls per claim: large enough that claims cost nothing, small enough that the threads end together. */
    static final int CHUNK = 512;

    private final List<JobTasks> jobs;
    private final int chunk;
    private final long[][] out;
    /** Where each job's calls start in the flat numbering of every call. */
    private final int[] firstOfJob;
    private final int total;
    private final AtomicInteger next = new AtomicInteger();
    private final CountDownLatch chunksLeft;
    /** Per job its end's bound and its warm-up's (-1 without one); claims 2j and 2j + 1 of {@link #nextEnd}. */
    private final long[] jobEndPs;
    private final long[] warmUpEndPs;
    private final AtomicInteger nextEnd = new AtomicInteger();
    private final CountDownLatch endsLeft;
    private final CompletableFuture<IdealBound> bound = new CompletableFuture<>();

    CallWalks(List<JobTasks> jobs) {
        this(jobs, CHUNK);
    }

    /** As above, {@code chunk} calls per claim (tests: 1). */
    CallWalks(List<JobTasks> jobs, int chunk) {
        this(jobs, chunk, true);
    }

    /**
     * As above; without {@code needed} no call is walked and every call's bound reads 0. Only the ideal model's call
     * times come from these walks: a packet-level or flow-level run bounds each call from its members' entries in the
     * run instead ({@link JobResults}), which the walks, one bound less another, are not a bound of.
     */
    CallWalks(List<JobTasks> jobs, int chunk, boolean needed) {
        this.jobs = jobs;
        this.chunk = chunk;
        this.out = new long[jobs.size()][];
        this.firstOfJob = new int[jobs.size() + 1];
        for (int j = 0; j < jobs.size(); j++) {
            out[j] = new long[jobs.get(j).calls().size()];
            firstOfJob[j + 1] = firstOfJob[j] + (needed ? out[j].length : 0);
        }
        this.total = firstOfJob[jobs.size()];
        this.chunksLeft = new CountDownLatch((total + chunk - 1) / chunk);
        this.jobEndPs = new long[jobs.size()];
        this.warmUpEndPs = new long[jobs.size()];
        this.endsLeft = new CountDownLatch(2 * jobs.size());
    }

    /** The bound is made: from now on {@link #help} may walk calls. */
    void boundMade(IdealBound b) {
        bound.complete(b);
    }

    /** The figures failed before the bound was made: nobody helps. */
    void failed(Throwable t) {
        bound.completeExceptionally(t);
    }

    /**
     * Walks calls on a walker of this thread's own while any is left to claim, once the bound is made; returns at once
     * when it is not (yet): the caller waits for the figures as before.
     */
    void help() {
        if (bound.isDone() && !bound.isCompletedExceptionally()
                && (nextEnd.get() < 2 * jobs.size() || next.get() < total)) {
            walk(bound.join().walker());
        }
    }

    /**
     * The bound of every task, once made (waiting for it), or null when the figures failed before it was: the run's
     * thread makes what needs only the bound while the figures' thread walks the groups.
     */
    IdealBound awaitBound() {
        try {
            return bound.join();
        } catch (CompletionException | CancellationException e) {
            return null;
        }
    }

    /** Walks calls on {@code walker} while any is left to claim. */
    void walk(IdealBound walker) {
        int e;
        while ((e = nextEnd.getAndIncrement()) < 2 * jobs.size()) {
            JobTasks jt = jobs.get(e / 2);
            JobSpec job = jt.job();
            if (e % 2 == 0) {
                // The bound of the job's end: its ranks' own bounds and the work of the ports of every transfer before.
                jobEndPs[e / 2] = walker.lastEndPs(jt.ends()[job.iterations() - 1], new int[0], 0);
            } else {
                warmUpEndPs[e / 2] = job.warmup() > 0
                        ? walker.lastEndPs(jt.ends()[job.warmup() - 1], new int[0], 0) : -1;
            }
            endsLeft.countDown();
        }
        int from;
        while ((from = next.getAndAdd(chunk)) < total) {
            int to = Math.min(total, from + chunk);
            int j = 0;
            for (int i = from; i < to; i++) {
                while (i >= firstOfJob[j + 1]) {
                    j++;
                }
                JobTasks.Call x = jobs.get(j).calls().get(i - firstOfJob[j]);
                // The bound of the call's end: its members' own bounds and the work of the ports of its transfers.
                out[j][i - firstOfJob[j]] = walker.lastEndPs(x.done(), x.entries(), x.firstTask());
            }
            chunksLeft.countDown();
        }
    }

    /** Per job, the bound of its end; once {@link #join} returned. */
    long[] jobEndPs() {
        return jobEndPs;
    }

    /** Per job, the bound of its warm-up's end (-1 without a warm-up); once {@link #join} returned. */
    long[] warmUpEndPs() {
        return warmUpEndPs;
    }

    /** Every call's bound, per job, once every end and chunk is walked (by this thread or another). */
    long[][] join() {
        boolean interrupted = false;
        while (true) {
            try {
                endsLeft.await();
                chunksLeft.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return out;
    }
}
