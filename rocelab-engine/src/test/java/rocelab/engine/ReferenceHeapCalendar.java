package rocelab.engine;

import java.util.Arrays;

/**
 * The straightforward 4-ary heap calendar, kept in tests as the reference the real calendar must agree with: the
 * canonical order (time, tie hash of time and handler, handler id, kind, argument) written out field by field.
 */
final class ReferenceHeapCalendar {
    private long[] timePs;
    private int[] handlerId;
    private int[] kind;
    private long[] arg;
    private int size;
    private int growths;

    ReferenceHeapCalendar(int initialCapacity) {
        int capacity = Math.max(16, initialCapacity);
        timePs = new long[capacity];
        handlerId = new int[capacity];
        kind = new int[capacity];
        arg = new long[capacity];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** How many times the arrays had to grow; steady state must not grow them. */
    public int growths() {
        return growths;
    }

    public long firstTimePs() {
        return timePs[0];
    }

    public int firstHandlerId() {
        return handlerId[0];
    }

    public int firstKind() {
        return kind[0];
    }

    public long firstArg() {
        return arg[0];
    }

    public void add(long atPs, int handler, int eventKind, long eventArg) {
        if (size == timePs.length) {
            grow();
        }
        int i = size++;
        // Sift up: move parents down until the slot for the new entry is found.
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (earlier(timePs[parent], handlerId[parent], kind[parent], arg[parent], atPs, handler, eventKind,
                    eventArg)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, atPs, handler, eventKind, eventArg);
    }

    public void removeFirst() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = timePs[last];
        int h = handlerId[last];
        int k = kind[last];
        long a = arg[last];
        int i = 0;
        while (true) {
            int first = (i << 2) + 1;
            if (first >= last) {
                break;
            }
            int end = Math.min(first + 4, last);
            int best = first;
            for (int c = first + 1; c < end; c++) {
                if (earlier(timePs[c], handlerId[c], kind[c], arg[c], timePs[best], handlerId[best], kind[best],
                        arg[best])) {
                    best = c;
                }
            }
            if (!earlier(timePs[best], handlerId[best], kind[best], arg[best], t, h, k, a)) {
                break;
            }
            move(best, i);
            i = best;
        }
        set(i, t, h, k, a);
    }

    private static boolean earlier(long t1, int h1, int k1, long a1, long t2, int h2, int k2, long a2) {
        if (t1 != t2) {
            return t1 < t2;
        }
        int x1 = EventCalendar.tieHash(t1, h1);
        int x2 = EventCalendar.tieHash(t2, h2);
        if (x1 != x2) {
            return x1 < x2;
        }
        if (h1 != h2) {
            return h1 < h2;
        }
        if (k1 != k2) {
            return k1 < k2;
        }
        return a1 < a2;
    }

    private void move(int from, int to) {
        timePs[to] = timePs[from];
        handlerId[to] = handlerId[from];
        kind[to] = kind[from];
        arg[to] = arg[from];
    }

    private void set(int i, long t, int h, int k, long a) {
        timePs[i] = t;
        handlerId[i] = h;
        kind[i] = k;
        arg[i] = a;
    }

    private void grow() {
        int capacity = timePs.length * 2;
        timePs = Arrays.copyOf(timePs, capacity);
        handlerId = Arrays.copyOf(handlerId, capacity);
        kind = Arrays.copyOf(kind, capacity);
        arg = Arrays.copyOf(arg, capacity);
        growths++;
    }
}
