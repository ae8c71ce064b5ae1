package rocelab.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One model split into partitions that run on several threads: a conservative parallel discrete-event simulation
 * in windows (YAWNS). Every partition is a {@link Simulator} with its own calendar; handlers register with the
 * partition that owns them and get ids from one id space, so every event has the same canonical key (time,
 * handler, kind, argument) it would have in one simulator holding the whole model.
 *
 * <p>A window starts at the earliest pending event of any partition, {@code M}, and ends before
 * {@code M + lookahead}. Each partition runs its events of the window alone. An event a partition schedules for
 * another partition's handler must be due at or after the window's end (the model guarantees it: the lookahead is
 * the smallest delay of anything that crosses partitions, such as a link's propagation delay); it waits in a
 * {@link Mailbox} and enters the receiver's calendar after the barrier. Nothing a partition does in a window can
 * then change another partition's events of that window, and each calendar pops its events in the canonical order,
 * so every handler sees exactly the events, in exactly the order, it sees in one simulator: the run is
 * byte-identical to one thread, whatever the partitions and the number of threads.
 *
 * <p>Each window costs one barrier. Mailboxes are double-buffered by the window's parity, and so are the published
 * lower bounds from which every thread computes the same next {@code M}, so one barrier per window suffices.
 * A handler must not call {@link Simulator#stop()} in a partitioned run (where the run stops would depend on the
 * partitions): it is reported as an error.
 */
public final class PartitionedSimulator {
    private final Simulator[] parts;
    private final long lookaheadPs;
    private int[] owner = new int[64];
    private int handlerCount;
    /** [parity][from][to]. */
    private final Mailbox[][][] boxes;
    /** Earliest time each partition sent to another in the current window, Long.MAX_VALUE if none. */
    private final long[] earliestSent;
    /** [parity][partition]: a lower bound of the partition's next event, after the window of that parity. */
    private final long[][] published;
    /** The parity of the window each partition is running: which mailboxes it writes. */
    private final int[] parityOf;
    private long windows;

    /**
     * @param partitions how many partitions the model is split into (at least one)
     * @param lookaheadPs the smallest delay of any event that crosses partitions (at least 1 ps)
     */
    public PartitionedSimulator(int partitions, long lookaheadPs) {
        if (partitions < 1) {
            throw new IllegalArgumentException("at least one partition: " + partitions);
        }
        if (lookaheadPs < 1) {
            throw new IllegalArgumentException("the lookahead must be at least 1 ps: " + lookaheadPs);
        }
        this.lookaheadPs = lookaheadPs;
        this.parts = new Simulator[partitions];
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Simulator(1024, this, p);
        }
        this.boxes = new Mailbox[2][partitions][partitions];
        for (Mailbox[][] parity : boxes) {
            for (Mailbox[] from : parity) {
                for (int to = 0; to < partitions; to++) {
                    from[to] = new Mailbox();
                }
            }
        }
        this.earliestSent = new long[partitions];
        Arrays.fill(earliestSent, Long.MAX_VALUE);
        this.published = new long[2][partitions];
        this.parityOf = new int[partitions];
    }

    public int partitions() {
        return parts.length;
    }

    public Simulator partition(int index) {
        return parts[index];
    }

    public long lookaheadPs() {
        return lookaheadPs;
    }

    /** The partition that owns handler {@code handlerId}. */
    public int ownerOf(int handlerId) {
        if (handlerId < 0 || handlerId >= handlerCount) {
            throw new IllegalArgumentException("no handler " + handlerId);
        }
        return owner[handlerId];
    }

    public long eventsProcessed() {
        long n = 0;
        for (Simulator s : parts) {
            n += s.eventsProcessed();
        }
        return n;
    }

    public int pendingEvents() {
        int n = 0;
        for (Simulator s : parts) {
            n += s.pendingEvents();
        }
        return n;
    }

    /** Windows run so far: each cost one barrier. */
    public long windows() {
        return windows;
    }

    /** The clock after {@link #runUntil}: every partition stands at the same time then. */
    public long nowPs() {
        return parts[0].nowPs();
    }

    int nextHandlerId(int partition) {
        if (handlerCount == owner.length) {
            owner = Arrays.copyOf(owner, handlerCount * 2);
        }
        owner[handlerCount] = partition;
        return handlerCount++;
    }

    void scheduleDirect(long atPs, int handlerId, int kind, long arg) {
        parts[ownerOf(handlerId)].addLocal(atPs, handlerId, kind, arg);
    }

    /** Called on the sender's thread during a window. */
    void post(int from, long atPs, int handlerId, int kind, long arg) {
        int to = ownerOf(handlerId);
        boxes[parityOf[from]][from][to].add(atPs, handlerId, kind, arg);
        if (atPs < earliestSent[from]) {
            earliestSent[from] = atPs;
        }
    }

    /**
     * Runs every event with time at or before {@code endPs} on {@code threads} threads (the calling one and
     * {@code threads - 1} more, each running a fixed share of the partitions), then returns with every clock at
     * {@code endPs} (or at the last event, when the calendars ran empty and {@code endPs} is unbounded).
     *
     * @return true if events remain
     */
    public boolean runUntil(long endPs, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one thread: " + threads);
        }
        int workers = Math.min(threads, parts.length);
        long start = earliestPending();
        WindowBarrier barrier = new WindowBarrier(workers);
        Throwable[] failure = new Throwable[workers];
        List<Thread> started = new ArrayList<>();
        long firstWindow = windows;
        long[] windowCount = new long[1];
        for (int w = 1; w < workers; w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, workers, start, firstWindow, endPs, barrier, failure, null),
                    "rocelab-partition-" + w);
            t.setDaemon(true);
            started.add(t);
            t.start();
        }
        work(0, workers, start, firstWindow, endPs, barrier, failure, windowCount);
        for (Thread t : started) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the partitions", e);
            }
        }
        for (Throwable f : failure) {
            if (f != null && !(f instanceof WindowBarrier.Broken)) {
                if (f instanceof RuntimeException r) {
                    throw r;
                }
                if (f instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException(f);
            }
        }
        windows = firstWindow + windowCount[0];
        for (Simulator s : parts) {
            s.windowEndPs(Long.MIN_VALUE);
        }
        return pendingEvents() > 0;
    }

    private long earliestPending() {
        long m = Long.MAX_VALUE;
        for (Simulator s : parts) {
            if (!s.calendar().isEmpty()) {
                m = Math.min(m, s.calendar().firstTimePs());
            }
        }
        return m;
    }

    /** One thread's loop: partitions worker, worker + workers, ... of every window. */
    private void work(int worker, int workers, long start, long firstWindow, long endPs, WindowBarrier barrier,
            Throwable[] failure, long[] windowCount) {
        try {
            long m = start;
            long w = firstWindow;
            while (m != Long.MAX_VALUE && m <= endPs) {
                long windowEnd = Math.min(m + lookaheadPs, endPs == Long.MAX_VALUE ? Long.MAX_VALUE : endPs + 1);
                int parity = (int) (w & 1);
                for (int p = worker; p < parts.length; p += workers) {
                    Simulator s = parts[p];
                    earliestSent[p] = Long.MAX_VALUE;
                    parityOf[p] = parity;
                    s.windowEndPs(windowEnd);
                    s.run(windowEnd - 1, Long.MAX_VALUE);
                    if (s.stoppedEarly()) {
                        throw new IllegalStateException("a handler stopped partition " + p
                                + ": stop() is not supported in a partitioned run");
                    }
                    long next = s.calendar().isEmpty() ? Long.MAX_VALUE : s.calendar().firstTimePs();
                    published[parity][p] = Math.min(next, earliestSent[p]);
                }
                barrier.await();
                m = Long.MAX_VALUE;
                for (int p = 0; p < parts.length; p++) {
                    m = Math.min(m, published[parity][p]);
                }
                for (int p = worker; p < parts.length; p += workers) {
                    for (int from = 0; from < parts.length; from++) {
                        boxes[parity][from][p].drainInto(parts[p]);
                    }
                }
                w++;
            }
            // Nothing is left at or before endPs (m > endPs): only the clocks move, as one simulator's would.
            for (int p = worker; p < parts.length; p += workers) {
                parts[p].windowEndPs(Long.MIN_VALUE);
                parts[p].advanceClock(endPs);
            }
            if (windowCount != null) {
                windowCount[0] = w - firstWindow;
            }
        } catch (Throwable t) {
            failure[worker] = t;
            barrier.breakBarrier();
        }
    }
}
