package rocelab.engine;

import java.util.Arrays;

/** The straightforward 4-ary heap calendar, kept in tests as the reference the real calendar must agree with. */
final class ReferenceHeapCalendar {
    private long[] timePs;
    private long[] sequence;
    private int[] handlerId;
    private int[] kind;
    private long[] arg;
    private int size;
    private long nextSequence;
    private int growths;

    ReferenceHeapCalendar(int initialCapacity) {
        int capacity = Math.max(16, initialCapacity);
        timePs = new long[capacity];
        sequence = new long[capacity];
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
        long seq = nextSequence++;
        int i = size++;
        // Sift up: move parents down until the slot for the new entry is found.
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = timePs[parent];
            if (pt < atPs || (pt == atPs && sequence[parent] < seq)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, atPs, seq, handler, eventKind, eventArg);
    }

    public void removeFirst() {
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = timePs[last];
        long s = sequence[last];
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
            long bt = timePs[first];
            long bs = sequence[first];
            for (int c = first + 1; c < end; c++) {
                long ct = timePs[c];
                if (ct < bt || (ct == bt && sequence[c] < bs)) {
                    best = c;
                    bt = ct;
                    bs = sequence[c];
                }
            }
            if (t < bt || (t == bt && s < bs)) {
                break;
            }
            move(best, i);
            i = best;
        }
        set(i, t, s, h, k, a);
    }

    private void move(int from, int to) {
        timePs[to] = timePs[from];
        sequence[to] = sequence[from];
        handlerId[to] = handlerId[from];
        kind[to] = kind[from];
        arg[to] = arg[from];
    }

    private void set(int i, long t, long s, int h, int k, long a) {
        timePs[i] = t;
        sequence[i] = s;
        handlerId[i] = h;
        kind[i] = k;
        arg[i] = a;
    }

    private void grow() {
        int capacity = timePs.length * 2;
        timePs = Arrays.copyOf(timePs, capacity);
        sequence = Arrays.copyOf(sequence, capacity);
        handlerId = Arrays.copyOf(handlerId, capacity);
        kind = Arrays.copyOf(kind, capacity);
        arg = Arrays.copyOf(arg, capacity);
        growths++;
    }
}
