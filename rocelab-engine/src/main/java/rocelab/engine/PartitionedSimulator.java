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
 * <p>Each window costs two barriers: after the first, one thread alone moves what crossed (mailboxes and the
 * {@link CrossingInbox}es) into the receivers' calendars, runs the {@link #serial() serial simulator}'s next event
 * if it is due, calls the {@link WindowHook}, and computes the next window; after the second every thread runs its
 * partitions' share of that window. The serial simulator holds the handlers that read or drive every partition
 * (a sampler, a workload's timed starts): its events must be end-of-instant events
 * ({@link Simulator#scheduleAtEndOfInstant}), which one simulator runs after every ordinary event of their
 * picosecond, so a window ends just after the next one's instant and it runs between windows with every partition
 * idle, seeing what one simulator's handler would. It runs one event per window, so the ordinary events an
 * end-of-instant event schedules at its own time run (in the next window) before the instant's next end-of-instant
 * event, as in one simulator.
 * A handler must not call {@link Simulator#stop()} in a partition (where the run stops would depend on the
 * partitions): it is reported as an error; the {@link WindowHook} can end the run instead.
 */
public final class PartitionedSimulator {
    private final Simulator[] parts;
    /** Handlers that touch every partition; their end-of-instant events run between windows. */
    private final Simulator serial;
    private final long lookaheadPs;
    private int[] owner = new int[64];
    private int handlerCount;
    private int serialHandlers;
    /** [parity][from][to]; {@code to == partitions()} is the serial simulator. */
    private final Mailbox[][][] boxes;
    /** The parity of the window each partition is running: which mailboxes it writes. */
    private final int[] parityOf;
    private CrossingInbox[][] inboxes;
    private int[] inboxCount;
    private WindowHook hook;
    private long windows;
    /** Per window, the events of the busiest partition, summed over windows (the critical path in events). */
    private long busiestEventsSum;
    private final long[] eventsBefore;
    /** Per worker (every eighth slot, so that no two workers write one cache line), nanoseconds at the barriers. */
    private long[] waitNanos = new long[0];
    /** Nanoseconds of worker 0 in the serial phases; nanoseconds of wall time in {@link #runUntil}, times threads. */
    private long serialNanos;
    private long threadNanos;

    /** Written by the thread that runs the serial phase, read by every thread after the barrier. */
    private long windowEnd;
    private int windowParity;
    /** The parity of the window that ended last ({@link #lastWindowParity}). */
    private int lastParity;
    private boolean finished;
    private long runEnd;

    /** Called after every window, on one thread, with every partition idle and everything that crossed delivered. */
    public interface WindowHook {
        /**
         * @param windowEndPs the end (exclusive) of the window that just ran: every event before it has run
         * @param endPs the time the run goes to (inclusive)
         * @return the time the run goes to from now on: {@code endPs}, or earlier (not before the window's end less
         *     one) to end the run sooner
         */
        long afterWindow(long windowEndPs, long endPs);
    }

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
        this.serial = new Simulator(64, this, partitions);
        this.boxes = new Mailbox[2][partitions][partitions + 1];
        for (Mailbox[][] parity : boxes) {
            for (Mailbox[] from : parity) {
                for (int to = 0; to <= partitions; to++) {
                    from[to] = new Mailbox();
                }
            }
        }
        this.parityOf = new int[partitions];
        this.inboxes = new CrossingInbox[partitions][8];
        this.inboxCount = new int[partitions];
        this.eventsBefore = new long[partitions];
    }

    public int partitions() {
        return parts.length;
    }

    public Simulator partition(int index) {
        return parts[index];
    }

    /** The run is over: every partition's and the serial simulator's {@link Simulator#endRun}. */
    public void endRun() {
        for (Simulator s : parts) {
            s.endRun();
        }
        serial.endRun();
    }

    /**
     * The simulator for handlers that read or drive every partition. Its events must be end-of-instant events; they
     * run between windows, alone.
     */
    public Simulator serial() {
        return serial;
    }

    boolean isSerial(Simulator s) {
        return s == serial;
    }

    boolean hasSerialHandlers() {
        return serialHandlers > 0;
    }

    public long lookaheadPs() {
        return lookaheadPs;
    }

    /** {@code inbox} is drained into partition {@code partition} after every window (see {@link CrossingInbox}). */
    public void addInbox(int partition, CrossingInbox inbox) {
        if (inboxCount[partition] == inboxes[partition].length) {
            inboxes[partition] = Arrays.copyOf(inboxes[partition], inboxCount[partition] * 2);
        }
        inboxes[partition][inboxCount[partition]++] = inbox;
    }

    /** Called after every window from now on (one hook; null: none). */
    public void windowHook(WindowHook h) {
        this.hook = h;
    }

    /** The partition that owns handler {@code handlerId} ({@link #partitions()} for the serial simulator). */
    public int ownerOf(int handlerId) {
        if (handlerId < 0 || handlerId >= handlerCount) {
            throw noHandler(handlerId);
        }
        return owner[handlerId];
    }

    /** The message apart, so that {@link #ownerOf} stays small enough to inline (inline concatenation is longer). */
    private static IllegalArgumentException noHandler(int handlerId) {
        return new IllegalArgumentException("no handler " + handlerId);
    }

    public long eventsProcessed() {
        long n = serial.eventsProcessed();
        for (Simulator s : parts) {
            n += s.eventsProcessed();
        }
        return n;
    }

    public int pendingEvents() {
        int n = serial.pendingEvents();
        for (Simulator s : parts) {
            n += s.pendingEvents();
        }
        return n;
    }

    /**
     * For the {@link WindowHook}: the parity of the window that just ended, the one its partitions' notes were written
     * under ({@link Simulator#windowParity}); the next window writes under the other.
     */
    public int lastWindowParity() {
        return lastParity;
    }

    /** Windows run so far. */
    public long windows() {
        return windows;
    }

    /**
     * The events of each window's busiest partition, summed over the windows: on as many threads as partitions, the
     * run takes at least this many events' time (against {@link #eventsProcessed()} on one).
     */
    public long busiestPartitionEvents() {
        return busiestEventsSum;
    }

    /**
     * The share of the threads' wall time in {@link #runUntil} spent waiting at the windows' barriers (for the
     * slowest partition of each window, and for the serial phase): 0 on one thread. Machine time, not the model's.
     */
    public double waitShare() {
        long waited = 0;
        for (int i = 0; i < waitNanos.length; i += 8) {
            waited += waitNanos[i];
        }
        return threadNanos == 0 ? 0 : Math.min(1, (double) waited / threadNanos);
    }

    /**
     * Per thread, the share of its wall time in {@link #runUntil} spent waiting at the windows' barriers (the first
     * thread's includes none of the serial phases, which it runs): where one waits more, the other's partitions cost
     * more per window.
     */
    public double[] waitSharesByThread() {
        double[] shares = new double[waitNanos.length / 8];
        int threads = Math.max(1, shares.length);
        for (int w = 0; w < shares.length; w++) {
            shares[w] = threadNanos == 0 ? 0 : Math.min(1, (double) waitNanos[8 * w] * threads / threadNanos);
        }
        return shares;
    }

    /** The share of the threads' wall time in {@link #runUntil} that one thread spent alone between windows. */
    public double serialShare() {
        return threadNanos == 0 ? 0 : Math.min(1, (double) serialNanos / threadNanos);
    }

    /** The clock after {@link #runUntil}: every partition stands at the same time then. */
    public long nowPs() {
        return parts[0].nowPs();
    }

    /** The last event any partition handled ({@link Simulator#lastEventPs}), the serial part's included. */
    public long lastEventPs() {
        long last = serial.lastEventPs();
        for (Simulator p : parts) {
            last = Math.max(last, p.lastEventPs());
        }
        return last;
    }

    int nextHandlerId(int partition) {
        if (handlerCount == owner.length) {
            owner = Arrays.copyOf(owner, handlerCount * 2);
        }
        owner[handlerCount] = partition;
        if (partition == parts.length) {
            serialHandlers++;
        }
        return handlerCount++;
    }

    void scheduleDirect(long atPs, int handlerId, int kind, long arg) {
        int to = ownerOf(handlerId);
        (to == parts.length ? serial : parts[to]).addLocal(atPs, handlerId, kind, arg);
    }

    /** Called on the sender's thread during a window. */
    void post(int from, long atPs, int handlerId, int kind, long arg) {
        int to = ownerOf(handlerId);
        boxes[parityOf[from]][from][to].add(atPs, handlerId, kind, arg);
    }

    /** The earliest pending event of any partition or the serial simulator, Long.MAX_VALUE when none. */
    long earliestPending() {
        long m = serial.calendar().isEmpty() ? Long.MAX_VALUE : serial.calendar().firstTimePs();
        for (Simulator s : parts) {
            if (!s.calendar().isEmpty()) {
                m = Math.min(m, s.calendar().firstTimePs());
            }
        }
        return m;
    }

    /**
     * Runs every event with time at or before {@code endPs} (or the earlier end the {@link WindowHook} sets) on
     * {@code threads} threads (the calling one and {@code threads - 1} more, each running a fixed share of the
     * partitions), then returns with every clock at that end (or at the last event, when the calendars ran empty
     * and {@code endPs} is unbounded).
     *
     * @return true if events remain
     */
    public boolean runUntil(long endPs, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one thread: " + threads);
        }
        int workers = Math.min(threads, parts.length);
        runEnd = endPs;
        windowParity = (int) (windows & 1);
        nextWindow();
        WindowBarrier barrier = new WindowBarrier(workers);
        Throwable[] failure = new Throwable[workers];
        if (waitNanos.length < 8 * workers) {
            waitNanos = Arrays.copyOf(waitNanos, 8 * workers);
        }
        long startNanos = System.nanoTime();
        List<Thread> started = new ArrayList<>();
        for (int w = 1; w < workers; w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, workers, barrier, failure), "rocelab-partition-" + w);
            t.setDaemon(true);
            started.add(t);
            t.start();
        }
        work(0, workers, barrier, failure);
        for (Thread t : started) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the partitions", e);
            }
        }
        threadNanos += (System.nanoTime() - startNanos) * workers;
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
        // Nothing is left at or before the end: only the clocks move, as one simulator's would.
        for (Simulator s : parts) {
            s.windowEndPs(Long.MIN_VALUE);
            s.advanceClock(runEnd);
        }
        serial.advanceClock(runEnd);
        return pendingEvents() > 0;
    }

    /** One thread's loop: partitions worker, worker + workers, ... of every window; worker 0 runs the serial phase. */
    private void work(int worker, int workers, WindowBarrier barrier, Throwable[] failure) {
        try {
            while (!finished) {
                long end = windowEnd;
                int parity = windowParity;
                for (int p = worker; p < parts.length; p += workers) {
                    Simulator s = parts[p];
                    parityOf[p] = parity;
                    s.parity(parity);
                    s.windowEndPs(end);
                    s.run(end - 1, Long.MAX_VALUE);
                    if (s.stoppedEarly()) {
                        throw new IllegalStateException("a handler stopped partition " + p
                                + ": stop() is not supported in a partitioned run");
                    }
                }
                long arrived = System.nanoTime();
                barrier.await(worker);
                long passed = System.nanoTime();
                if (worker == 0) {
                    serialPhase(end, parity);
                }
                long served = System.nanoTime();
                barrier.await(worker);
                long left = System.nanoTime();
                waitNanos[8 * worker] += passed - arrived + left - served;
                if (worker == 0) {
                    serialNanos += served - passed;
                }
            }
        } catch (Throwable t) {
            failure[worker] = t;
            barrier.breakBarrier();
        }
    }

    /** Between two windows, alone: deliver what crossed, run the serial simulator and the hook, plan the next window. */
    private void serialPhase(long end, int parity) {
        long busiest = 0;
        for (int p = 0; p < parts.length; p++) {
            Simulator s = parts[p];
            s.windowEndPs(Long.MIN_VALUE);
            busiest = Math.max(busiest, s.eventsProcessed() - eventsBefore[p]);
            eventsBefore[p] = s.eventsProcessed();
        }
        busiestEventsSum += busiest;
        windows++;
        for (int to = 0; to <= parts.length; to++) {
            Simulator into = to == parts.length ? serial : parts[to];
            for (int from = 0; from < parts.length; from++) {
                boxes[parity][from][to].drainInto(into);
            }
        }
        for (int p = 0; p < parts.length; p++) {
            CrossingInbox[] in = inboxes[p];
            for (int i = 0; i < inboxCount[p]; i++) {
                in[i].drain(parity);
            }
        }
        lastParity = parity;
        if (hook != null) {
            runEnd = Math.min(runEnd, hook.afterWindow(end, runEnd));
        }
        if (!serial.calendar().isEmpty() && serial.calendar().firstTimePs() < end
                && serial.calendar().firstTimePs() <= runEnd) {
            serial.run(serial.calendar().firstTimePs(), 1);
        }
        windowParity = parity ^ 1;
        nextWindow();
    }

    /**
     * The next window: from the earliest pending event M to before M + lookahead, and not past the instant of the
     * serial simulator's next event or the run's end; {@link #finished} when nothing is left at or before the end.
     */
    private void nextWindow() {
        long m = earliestPending();
        if (m == Long.MAX_VALUE || m > runEnd) {
            finished = true;
            return;
        }
        finished = false;
        long e = satAdd(m, lookaheadPs);
        if (!serial.calendar().isEmpty()) {
            e = Math.min(e, satAdd(serial.calendar().firstTimePs(), 1));
        }
        windowEnd = Math.min(e, satAdd(runEnd, 1));
    }

    private static long satAdd(long a, long b) {
        long r = a + b;
        return r < a ? Long.MAX_VALUE : r;
    }
}
