package rocelab.engine;

import java.util.Arrays;

/**
 * The future event set: a timing wheel of 128 ps buckets covering the next 7.3-8.4 us, a coarse wheel of 1.05 us
 * buckets covering the next 17 ms behind it (timers), and a binary heap for events beyond that. Entries are
 * primitives in arrays of nodes (a node's fields side by side in half a cache line), never objects.
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
 *
 * <p>Buckets are 128 ps wide (65,536 of them over the same 8.4 us): a bucket is a sorted list, and a 100 Gb/s
 * all-to-all of 128 hosts (bench-B2) keeps about 18 events per nanosecond pending, scheduled out of time order
 * within it and, at equal times, in the order of their tie hash rather than of scheduling; 1.024 ns buckets walked
 * 5.2 entries per insertion there (84.7 M steps for 16.3 M events), 128 ps buckets 0.55.
 *
 * <p>Timers further ahead wait in the coarse wheel, unsorted, in first-in order, and join the fine wheel a coarse
 * bucket at a time as the cursor reaches it. They were all in the heap before: a 1,024-host all-to-all keeps one
 * DCQCN rate-increase timer (300 us ahead) pending per recovering QP, 760,000 of them, and every pop from a heap that
 * size walked some 20 levels of cold nodes. The coarse wheel costs one append and one move per timer.
 * Which structure holds an entry changes nothing in the order (fine buckets are sorted lists, and every entry passes
 * through one before it is popped).
 */
public final class EventCalendar {
    private static final int SLOT_SHIFT = 7;
    private static final int BUCKETS = 1 << 16;
    private static final int MASK = BUCKETS - 1;
    /** Fine slots per coarse bucket: 8,192 x 128 ps = 1.05 us. */
    private static final int COARSE_SHIFT = 13;
    /**
     * Coarse buckets the fine wheel takes: it holds the entries of the cursor's coarse bucket and the next SPAN - 1,
     * so it never spans more than its BUCKETS slots (no two of its entries share a bucket a revolution apart).
     */
    private static final int SPAN = BUCKETS >>> COARSE_SHIFT;
    /** Coarse buckets, after the fine wheel's: 16,384 x 1.05 us = 17.2 ms. */
    private static final int COARSE = 1 << 14;
    private static final int COARSE_MASK = COARSE - 1;
    private static final int NONE = -1;

    /**
     * The nodes, four longs each, so one node is half a cache line: its time, its tie key (the phase in the top bit
     * ({@link #END_OF_INSTANT} last), then {@link #tieHash} (31 bits), then the handler id in the low 32 bits, one
     * compare after the time), its argument and its kind. A 1,024-host run keeps most of a million nodes pending
     * (timers), so a node it reads is often cold: one miss instead of one per field.
     */
    private long[] node;
    /** Each node's successor in its bucket (or the free list): apart, as the lists are walked and relinked often. */
    private int[] next;
    /** The top bit of a tie key: 0 for ordinary events, set for events at the end of their instant. */
    private static final long END_OF_INSTANT = Long.MIN_VALUE;
    private int freeList = NONE;
    private int used;

    /** Each bucket's first entry at {@code 2b} and last at {@code 2b + 1}: one cache line for both. */
    private final int[] ends = new int[2 * BUCKETS];
    /**
     * One bit per bucket, set while the bucket holds entries: the cursor jumps to the next occupied bucket 64 at a
     * time instead of stepping through empty ones (flow-level runs leave microseconds, thousands of buckets,
     * between instants), and {@link #occupiedWords} (one bit per word of this, set while the word is not zero) 4,096
     * at a time.
     */
    private final long[] occupied = new long[BUCKETS >>> 6];
    private final long[] occupiedWords = new long[BUCKETS >>> 12];
    private long cursorSlot;
    /** The first slot beyond the fine wheel's window: that of coarse bucket (cursor's) + SPAN. */
    private long fineEndSlot = (long) SPAN << COARSE_SHIFT;
    private int wheelCount;

    /** Each coarse bucket's first entry at {@code 2k} and last at {@code 2k + 1}; its entries in first-in order. */
    private final int[] coarseEnds = new int[2 * COARSE];
    private final long[] coarseOccupied = new long[COARSE >>> 6];
    private int coarseCount;

    private int[] far = new int[64];
    private int farCount;

    private int size;
    private int first = NONE;
    private int growths;

    public EventCalendar(int initialCapacity) {
        int capacity = Math.max(16, initialCapacity);
        node = new long[4 * capacity];
        next = new int[capacity];
        Arrays.fill(ends, NONE);
        Arrays.fill(coarseEnds, NONE);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Drops every pending event and gives the node arrays back to the collector, keeping a small capacity: for a run
     * that is over, whose calendar grew to the most events it ever held at once (a 1,024-host all-to-all's: four
     * million, 38 MB) while its outputs need the room. The clock stays where it is; events may be added again.
     */
    public void discardAll() {
        node = new long[4 * 16];
        next = new int[16];
        freeList = NONE;
        used = 0;
        Arrays.fill(ends, NONE);
        Arrays.fill(occupied, 0);
        Arrays.fill(occupiedWords, 0);
        wheelCount = 0;
        Arrays.fill(coarseEnds, NONE);
        Arrays.fill(coarseOccupied, 0);
        coarseCount = 0;
        far = new int[64];
        farCount = 0;
        size = 0;
        first = NONE;
    }

    public int size() {
        return size;
    }

    /** How many times the node arrays had to grow; steady state must not grow them. */
    public int growths() {
        return growths;
    }

    public long firstTimePs() {
        return timeOf(locateFirst());
    }

    public int firstHandlerId() {
        return (int) tieOf(locateFirst());
    }

    public int firstKind() {
        return kindOf(locateFirst());
    }

    public long firstArg() {
        return argOf(locateFirst());
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
        int at = 4 * n;
        node[at] = atPs;
        node[at + 1] = phase | (long) tieHash(atPs, handler) << 32 | handler;
        node[at + 2] = eventArg;
        node[at + 3] = eventKind;
        long slot = atPs >> SLOT_SHIFT;
        if (slot < cursorSlot) {
            // Only when a caller peeked ahead, or the calendar ran empty: the cursor steps back.
            rewindTo(slot);
        }
        size++;
        if (slot < fineEndSlot) {
            insertInWheel(n, slot);
            if (first != NONE && before(n, first)) {
                first = n;
            }
        } else {
            // Later than every entry of the fine wheel, so never the first.
            placeBeyondWheel(n, slot);
        }
    }

    /** Puts entry {@code n} of {@code slot} where the cursor's window says. */
    private void place(int n, long slot) {
        if (slot < fineEndSlot) {
            insertInWheel(n, slot);
        } else {
            placeBeyondWheel(n, slot);
        }
    }

    private void placeBeyondWheel(int n, long slot) {
        long k = slot >> COARSE_SHIFT;
        if (k < (fineEndSlot >> COARSE_SHIFT) + COARSE) {
            appendCoarse(n, (int) (k & COARSE_MASK));
        } else {
            pushFar(n);
        }
    }

    private void appendCoarse(int n, int cb) {
        int tail = coarseEnds[2 * cb + 1];
        setNext(n, NONE);
        if (tail == NONE) {
            coarseEnds[2 * cb] = n;
            coarseOccupied[cb >>> 6] |= 1L << cb;
        } else {
            setNext(tail, n);
        }
        coarseEnds[2 * cb + 1] = n;
        coarseCount++;
    }

    /** Empties coarse bucket {@code cb}, returning its first entry (its entries still linked by {@link #next}). */
    private int takeCoarse(int cb) {
        int n = coarseEnds[2 * cb];
        coarseEnds[2 * cb] = NONE;
        coarseEnds[2 * cb + 1] = NONE;
        coarseOccupied[cb >>> 6] &= ~(1L << cb);
        return n;
    }

    public void removeFirst() {
        int n = locateFirst();
        int b = (int) (cursorSlot & MASK);
        int rest = nextOf(n);
        ends[2 * b] = rest;
        if (rest == NONE) {
            ends[2 * b + 1] = NONE;
            markEmpty(b);
        }
        wheelCount--;
        size--;
        setNext(n, freeList);
        freeList = n;
        first = NONE;
    }

    /**
     * After {@link #removeFirst}: the node now first in the cursor's bucket (the next event, unless an insert goes
     * before it), or -1 when that bucket is empty. It moves nothing. (Looking on to the next occupied bucket as well
     * reached more events and made bench-B2 1-3 % slower: BENCHMARKS.md, tenth session.)
     */
    public int following() {
        return ends[2 * (int) (cursorSlot & MASK)];
    }

    /** The handler id of node {@code n} ({@link #following}). */
    public int handlerOf(int n) {
        return (int) tieOf(n);
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
            // The fine wheel is empty: move its window on to the first coarse bucket with entries (the cursor
            // where that bucket is the window's last), or else to the first entry of the heap.
            long to;
            if (coarseCount > 0) {
                long k = firstOccupiedCoarse((cursorSlot >> COARSE_SHIFT) + SPAN);
                to = (k - SPAN + 1) << COARSE_SHIFT;
            } else {
                to = timeOf(far[0]) >> SLOT_SHIFT;
            }
            moveCursor(to);
        }
        if (ends[2 * (int) (cursorSlot & MASK)] == NONE) {
            // Entries that the moved window takes in land behind the occupied bucket found (they were beyond the
            // old window's end), so taking them in after the move is what stepping bucket by bucket would do.
            moveCursor(cursorSlot + distanceToOccupied());
        }
        first = ends[2 * (int) (cursorSlot & MASK)];
        return first;
    }

    /**
     * Moves the cursor forward to {@code slot}. When it enters a later coarse bucket, the fine wheel's window takes
     * in the coarse buckets it now reaches, and the coarse wheel the heap's entries it now reaches.
     */
    private void moveCursor(long slot) {
        long from = cursorSlot >> COARSE_SHIFT;
        cursorSlot = slot;
        long to = slot >> COARSE_SHIFT;
        if (to == from) {
            return;
        }
        fineEndSlot = (to + SPAN) << COARSE_SHIFT;
        // The coarse buckets [from + SPAN, to + SPAN), at most every one of them, join the fine wheel.
        emptyCoarse(from + SPAN, Math.min(to, from + COARSE) + SPAN, true);
        long coarseEnd = to + SPAN + COARSE;
        while (farCount > 0 && (timeOf(far[0]) >> (SLOT_SHIFT + COARSE_SHIFT)) < coarseEnd) {
            int n = popFar();
            place(n, timeOf(n) >> SLOT_SHIFT);
        }
    }

    /**
     * Empties the coarse buckets [{@code from}, {@code end}) (at most COARSE of them; only occupied ones are visited,
     * 64 empty ones per word read): their entries go into the fine wheel, or into the heap if not {@code intoWheel}.
     */
    private void emptyCoarse(long from, long end, boolean intoWheel) {
        for (long k = nextOccupied(coarseOccupied, COARSE_MASK, from, end); k < end && coarseCount > 0;
                k = nextOccupied(coarseOccupied, COARSE_MASK, k + 1, end)) {
            int n = takeCoarse((int) (k & COARSE_MASK));
            while (n != NONE) {
                int nx = nextOf(n);
                coarseCount--;
                if (intoWheel) {
                    insertInWheel(n, timeOf(n) >> SLOT_SHIFT);
                } else {
                    pushFar(n);
                }
                n = nx;
            }
        }
    }

    /**
     * The first slot at or after {@code k} and before {@code end} whose bucket's bit is set in {@code bits} (one bit
     * per bucket of a wheel of {@code mask + 1}), or {@code end}: empty buckets are skipped 64 per word read.
     */
    private static long nextOccupied(long[] bits, int mask, long k, long end) {
        while (k < end) {
            int b = (int) (k & mask);
            long word = bits[b >>> 6] >>> b;
            if (word != 0) {
                return Math.min(k + Long.numberOfTrailingZeros(word), end);
            }
            k += 64 - (b & 63);
        }
        return end;
    }

    /** The first coarse bucket with entries at or after {@code k} (the coarse wheel must hold an entry). */
    private long firstOccupiedCoarse(long k) {
        int cb = (int) (k & COARSE_MASK);
        int w = cb >>> 6;
        long word = coarseOccupied[w] & (-1L << cb);
        int steps = 0;
        while (word == 0) {
            if (++steps > coarseOccupied.length) {
                throw new IllegalStateException("the coarse wheel holds no entry");
            }
            w = (w + 1) & (coarseOccupied.length - 1);
            word = coarseOccupied[w];
        }
        int found = (w << 6) + Long.numberOfTrailingZeros(word);
        return k + ((found - cb) & COARSE_MASK);
    }

    /** Buckets from the cursor's to the next occupied one; the wheel must hold an entry. */
    private int distanceToOccupied() {
        int from = (int) (cursorSlot & MASK);
        int w = from >>> 6;
        long word = occupied[w] & (-1L << from);
        if (word == 0) {
            // The next word with an entry, going round: it may be this one again, for its buckets before the cursor.
            int start = (w + 1) & (occupied.length - 1);
            int s = start >>> 6;
            long summary = occupiedWords[s] & (-1L << start);
            for (int k = 0; summary == 0; k++) {
                if (k == occupiedWords.length) {
                    throw new IllegalStateException("the wheel holds no entry");
                }
                s = (s + 1) & (occupiedWords.length - 1);
                summary = occupiedWords[s];
            }
            w = (s << 6) + Long.numberOfTrailingZeros(summary);
            word = occupied[w];
        }
        return ((w << 6) + Long.numberOfTrailingZeros(word) - from) & MASK;
    }

    private void markOccupied(int b) {
        int w = b >>> 6;
        occupied[w] |= 1L << b;
        occupiedWords[w >>> 6] |= 1L << w;
    }

    private void markEmpty(int b) {
        int w = b >>> 6;
        long word = occupied[w] & ~(1L << b);
        occupied[w] = word;
        if (word == 0) {
            occupiedWords[w >>> 6] &= ~(1L << w);
        }
    }

    /**
     * Sorted insert into the bucket of {@code slot}: after every entry that is not later than this one. Most events
     * are scheduled in time order within a 1 ns bucket, so the common case appends at the tail in O(1); an earlier
     * time, or an equal time whose tie hash goes first, walks the (short) list.
     */
    private void insertInWheel(int n, long slot) {
        int b = (int) (slot & MASK);
        int tail = ends[2 * b + 1];
        if (tail == NONE) {
            ends[2 * b] = n;
            ends[2 * b + 1] = n;
            setNext(n, NONE);
            markOccupied(b);
        } else if (!before(n, tail)) {
            setNext(tail, n);
            setNext(n, NONE);
            ends[2 * b + 1] = n;
        } else {
            int prev = NONE;
            int cur = ends[2 * b];
            while (!before(n, cur)) {
                prev = cur;
                cur = nextOf(cur);
            }
            setNext(n, cur);
            if (prev == NONE) {
                ends[2 * b] = n;
            } else {
                setNext(prev, n);
            }
        }
        wheelCount++;
    }

    /**
     * Moves the cursor back to {@code slot}. When it leaves for an earlier coarse bucket, the fine wheel's window and
     * the coarse wheel's shrink at their far ends: the fine entries beyond the new window go to the coarse wheel,
     * and the coarse buckets beyond its new reach to the heap. Only those buckets are looked at, so the cost is the
     * distance moved (in words of occupancy bits), not the wheels.
     */
    private void rewindTo(long slot) {
        long from = cursorSlot >> COARSE_SHIFT;
        long to = slot >> COARSE_SHIFT;
        long oldCursor = cursorSlot;
        cursorSlot = slot;
        first = NONE;
        if (to == from) {
            return;
        }
        fineEndSlot = (to + SPAN) << COARSE_SHIFT;
        // The coarse buckets now beyond the coarse wheel's reach share their places with [to + SPAN, from + SPAN).
        emptyCoarse(to + SPAN, Math.min(from, to + COARSE) + SPAN, false);
        long oldEnd = (from + SPAN) << COARSE_SHIFT;
        // The fine entries beyond the new window go to the coarse wheel (or the heap).
        for (long k = nextOccupied(occupied, MASK, Math.max((to + SPAN) << COARSE_SHIFT, oldCursor), oldEnd);
                k < oldEnd && wheelCount > 0; k = nextOccupied(occupied, MASK, k + 1, oldEnd)) {
            int b = (int) (k & MASK);
            int cur = ends[2 * b];
            ends[2 * b] = NONE;
            ends[2 * b + 1] = NONE;
            markEmpty(b);
            while (cur != NONE) {
                int nx = nextOf(cur);
                wheelCount--;
                place(cur, timeOf(cur) >> SLOT_SHIFT);
                cur = nx;
            }
        }
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
        long ta = timeOf(a);
        long tb = timeOf(b);
        if (ta != tb) {
            return ta < tb;
        }
        long ka = tieOf(a);
        long kb = tieOf(b);
        if (ka != kb) {
            // unsigned: the end-of-instant bit sorts last; ordinary keys (top bit clear) compare as before
            return (ka ^ Long.MIN_VALUE) < (kb ^ Long.MIN_VALUE);
        }
        return kindOf(a) < kindOf(b) || kindOf(a) == kindOf(b) && argOf(a) < argOf(b);
    }

    private long timeOf(int n) {
        return node[4 * n];
    }

    private long tieOf(int n) {
        return node[4 * n + 1];
    }

    public long argOf(int n) {
        return node[4 * n + 2];
    }

    public int kindOf(int n) {
        return (int) node[4 * n + 3];
    }

    private int nextOf(int n) {
        return next[n];
    }

    private void setNext(int n, int successor) {
        next[n] = successor;
    }

    private int allocate() {
        if (freeList != NONE) {
            int n = freeList;
            freeList = nextOf(n);
            return n;
        }
        if (4 * used == node.length) {
            node = Arrays.copyOf(node, node.length * 2);
            next = Arrays.copyOf(next, next.length * 2);
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
