package rocelab.observe.victim;

import java.util.Arrays;

/**
 * Numbers the distinct long keys it is given, 0, 1, 2, ... in the order first seen, and gives a number's key back.
 * {@link FlowWaits} keeps a million flows' slots as these numbers (4 bytes) instead of the keys (8): a run's
 * transmitters and roots are a few thousand, its flows' slots millions.
 */
final class KeyNumbers {
    private static final long EMPTY = Long.MIN_VALUE;
    /** Open addressing, linear probing: a key and its number at the same index; {@link #EMPTY} marks a free one. */
    private long[] table = emptyTable(64);
    private int[] numberAt = new int[64];
    private long[] keys = new long[16];
    private int size;
    /**
     * The key asked for last and its number: the waits a transmitter reports come in runs (the packets it held, as
     * it sends them on), and the table's probe was 2 % of a 1,024-host all-to-all's loop.
     */
    private long lastKey = EMPTY;
    private int lastNumber;

    /** The key's number, numbering it now if it is new. {@code key} must not be {@link Long#MIN_VALUE}. */
    int numberOf(long key) {
        if (key == lastKey && key != EMPTY) {
            return lastNumber;
        }
        if (key == EMPTY) {
            throw new IllegalArgumentException("Long.MIN_VALUE cannot be numbered");
        }
        int n = lookUp(key);
        lastKey = key;
        lastNumber = n;
        return n;
    }

    private int lookUp(long key) {
        int mask = table.length - 1;
        for (int i = spread(key) & mask;; i = (i + 1) & mask) {
            long k = table[i];
            if (k == key) {
                return numberAt[i];
            }
            if (k == EMPTY) {
                int n = size++;
                if (n == keys.length) {
                    keys = Arrays.copyOf(keys, 2 * n);
                }
                keys[n] = key;
                table[i] = key;
                numberAt[i] = n;
                if (2 * size > table.length) {
                    rehash(2 * table.length);
                }
                return n;
            }
        }
    }

    /** The key numbered {@code n}. */
    long key(int n) {
        return keys[n];
    }

    int size() {
        return size;
    }

    private void rehash(int length) {
        table = emptyTable(length);
        numberAt = new int[length];
        int mask = length - 1;
        for (int n = 0; n < size; n++) {
            int i = spread(keys[n]) & mask;
            while (table[i] != EMPTY) {
                i = (i + 1) & mask;
            }
            table[i] = keys[n];
            numberAt[i] = n;
        }
    }

    private static long[] emptyTable(int length) {
        long[] t = new long[length];
        Arrays.fill(t, EMPTY);
        return t;
    }

    private static int spread(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ h >>> 32);
    }
}
