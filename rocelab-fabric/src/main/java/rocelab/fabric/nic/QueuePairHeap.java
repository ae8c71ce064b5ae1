package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * A binary min-heap of queue pairs keyed by a time, ties broken by QP number so order never depends on
 * insertion accidents. The RNIC keeps one for paced QPs and one for ACK timers: the calendar then holds one
 * wake-up per RNIC instead of one per QP.
 *
 * <p>Each entry's key and QP number sit side by side in {@link #order}, so a sift compares entries without loading
 * a queue pair: an RNIC of a 1,024-host all-to-all paces up to a thousand QPs, each last touched about a millisecond
 * earlier, and a pop that read the QP number from the objects missed the cache twice per level of the heap.
 */
final class QueuePairHeap {
    private QueuePair[] items = new QueuePair[16];
    /** Entry i's key at {@code 2i} and its QP number at {@code 2i + 1}. */
    private long[] order = new long[32];
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
        return order[0];
    }

    QueuePair min() {
        return items[0];
    }

    void push(QueuePair qp, long key) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
            order = Arrays.copyOf(order, size * 4);
        }
        long id = qp.id;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(key, id, order[2 * parent], order[2 * parent + 1])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, qp, key, id);
    }

    /** Removes {@code qp} if it is here, keeping the others' order (rare: a QP moving to another plane). */
    void remove(QueuePair qp) {
        int n = size;
        QueuePair[] oldItems = Arrays.copyOf(items, n);
        long[] oldOrder = Arrays.copyOf(order, 2 * n);
        Arrays.fill(items, 0, n, null);
        size = 0;
        for (int i = 0; i < n; i++) {
            if (oldItems[i] != qp) {
                push(oldItems[i], oldOrder[2 * i]);
            }
        }
    }

    QueuePair pop() {
        QueuePair top = items[0];
        int n = --size;
        QueuePair last = items[n];
        long lastKey = order[2 * n];
        long lastId = order[2 * n + 1];
        items[n] = null;
        if (n > 0) {
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= n) {
                    break;
                }
                if (c + 1 < n && before(order[2 * c + 2], order[2 * c + 3], order[2 * c], order[2 * c + 1])) {
                    c++;
                }
                if (!before(order[2 * c], order[2 * c + 1], lastKey, lastId)) {
                    break;
                }
                move(c, i);
                i = c;
            }
            set(i, last, lastKey, lastId);
        }
        return top;
    }

    private void move(int from, int to) {
        items[to] = items[from];
        order[2 * to] = order[2 * from];
        order[2 * to + 1] = order[2 * from + 1];
    }

    private void set(int i, QueuePair qp, long key, long id) {
        items[i] = qp;
        order[2 * i] = key;
        order[2 * i + 1] = id;
    }

    private static boolean before(long keyA, long idA, long keyB, long idB) {
        return keyA < keyB || keyA == keyB && idA < idB;
    }
}
