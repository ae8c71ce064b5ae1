package rocelab.fabric.nic;

import java.util.Arrays;

/** All queue pairs of a fabric by number, so an arriving packet finds its QP with one array index. */
public final class QueuePairTable {
    private QueuePair[] byId = new QueuePair[64];
    private int count;

    int nextId() {
        return count;
    }

    void add(QueuePair qp) {
        if (count == byId.length) {
            byId = Arrays.copyOf(byId, count * 2);
        }
        byId[count++] = qp;
    }

    public QueuePair get(int id) {
        return byId[id];
    }

    public int size() {
        return count;
    }
}
