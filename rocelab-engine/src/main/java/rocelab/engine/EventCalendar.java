package rocelab.engine;

import java.util.Arrays;

/**
 * The future event set: a timing wheel of 1.024 ns buckets covering the next 8.4 us, plus a binary heap for
 * events beyond that window (timers). Entries are primitives in parallel arrays of nodes, never objects.
 *
 * <p>Order is canonical: time, then a hash of (time, receiving handler), then the handler's id, its kind, its
 * argument. It depends only on the events themselves, never on when they were scheduled, so a run split into
 * partitions (each with its own calendar, events crossing between them at window barriers) pops every partition's
 * events in the order one calendar pops them all. Two events equal in all fields are indistinguishable (the handler
 * is called with the same values either way), so the order is total where it matters. The hash is there for
 * fairness: ordering equal times by the handler id alone would let the same link, port or RNIC go first at every
 * tie of a symmetric fabric (the same flows always queued first, marked last), which measurably synchronised DCQCN
 * senders; the hash lets the winner of a tie change from one picosecond to the next, as the insertion order used to.
 * Handler ids are handed out during assembly in a fixed order, so the tie order is reproducible.
 *
 * <p>A packet simulation schedules almost every event a few hundred nanoseconds ahead, where a wheel costs O(1) per
 * operation with few mispredicted branches, while a heap pays a logarithm of branchy comparisons; with about a
 * thousand pending events the wheel was several times faster here. Nodes are recycled through a free list, so steady state allocates nothing.
 */
public final class EventCalendar {
    private static final int SLOT_SHIFT = 10;
    private static final int BUCKETS = 1 << 13;
    private static final int MASK = BUCKETS - 1;
    private static final int NONE = -1;

    private long[] time;
    /**
     * The tie-break after time, in one compare: the phase in the top bit ({@link #END_OF_INSTANT} last), then
     * {@link #tieHash} (31 bits), then the handler id in the low 32 bits.
     */
    private long[] tie;
    /** The top bit of {@link #tie}: 0 for ordinary events, set for events at the end of their instant. */
    private static final long END_OF_INSTANT = Long.MIN_VALUE;
    private int[] kind;
    private long[] arg;
    private int[] next;
    private int freeList = NONE;
    private int used;

    private final int[] bucket = new int[BUCKETS];
    private final int[] bucketTail = new int[BUCKETS];
    /**
     * One bit per bucket, set while the bucket holds entries: the cursor jumps to the next occupied bucket 64 at a
     * time instead of stepping through empty ones (flow-level runs leave microseconds, thousands of buckets,
     * between instants).
     */
    private final long[] occupied = new long[BUCKETS >>> 6];
    private long cursorSlot;
    private int wheelCount;

    private int[] far = new int[64];
    private int farCount;

    private int size;
    private int first = NONE;
    private int growths;

    public EventCalendar(int initialCapacity) {
        int capacity = Math.max(16, initialCapacity);
        time = new long[capacity];
        tie = new long[capacity];
        kind = new int[capacity];
        arg = new long[capacity];
        next = new int[capacity];
        Arrays.fill(bucket, NONE);
        Arrays.fill(bucketTail, NONE);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** How many times the node arrays had to grow; steady state must not grow them. */
    public int growths() {
        return growths;
    }

    public long firstTimePs() {
        return time[locateFirst()];
    }

    public int firstHandlerId() {
        return (int) tie[locateFirst()];
    }

    public int firstKind() {
        return kind[locateFirst()];
    }

    public long firstArg() {
        return arg[locateFirst()];
    }

    /** @param handler a handler id (non-negative) */
    public void add(long atPs, int handler, int eventKind, long eventArg) {
        add(atPs, handler, eventKind, eventArg, 0L);
    }

    /**
     * An event that runs after every ordinary event of its picosecond (among such events, in the canonical order):
     * for a handler that gathers what the instant brings and acts once on all of it, such as the fluid network's
     * rate recomputation after the instant's arrivals and departures. The order stays canonical: it depends only on
     * the event.
     */
    public void addAtEndOfInstant(long atPs, int handler, int eventKind, long eventArg) {
        add(atPs, handler, eventKind, eventArg, END_OF_INSTANT);
    }

    private void add(long atPs, int handler, int eventKind, long eventArg, long phase) {
        if (handler < 0) {
            throw new IllegalArgumentException("negative handler id: " + handler);
        }
        int n = allocate();
        time[n] = atPs;
        tie[n] = phase | (long) tieHash(atPs, handler) << 32 | handler;
        kind[n] = eventKind;
        arg[n] = eventArg;
        long slot = atPs >> SLOT_SHIFT;
        if (slot < cursorSlot) {
            // Only when a caller peeked ahead, or the calendar ran empty: the cursor steps back.
            rewindTo(slot);
        }
        size++;
        if (slot < cursorSlot + BUCKETS) {
            insertInWheel(n, slot);
            if (first != NONE && before(n, first)) {
                first = n;
            }
        } else {
            pushFar(n);
        }
    }

    public void removeFirst() {
        int n = locateFirst();
        int b = (int) (cursorSlot & MASK);
        bucket[b] = next[n];
        if (bucket[b] == NONE) {
            bucketTail[b] = NONE;
            occupied[b >>> 6] &= ~(1L << b);
        }
        wheelCount--;
        size--;
        next[n] = freeList;
        freeList = n;
        first = NONE;
    }

    /** Finds the earliest entry, moving the cursor to its bucket; the calendar must not be empty. */
    private int locateFirst() {
        if (first != NONE) {
            return first;
        }
        if (size == 0) {
            throw new IllegalStateException("the event calendar is empty");
        }
        if (wheelCount == 0) {
            cursorSlot = time[far[0]] >> SLOT_SHIFT;
            migrateFar();
        }
        if (bucket[(int) (cursorSlot & MASK)] == NONE) {
            // Far entries that the moved window takes in land behind the occupied bucket found (they were beyond
            // the old window's end), so one migration after the jump is what stepping bucket by bucket would do.
            cursorSlot += distanceToOccupied();
            if (farCount > 0 && (time[far[0]] >> SLOT_SHIFT) < cursorSlot + BUCKETS) {
                migrateFar();
            }
        }
        first = bucket[(int) (cursorSlot & MASK)];
        return first;
    }

    /** Buckets from the cursor's to the next occupied one; the wheel must hold an entry. */
    private int distanceToOccupied() {
        int from = (int) (cursorSlot & MASK);
        int words = occupied.length;
        int w = from >>> 6;
        long word = occupied[w] & (-1L << from);
        for (int k = 0; k <= words; k++) {
            if (word != 0) {
                return ((w << 6) + Long.numberOfTrailingZeros(word) - from) & MASK;
            }
            w = (w + 1) & (words - 1);
            word = occupied[w];
        }
        throw new IllegalStateException("the wheel holds no entry");
    }

    /**
     * Sorted insert into the bucket of {@code slot}: after every entry that is not later than this one. Most events
     * are scheduled in time order within a 1 ns bucket, so the common case appends at the tail in O(1); an earlier
     * time, or an equal time whose tie hash goes first, walks the (short) list.
     */
    private void insertInWheel(int n, long slot) {
        int b = (int) (slot & MASK);
        int tail = bucketTail[b];
        if (tail == NONE) {
            bucket[b] = n;
            bucketTail[b] = n;
            next[n] = NONE;
            occupied[b >>> 6] |= 1L << b;
        } else if (!before(n, tail)) {
            next[tail] = n;
            next[n] = NONE;
            bucketTail[b] = n;
        } else {
            int prev = NONE;
            int cur = bucket[b];
            while (!before(n, cur)) {
                prev = cur;
                cur = next[cur];
            }
            next[n] = cur;
            if (prev == NONE) {
                bucket[b] = n;
            } else {
                next[prev] = n;
            }
        }
        wheelCount++;
    }

    /** Moves the far events that now fall inside the wheel's window into the wheel. */
    private void migrateFar() {
        long windowEnd = cursorSlot + BUCKETS;
        while (farCount > 0 && (time[far[0]] >> SLOT_SHIFT) < windowEnd) {
            int n = popFar();
            insertInWheel(n, time[n] >> SLOT_SHIFT);
        }
    }

    /**
     * Moves the cursor back to {@code slot}. The window shrinks at its far end: entries in the slots that fall out
     * of it go to the far heap. Only those buckets are visited, so the cost is the distance moved, not the wheel.
     */
    private void rewindTo(long slot) {
        long oldEnd = cursorSlot + BUCKETS;
        long from = Math.max(slot + BUCKETS, cursorSlot);
        if (wheelCount > 0) {
            for (long k = from; k < oldEnd; k++) {
                int b = (int) (k & MASK);
                int cur = bucket[b];
                bucket[b] = NONE;
                bucketTail[b] = NONE;
                occupied[b >>> 6] &= ~(1L << b);
                while (cur != NONE) {
                    int nx = next[cur];
                    pushFar(cur);
                    wheelCount--;
                    cur = nx;
                }
            }
        }
        cursorSlot = slot;
        first = NONE;
    }

    /** The tie key of an ordinary event of {@code handler} at {@code atPs}: compared after the time. */
    public static long tieKey(long atPs, int handler) {
        return (long) tieHash(atPs, handler) << 32 | handler;
    }

    /** Which handler goes first among those with events at {@code atPs}: a mix of both, changing every picosecond. */
    static int tieHash(long atPs, int handler) {
        long z = atPs * 0x9E3779B97F4A7C15L + handler;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) (z >>> 33);
    }

    private boolean before(int a, int b) {
        long ta = time[a];
        long tb = time[b];
        if (ta != tb) {
            return ta < tb;
        }
        long ka = tie[a];
        long kb = tie[b];
        if (ka != kb) {
            // unsigned: the end-of-instant bit sorts last; ordinary keys (top bit clear) compare as before
            return (ka ^ Long.MIN_VALUE) < (kb ^ Long.MIN_VALUE);
        }
        return kind[a] < kind[b] || kind[a] == kind[b] && arg[a] < arg[b];
    }

    private int allocate() {
        if (freeList != NONE) {
            int n = freeList;
            freeList = next[n];
            return n;
        }
        if (used == time.length) {
            int capacity = time.length * 2;
            time = Arrays.copyOf(time, capacity);
            tie = Arrays.copyOf(tie, capacity);
            kind = Arrays.copyOf(kind, capacity);
            arg = Arrays.copyOf(arg, capacity);
            next = Arrays.copyOf(next, capacity);
            growths++;
        }
        return used++;
    }

    private void pushFar(int n) {
        if (farCount == far.length) {
            far = Arrays.copyOf(far, farCount * 2);
            growths++;
        }
        int i = farCount++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(n, far[parent])) {
                break;
            }
            far[i] = far[parent];
            i = parent;
        }
        far[i] = n;
    }

    private int popFar() {
        int top = far[0];
        int last = far[--farCount];
        int i = 0;
        int half = farCount >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            if (c + 1 < farCount && before(far[c + 1], far[c])) {
                c++;
            }
            if (!before(far[c], last)) {
                break;
            }
            far[i] = far[c];
            i = c;
        }
        if (farCount > 0) {
            far[i] = last;
        }
        return top;
    }
}
