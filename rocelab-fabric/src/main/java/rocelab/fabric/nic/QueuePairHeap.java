package rocelab.fabric.nic;

/**
 * A binary min-heap of queue pairs keyed by a time, ties broken by QP number so order never depends on
 * insertion accidents. The RNIC keeps one for paced QPs and one for ACK timers: the calendar then holds one
 * wake-up per RNIC instead of one per QP.
 */
final class QueuePairHeap {
    private QueuePair[] items = new QueuePair[16];
    private long[] keys = new long[16];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The i-th QP in heap order (for walking, not in key order). */
    QueuePair at(int i) {
        return items[i];
    }

    long minKey() {
        return keys[0];
    }

    QueuePair min() {
        return items[0];
    }

    void push(QueuePair qp, long key) {
        if (size == items.length) {
            items = java.util.Arrays.copyOf(items, size * 2);
            keys = java.util.Arrays.copyOf(keys, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(key, qp.id, keys[parent], items[parent].id)) {
                break;
            }
            items[i] = items[parent];
            keys[i] = keys[parent];
            i = parent;
        }
        items[i] = qp;
        keys[i] = key;
    }

    /** Removes {@code qp} if it is here, keeping the others' order (rare: a QP moving to another plane). */
    void remove(QueuePair qp) {
        int n = size;
        QueuePair[] oldItems = java.util.Arrays.copyOf(items, n);
        long[] oldKeys = java.util.Arrays.copyOf(keys, n);
        java.util.Arrays.fill(items, 0, n, null);
        size = 0;
        for (int i = 0; i < n; i++) {
            if (oldItems[i] != qp) {
                push(oldItems[i], oldKeys[i]);
            }
        }
    }

    QueuePair pop() {
        QueuePair top = items[0];
        int n = --size;
        QueuePair last = items[n];
        long lastKey = keys[n];
        items[n] = null;
        if (n > 0) {
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= n) {
                    break;
                }
                if (c + 1 < n && before(keys[c + 1], items[c + 1].id, keys[c], items[c].id)) {
                    c++;
                }
                if (!before(keys[c], items[c].id, lastKey, last.id)) {
                    break;
                }
                items[i] = items[c];
                keys[i] = keys[c];
                i = c;
            }
            items[i] = last;
            keys[i] = lastKey;
        }
        return top;
    }

    private static boolean before(long keyA, int idA, long keyB, int idB) {
        return keyA < keyB || keyA == keyB && idA < idB;
    }
}
