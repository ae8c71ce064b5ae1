package rocelab.scenario;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.job.JobTasks;

/**
 * The jobs' calls' group bounds ({@link JobResults.Bounds#callEndPs}), walked in chunks by whichever thread is free:
 * the ideal figures' thread once it has walked the jobs' ends, and the run's main thread when it would otherwise wait
 * for the figures ({@link #help}, on a walker of its own, {@link IdealBound#walker}). The 4,096-GPU Megatron
 * iteration's 396,040 calls took 6.2 s after its end walk's 12.1 s while main waited; a thread started for them at
 * once slowed main's loop and records instead. Every call's bound is the same whoever walks it.
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
        if (bound.isDone() && !bound.isCompletedExceptionally() && next.get() < total) {
            walk(bound.join().walker());
        }
    }

    /** Walks calls on {@code walker} while any is left to claim. */
    void walk(IdealBound walker) {
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

    /** Every call's bound, per job, once every chunk is walked (by this thread or another). */
    long[][] join() {
        boolean interrupted = false;
        while (true) {
            try {
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
