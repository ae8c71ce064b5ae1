package rocelab.observe.victim;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.Simulator;

/**
 * Notes of fixed width written by the devices of one partition of a parallel run, each tagged with the key of the
 * event that wrote it (time, the canonical tie key, kind and argument), so that a log can take every partition's
 * notes after a window in the order one simulator would have written them ({@link #replay}). The notes of a window
 * go into the buffer of its parity ({@link Simulator#windowParity}), so a log may replay one window's notes while the
 * partitions write the next's. Growing the arrays is the only allocation, and stops once they hold a window's notes.
 */
public final class EventNotes {
    private static final int TIME = 0;
    private static final int TIE = 1;
    private static final int KIND = 2;
    private static final int ARG = 3;
    private static final int KEY = 4;

    /** Takes one note's fields, {@code notes[at..at + width)}. */
    @FunctionalInterface
    public interface Reader {
        void read(long[] notes, int at);
    }

    private final Simulator partition;
    private final int width;
    /** Per window parity: the notes, how many, and how many replayed. */
    private final long[][] notes = new long[2][];
    private final int[] size = new int[2];
    private final int[] read = new int[2];

    /** Notes of {@code fields} longs each, written during the windows of {@code partition}. */
    public EventNotes(Simulator partition, int fields) {
        this.partition = partition;
        this.width = KEY + fields;
        this.notes[0] = new long[width * 64];
        this.notes[1] = new long[width * 64];
    }

    /** A new note of the partition's current event: the offset of its fields in {@link #array}. */
    public int next(long nowPs) {
        if (!partition.inWindow()) {
            throw new IllegalStateException("a note outside a window of partition " + partition.partition());
        }
        int p = partition.windowParity();
        long[] n = notes[p];
        if ((size[p] + 1) * width > n.length) {
            n = notes[p] = Arrays.copyOf(n, n.length * 2);
        }
        int at = size[p]++ * width;
        n[at + TIME] = nowPs;
        n[at + TIE] = partition.currentTieKey();
        n[at + KIND] = partition.currentKind();
        n[at + ARG] = partition.currentArg();
        return at + KEY;
    }

    /** The notes' array of the window running (it moves as it grows: take it after {@link #next}). */
    public long[] array() {
        return notes[partition.windowParity()];
    }

    /**
     * Hands every note of {@code all} written in the windows of {@code parity} (the window that ended) to
     * {@code reader} in the order of the events that wrote them (time, then the canonical tie key, kind and argument;
     * notes of one event stay in their order), and empties them.
     */
    public static void replay(List<EventNotes> all, int parity, Reader reader) {
        while (true) {
            EventNotes best = null;
            for (EventNotes n : all) {
                if (n.read[parity] < n.size[parity] && (best == null || n.before(best, parity))) {
                    best = n;
                }
            }
            if (best == null) {
                break;
            }
            int at = best.read[parity]++ * best.width;
            reader.read(best.notes[parity], at + KEY);
        }
        for (EventNotes n : all) {
            n.size[parity] = 0;
            n.read[parity] = 0;
        }
    }

    private boolean before(EventNotes other, int parity) {
        long[] mine = notes[parity];
        long[] theirs = other.notes[parity];
        int a = read[parity] * width;
        int b = other.read[parity] * other.width;
        for (int f = TIME; f <= ARG; f++) {
            int c = Long.compare(mine[a + f], theirs[b + f]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }
}
