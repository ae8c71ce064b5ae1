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
    /** How many fields the note has: notes of one capture differ (a PFC frame's row against a wait's few fields). */
    private static final int LENGTH = 4;
    private static final int KEY = 5;

    /** Takes one note's fields, {@code notes[at..at + width)}. */
    @FunctionalInterface
    public interface Reader {
        void read(long[] notes, int at);
    }

    private final Simulator partition;
    private final int width;
    /** Per window parity: the notes, the longs they fill, and the longs replayed. */
    private final long[][] notes = new long[2][];
    private final int[] size = new int[2];
    private final int[] read = new int[2];

    /** Notes of at most {@code fields} longs each, written during the windows of {@code partition}. */
    public EventNotes(Simulator partition, int fields) {
        this.partition = partition;
        this.width = fields;
        this.notes[0] = new long[(KEY + fields) * 64];
        this.notes[1] = new long[(KEY + fields) * 64];
    }

    /** A new note of the partition's current event with all its fields: the offset of its fields in {@link #array}. */
    public int next(long nowPs) {
        return next(nowPs, width);
    }

    /**
     * A new note of the partition's current event with its first {@code fields} only (a note that needs few takes
     * only those: a million-flow run writes a window's waits by the hundred thousand): the offset of its fields in
     * {@link #array}.
     */
    public int next(long nowPs, int fields) {
        if (!partition.inWindow()) {
            throw new IllegalStateException("a note outside a window of partition " + partition.partition());
        }
        if (fields > width) {
            throw new IllegalArgumentException("a note of " + fields + " fields, at most " + width);
        }
        int p = partition.windowParity();
        long[] n = notes[p];
        int at = size[p];
        if (at + KEY + fields > n.length) {
            n = notes[p] = Arrays.copyOf(n, Math.max(n.length * 2, at + KEY + fields));
        }
        size[p] = at + KEY + fields;
        n[at + TIME] = nowPs;
        n[at + TIE] = partition.currentTieKey();
        n[at + KIND] = partition.currentKind();
        n[at + ARG] = partition.currentArg();
        n[at + LENGTH] = fields;
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
        // An array, indexed: an iterator over the list per note taken was most of what a parallel run allocated in
        // its loop (the 1,024-host all-to-all: 575 MB of iterators in 600 us, the replay's loop not inlined to let
        // escape analysis drop them), and every collection it brought stopped the partitions' threads.
        EventNotes[] partitions = all.toArray(new EventNotes[0]);
        while (true) {
            EventNotes best = null;
            for (int i = 0; i < partitions.length; i++) {
                EventNotes n = partitions[i];
                if (n.read[parity] < n.size[parity] && (best == null || n.before(best, parity))) {
                    best = n;
                }
            }
            if (best == null) {
                break;
            }
            long[] n = best.notes[parity];
            int at = best.read[parity];
            best.read[parity] = at + KEY + (int) n[at + LENGTH];
            reader.read(n, at + KEY);
        }
        for (EventNotes n : partitions) {
            n.size[parity] = 0;
            n.read[parity] = 0;
        }
    }

    /**
     * Lets go of the arrays of the windows whose notes were all replayed (grown to a window's notes at the run's
     * busiest: tens of megabytes at 1,024 hosts), for the outputs: for the end of a run. Notes written later grow
     * them again.
     */
    public static void trim(List<EventNotes> all) {
        for (EventNotes n : all) {
            for (int p = 0; p < 2; p++) {
                if (n.size[p] == 0) {
                    n.notes[p] = new long[(KEY + n.width) * 64];
                }
            }
        }
    }

    private boolean before(EventNotes other, int parity) {
        long[] mine = notes[parity];
        long[] theirs = other.notes[parity];
        int a = read[parity];
        int b = other.read[parity];
        for (int f = TIME; f <= ARG; f++) {
            int c = Long.compare(mine[a + f], theirs[b + f]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }
}
