package rocelab.fabric.nic;

/**
 * One bit per PSN over a sliding window of {@code size} consecutive PSNs (a power of two), kept as a ring of longs:
 * PSN {@code p} is bit {@code p mod size}. The owner guarantees that every PSN it asks about lies within one window
 * (its oldest outstanding PSN plus {@code size}) and clears bits as the window slides, so nothing is allocated after
 * construction.
 */
final class PsnBitmap {
    private final long[] words;
    private final long mask;

    PsnBitmap(int size) {
        if (size < 64 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("bitmap size must be a power of two >= 64, got " + size);
        }
        this.words = new long[size >>> 6];
        this.mask = size - 1;
    }

    int size() {
        return (int) mask + 1;
    }

    boolean get(long psn) {
        return (words[word(psn)] & 1L << psn) != 0;
    }

    /** Sets the bit of {@code psn}; whether it was clear before. */
    boolean set(long psn) {
        int w = word(psn);
        long bit = 1L << psn;
        boolean was = (words[w] & bit) != 0;
        words[w] |= bit;
        return !was;
    }

    /** Clears the bit of {@code psn}; whether it was set before. */
    boolean clear(long psn) {
        int w = word(psn);
        long bit = 1L << psn;
        boolean was = (words[w] & bit) != 0;
        words[w] &= ~bit;
        return was;
    }

    /** The first PSN in {@code from..to-1} whose bit is set, or {@code to} when none is. */
    long nextSet(long from, long to) {
        return next(from, to, false);
    }

    /** The first PSN in {@code from..to-1} whose bit is clear, or {@code to} when none is. */
    long nextClear(long from, long to) {
        return next(from, to, true);
    }

    private long next(long from, long to, boolean clear) {
        long psn = from;
        while (psn < to) {
            long bits = words[word(psn)];
            if (clear) {
                bits = ~bits;
            }
            bits &= -1L << psn; // only this PSN's bit and the ones above it in the word (shift is mod 64)
            if (bits != 0) {
                long found = (psn & ~63L) + Long.numberOfTrailingZeros(bits);
                return Math.min(found, to);
            }
            psn = (psn | 63L) + 1;
        }
        return to;
    }

    private int word(long psn) {
        return (int) ((psn & mask) >>> 6);
    }
}
