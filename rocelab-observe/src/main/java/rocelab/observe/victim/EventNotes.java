package rocelab.observe.victim;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.Simulator;

/**
 * Notes of fixed width written by the devices of one partition of a parallel run, each tagged with the key of the
 * event that wrote it (time, the canonical tie key, kind and argument), so that a log can take every partition's
 * notes after a window in the order one simulator would have written them ({@link #replay}). Growing the array is the
 * only allocation, and stops once it holds a window's notes.
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
    private long[] notes;
    private int size;
    private int read;

    /** Notes of {@code fields} longs each, written during the windows of {@code partition}. */
    public EventNotes(Simulator partition, int fields) {
        this.partition = partition;
        this.width = KEY + fields;
        this.notes = new long[width * 64];
    }

    /** A new note of the partition's current event: the offset of its fields in {@link #array}. */
    public int next(long nowPs) {
        if (!partition.inWindow()) {
            throw new IllegalStateException("a note outside a window of partition " + partition.partition());
        }
        if ((size + 1) * width > notes.length) {
            notes = Arrays.copyOf(notes, notes.length * 2);
        }
        int at = size++ * width;
        notes[at + TIME] = nowPs;
        notes[at + TIE] = partition.currentTieKey();
        notes[at + KIND] = partition.currentKind();
        notes[at + ARG] = partition.currentArg();
        return at + KEY;
    }

    /** The notes' array (it moves as it grows: take it after {@link #next}). */
    public long[] array() {
        return notes;
    }

    /**
     * Hands every note of {@code all} to {@code reader} in the order of the events that wrote them (time, then the
     * canonical tie key, kind and argument; notes of one event stay in their order), and empties them.
     */
    public static void replay(List<EventNotes> all, Reader reader) {
        while (true) {
            EventNotes best = null;
            for (EventNotes n : all) {
                if (n.read < n.size && (best == null || n.before(best))) {
                    best = n;
                }
            }
            if (best == null) {
                break;
            }
            int at = best.read++ * best.width;
            reader.read(best.notes, at + KEY);
        }
        for (EventNotes n : all) {
            n.size = 0;
            n.read = 0;
        }
    }

    private boolean before(EventNotes other) {
        int a = read * width;
        int b = other.read * other.width;
        for (int f = TIME; f <= ARG; f++) {
            int c = Long.compare(notes[a + f], other.notes[b + f]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }
}
