package rocelab.engine;

import java.util.Arrays;

/**
 * Events one partition sent another during a window, as primitives: written by the sender's thread during the
 * window, read by the receiver's thread after the barrier. The arrays grow during warm-up and are then reused.
 */
final class Mailbox {
    private long[] time = new long[64];
    private int[] handler = new int[64];
    private int[] kind = new int[64];
    private long[] arg = new long[64];
    private int size;

    void add(long atPs, int handlerId, int eventKind, long eventArg) {
        if (size == time.length) {
            int capacity = size * 2;
            time = Arrays.copyOf(time, capacity);
            handler = Arrays.copyOf(handler, capacity);
            kind = Arrays.copyOf(kind, capacity);
            arg = Arrays.copyOf(arg, capacity);
        }
        time[size] = atPs;
        handler[size] = handlerId;
        kind[size] = eventKind;
        arg[size] = eventArg;
        size++;
    }

    /** Moves every event into {@code into}'s calendar; the calendar's canonical order makes the order irrelevant. */
    void drainInto(Simulator into) {
        for (int i = 0; i < size; i++) {
            into.addLocal(time[i], handler[i], kind[i], arg[i]);
        }
        size = 0;
    }

    int size() {
        return size;
    }
}
