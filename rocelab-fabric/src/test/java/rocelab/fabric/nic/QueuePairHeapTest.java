package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.fabric.TestFabric;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;

/**
 * The RNIC's heap of queue pairs pops in (key, QP number) order, and keeps its entries in the array order of a plain
 * binary heap compared on the same pairs: the order a walk over it ({@link QueuePairHeap#at}) reports paused waits
 * in. The reference below is that plain heap, reading the QP number from the objects as the heap once did.
 */
class QueuePairHeapTest {
    private static QueuePair qp(int id) {
        CongestionControl lineRate = TestFabric.LINE_RATE.create(
                new CongestionControlFactory.Context(null, 100_000_000_000L, id, null));
        return new QueuePair(id, null, null, 0, lineRate, null, NicParameters.defaults(1000));
    }

    /** A binary min-heap on (key, QP number) whose comparisons read the number from the QP. */
    private static final class Reference {
        QueuePair[] items = new QueuePair[4];
        long[] keys = new long[4];
        int size;

        void push(QueuePair qp, long key) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
                keys = Arrays.copyOf(keys, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) / 2;
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

        QueuePair pop() {
            QueuePair top = items[0];
            int n = --size;
            QueuePair last = items[n];
            long lastKey = keys[n];
            items[n] = null;
            if (n > 0) {
                int i = 0;
                while (2 * i + 1 < n) {
                    int c = 2 * i + 1;
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

    @Test
    void popsInKeyThenNumberOrderWithThePlainHeapsArrayOrder() {
        SplittableRandom random = new SplittableRandom(16);
        for (int round = 0; round < 200; round++) {
            QueuePairHeap heap = new QueuePairHeap();
            Reference reference = new Reference();
            List<QueuePair> pool = new ArrayList<>();
            for (int id = 0; id < 300; id++) {
                pool.add(qp(id));
            }
            // Few distinct keys, so ties (broken by QP number) are common.
            int keys = 1 + random.nextInt(40);
            int steps = 50 + random.nextInt(1_500);
            for (int step = 0; step < steps; step++) {
                if (!pool.isEmpty() && (heap.isEmpty() || random.nextInt(3) > 0)) {
                    QueuePair qp = pool.remove(random.nextInt(pool.size()));
                    long key = random.nextInt(keys) * 1_000L;
                    heap.push(qp, key);
                    reference.push(qp, key);
                } else {
                    assertThat(heap.minKey()).isEqualTo(reference.keys[0]);
                    QueuePair popped = heap.pop();
                    assertThat(popped).isSameAs(reference.pop());
                    pool.add(popped);
                }
                assertThat(heap.size()).isEqualTo(reference.size);
                for (int i = 0; i < heap.size(); i++) {
                    assertThat(heap.at(i)).isSameAs(reference.items[i]);
                }
            }
        }
    }

    @Test
    void removeKeepsTheOthersInOrder() {
        QueuePairHeap heap = new QueuePairHeap();
        List<QueuePair> qps = new ArrayList<>();
        for (int id = 0; id < 40; id++) {
            QueuePair qp = qp(id);
            qps.add(qp);
            heap.push(qp, (id * 7 % 11) * 1_000L);
        }
        heap.remove(qps.get(12));
        heap.remove(qps.get(3));
        List<Integer> order = new ArrayList<>();
        long previousKey = Long.MIN_VALUE;
        int previousId = -1;
        while (!heap.isEmpty()) {
            long key = heap.minKey();
            QueuePair qp = heap.pop();
            assertThat(key > previousKey || key == previousKey && qp.id > previousId).isTrue();
            previousKey = key;
            previousId = qp.id;
            order.add(qp.id);
        }
        assertThat(order).hasSize(38).doesNotContain(12, 3);
    }
}
