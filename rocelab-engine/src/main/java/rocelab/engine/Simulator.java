package rocelab.engine;

import java.util.Arrays;

/**
 * The discrete-event loop of one simulation: pops the earliest wake-up and hands it to its handler.
 *
 * <p>Time is an integer number of picoseconds. Handlers register once during assembly and receive a dense id;
 * the calendar stores only primitives. One simulator runs on one thread; it is not thread-safe.
 *
 * <p>A simulator can also be one partition of a {@link PartitionedSimulator}: its handlers then get ids from the
 * whole model's id space (so the canonical event order is the same as in one simulator holding everything), and an
 * event for another partition's handler goes to that partition's mailbox instead of this calendar.
 */
public final class Simulator {
    private final EventCalendar calendar;
    private EventHandler[] handlers = new EventHandler[64];
    /** The handlers that read ahead ({@link Prefetching}), by id; null for the others. */
    private Prefetching[] prefetchers = new Prefetching[64];
    private int handlerCount;
    /** Null when this simulator holds the whole model; otherwise the partitioned run it is part of. */
    private final PartitionedSimulator partitioned;
    private final int partition;
    /** Events for other partitions must not fall before this time (the end of the current window). */
    private long windowEndPs = NOT_RUNNING;
    private int parity;
    private static final long NOT_RUNNING = Long.MIN_VALUE;
    private long nowPs;
    /** The event being handled: its handler, kind and argument (with {@link #nowPs}, its canonical key). */
    private int currentHandler = -1;
    private int currentKind;
    private long currentArg;
    private long eventsProcessed;
    private long fingerprint = 0xcbf29ce484222325L;
    private boolean fingerprinting;
    private boolean stopRequested;

    public Simulator() {
        this(1024);
    }

    public Simulator(int initialCalendarCapacity) {
        this(initialCalendarCapacity, null, 0);
    }

    Simulator(int initialCalendarCapacity, PartitionedSimulator partitioned, int partition) {
        this.calendar = new EventCalendar(initialCalendarCapacity);
        this.partitioned = partitioned;
        this.partition = partition;
    }

    /** Registers a handler and returns the id it must use when scheduling. */
    public int register(EventHandler handler) {
        int id = partitioned == null ? handlerCount : partitioned.nextHandlerId(partition);
        if (id >= handlers.length) {
            handlers = Arrays.copyOf(handlers, Math.max(id + 1, handlers.length * 2));
        }
        handlers[id] = handler;
        remember(id, handler);
        handlerCount = Math.max(handlerCount, id + 1);
        return id;
    }

    /**
     * In a partition of a {@link PartitionedSimulator}: this partition answers {@code handlerId}, a handler of the
     * serial simulator, with a handler of its own. Ordinary events this partition schedules for that id stay in its
     * own calendar, with the canonical key one simulator gives them (the same handler id, kind and argument), so a
     * handler that one simulator runs as one object can run as one object per partition, each handling the events of
     * what its partition owns (the workload driver of a graph whose dependencies stay inside partitions). The serial
     * simulator keeps its end-of-instant events for the id.
     */
    public void registerShared(int handlerId, EventHandler handler) {
        if (partitioned == null || partitioned.isSerial(this)
                || partitioned.ownerOf(handlerId) != partitioned.partitions()) {
            throw new IllegalStateException("a shared handler id is the serial simulator's, answered in a partition");
        }
        if (handlerId >= handlers.length) {
            handlers = Arrays.copyOf(handlers, Math.max(handlerId + 1, handlers.length * 2));
        }
        if (handlers[handlerId] != null) {
            throw new IllegalStateException("handler " + handlerId + " is already answered in partition " + partition);
        }
        handlers[handlerId] = handler;
        remember(handlerId, handler);
        handlerCount = Math.max(handlerCount, handlerId + 1);
    }

    /** Notes whether handler {@code id} reads ahead ({@link #run} tells it of its next event one event early). */
    private void remember(int id, EventHandler handler) {
        if (id >= prefetchers.length) {
            prefetchers = Arrays.copyOf(prefetchers, handlers.length);
        }
        prefetchers[id] = handler instanceof Prefetching p ? p : null;
    }

    /**
     * The run is over: the events still pending (timers that would only have expired) are dropped, and the calendar's
     * arrays and the handler table, sized for the run's peak, go to the collector. The clock and the counts stay. No
     * event of a handler registered before runs after this (the table no longer names them); one registered later
     * is numbered after them and runs.
     */
    public void endRun() {
        calendar.discardAll();
        handlers = new EventHandler[0];
        prefetchers = new Prefetching[0];
    }

    /** The partition this simulator is in a {@link PartitionedSimulator}; 0 when it holds the whole model. */
    public int partition() {
        return partition;
    }

    public long nowPs() {
        return nowPs;
    }

    private long lastEventPs;
    private long eventsNoted;

    /**
     * The canonical tie key of the event being handled (after its time: see {@link EventCalendar}); records written
     * by events of several partitions merge into one simulator's order by (time, this key, {@link #currentKind},
     * {@link #currentArg}).
     */
    public long currentTieKey() {
        return EventCalendar.tieKey(nowPs, currentHandler);
    }

    public int currentKind() {
        return currentKind;
    }

    public long currentArg() {
        return currentArg;
    }

    public long eventsProcessed() {
        return eventsProcessed;
    }

    public int pendingEvents() {
        return calendar.size();
    }

    public EventCalendar calendar() {
        return calendar;
    }

    /** Turns on a 64-bit fingerprint of the (time, handler, kind) stream, for golden determinism tests. */
    public void enableFingerprint() {
        fingerprinting = true;
    }

    public long fingerprint() {
        return fingerprint;
    }

    public void schedule(long atPs, int handlerId, int kind, long arg) {
        if (atPs < nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + atPs + " < " + nowPs);
        }
        if (partitioned != null && (handlerId >= handlers.length || handlers[handlerId] == null)) {
            scheduleRemote(atPs, handlerId, kind, arg);
            return;
        }
        calendar.add(atPs, handlerId, kind, arg);
    }

    /**
     * An event for this handler after every ordinary event of time {@code atPs} ({@link
     * EventCalendar#addAtEndOfInstant}). Only for a handler of this partition: it gathers what its own instant brought.
     */
    public void scheduleAtEndOfInstant(long atPs, int handlerId, int kind, long arg) {
        if (atPs < nowPs) {
            throw new IllegalStateException("event scheduled in the past: " + atPs + " < " + nowPs);
        }
        if (partitioned != null && (handlerId >= handlers.length || handlers[handlerId] == null)) {
            throw new IllegalStateException("end-of-instant event for handler " + handlerId + " of another partition");
        }
        if (partitioned != null && !partitioned.isSerial(this) && partitioned.hasSerialHandlers()) {
            // The serial simulator's events run after every partition's events of their instant: a partition's own
            // end-of-instant event could not be ordered against them.
            throw new IllegalStateException("end-of-instant events are for the serial simulator of a partitioned run");
        }
        calendar.addAtEndOfInstant(atPs, handlerId, kind, arg);
    }

    /** An event for a handler of another partition: it crosses at the next barrier, so it must be due after it. */
    private void scheduleRemote(long atPs, int handlerId, int kind, long arg) {
        if (windowEndPs == NOT_RUNNING) {
            // Assembly, on one thread: straight into the owner's calendar.
            partitioned.scheduleDirect(atPs, handlerId, kind, arg);
            return;
        }
        if (atPs < windowEndPs) {
            throw new IllegalStateException("event for another partition at " + atPs
                    + " ps, inside the window that ends at " + windowEndPs
                    + " ps: its delay is shorter than the lookahead");
        }
        partitioned.post(partition, atPs, handlerId, kind, arg);
    }

    /**
     * Whether this simulator is a partition running a window now: only then must what it sends another partition
     * wait for the barrier ({@link #crossing}). False for one simulator holding everything, during assembly and in
     * the serial phase between windows.
     */
    public boolean inWindow() {
        return windowEndPs != NOT_RUNNING;
    }

    /** The parity of the window running now (which of a {@link CrossingInbox}'s two lists the sender fills). */
    public int windowParity() {
        return parity;
    }

    /**
     * Something this partition sent another partition outside the engine's mailboxes (a frame on a cut link) is
     * due at {@code dueAtPs}: it must not fall inside the current window.
     */
    public void crossing(long dueAtPs) {
        if (dueAtPs < windowEndPs) {
            throw insideWindow(dueAtPs);
        }
    }

    /** The message apart, so that {@link #crossing} (once per frame on a cut link) stays small enough to inline. */
    private IllegalStateException insideWindow(long dueAtPs) {
        return new IllegalStateException("a crossing due at " + dueAtPs + " ps, inside the window that ends at "
                + windowEndPs + " ps: its delay is shorter than the lookahead");
    }

    /** The whole run's events processed so far: this simulator's, or every partition's when it is the serial one. */
    public long runEventsProcessed() {
        return partitioned != null && partitioned.isSerial(this) ? partitioned.eventsProcessed() : eventsProcessed;
    }

    /** The whole run's pending events (see {@link #runEventsProcessed}). */
    public int runPendingEvents() {
        return partitioned != null && partitioned.isSerial(this) ? partitioned.pendingEvents() : calendar.size();
    }

    /** The whole run's earliest pending event, Long.MAX_VALUE when none (see {@link #runEventsProcessed}). */
    public long runFirstEventPs() {
        if (partitioned != null && partitioned.isSerial(this)) {
            return partitioned.earliestPending();
        }
        return calendar.isEmpty() ? Long.MAX_VALUE : calendar.firstTimePs();
    }

    /** Sets the end of the current window; {@link Long#MIN_VALUE}: no window is running (assembly). */
    void windowEndPs(long endPs) {
        this.windowEndPs = endPs;
    }

    /** Whether the last {@link #run} returned because a handler called {@link #stop()}. */
    boolean stoppedEarly() {
        return stopRequested;
    }

    /** The clock moves to {@code endPs} without running anything (the partitioned run's end). */
    void advanceClock(long endPs) {
        advanceTo(endPs);
    }

    void parity(int p) {
        this.parity = p;
    }

    void addLocal(long atPs, int handlerId, int kind, long arg) {
        calendar.add(atPs, handlerId, kind, arg);
    }

    /** Asks the loop to return after the current event. */
    public void stop() {
        stopRequested = true;
    }

    /** Runs events with time at or before {@code endPs}; returns true if events remain. */
    public boolean runUntil(long endPs) {
        return run(endPs, Long.MAX_VALUE);
    }

    /**
     * Runs events with time at or before {@code endPs}, at most {@code maxEvents} of them. When the window is
     * exhausted (not the budget, not a stop), the clock stands at {@code endPs} afterwards.
     *
     * @return true if the calendar still holds events (the run may continue)
     */
    public boolean run(long endPs, long maxEvents) {
        stopRequested = false;
        EventCalendar cal = calendar;
        EventHandler[] table = handlers;
        Prefetching[] ahead = prefetchers;
        long budget = maxEvents;
        while (budget-- > 0) {
            if (cal.isEmpty()) {
                noteLastEvent();
                advanceTo(endPs);
                return false;
            }
            long t = cal.firstTimePs();
            if (t > endPs) {
                noteLastEvent();
                advanceTo(endPs);
                return true;
            }
            int handlerId = cal.firstHandlerId();
            int kind = cal.firstKind();
            long arg = cal.firstArg();
            cal.removeFirst();
            // The event after this one, when it shares this bucket: its handler reads now what it will read then,
            // so that the frame's cache misses (it was last touched a link delay or a queue's wait ago) overlap
            // this event's work. bench-B2 -2 to -5 %, the 1,024-host all-to-all -4 to -5 % (BENCHMARKS.md).
            int following = cal.following();
            if (following >= 0) {
                Prefetching p = ahead[cal.handlerOf(following)];
                if (p != null) {
                    p.prefetch(cal.kindOf(following), cal.argOf(following));
                }
            }
            nowPs = t;
            currentHandler = handlerId;
            currentKind = kind;
            currentArg = arg;
            eventsProcessed++;
            if (fingerprinting) {
                fingerprint = mix(mix(mix(fingerprint, t), handlerId), kind);
            }
            table[handlerId].onEvent(t, kind, arg);
            if (stopRequested) {
                break;
            }
        }
        noteLastEvent();
        return !cal.isEmpty();
    }

    /**
     * At each return of {@link #run}, not per event (and from fields, not a local the loop would keep live): the clock
     * stands at the last event handled if any was handled since the last note.
     */
    private void noteLastEvent() {
        if (eventsProcessed != eventsNoted) {
            eventsNoted = eventsProcessed;
            lastEventPs = nowPs;
        }
    }

    /**
     * When the last event handled happened (0 before any): {@link #nowPs} moves on to the end of a window that has no
     * events left, and a run that ends because nothing is left to happen ends here, not at that window's end.
     */
    public long lastEventPs() {
        return lastEventPs;
    }

    /** Time passes up to the end of the requested window even when nothing happens in it. */
    private void advanceTo(long endPs) {
        if (endPs != Long.MAX_VALUE && endPs > nowPs) {
            nowPs = endPs;
        }
    }

    private static long mix(long h, long v) {
        h ^= v;
        h *= 0x100000001b3L;
        return h ^ (h >>> 29);
    }
}
