package rocelab.fabric.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * All queue pairs of a fabric by number, so an arriving packet finds its QP with one array index. On request
 * ({@link #trackChanges}) it also keeps one bit per QP for "its rate, its congestion notifications received or its
 * posted work changed since the last look": a sampler then visits only those QPs instead of every QP of the fabric
 * each interval (a million QPs at 1,024 hosts, each visit a cache miss). A second bit per QP says "its responder
 * received payload in order since the last look", for the samples of bytes delivered.
 */
public final class QueuePairTable {
    private QueuePair[] byId = new QueuePair[64];
    private int count;
    /** The constants of the QP opened last, which the next one shares when they are alike. */
    QueuePairConstants lastConstants;
    /** One bit per QP id, set on a change; null until someone tracks changes. */
    private long[] changed;
    /** One bit per QP id, set when its responder received payload in order; null until someone tracks changes. */
    private long[] delivered;
    /**
     * Whether QPs of different partitions mark changes at the same time (a partitioned run): neighbouring QPs share a
     * word, so a mark is then an atomic or.
     */
    private boolean concurrent;
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    int nextId() {
        return count;
    }

    void add(QueuePair qp) {
        if (count == byId.length) {
            byId = Arrays.copyOf(byId, count * 2);
        }
        byId[count++] = qp;
        // A new QP counts as changed: whoever tracks changes has not seen it yet.
        changed(qp.id);
    }

    /** QPs of several partitions change at once from now on (every QP is added already). */
    public void concurrent() {
        this.concurrent = true;
    }

    public QueuePair get(int id) {
        return byId[id];
    }

    public int size() {
        return count;
    }

    /**
     * From now on, remembers which QPs changed (every QP that exists counts as changed once). One reader only:
     * {@link #takeChanged} clears what it returns.
     */
    public void trackChanges() {
        if (changed != null) {
            throw new IllegalStateException("changes are tracked already (one reader per table)");
        }
        changed = new long[(byId.length + 63) >>> 6];
        delivered = new long[changed.length];
        for (int id = 0; id < count; id++) {
            changed(id);
            delivered(id);
        }
    }

    /** QP {@code id}'s rate, notifications received or posted work changed (nothing when nobody tracks changes). */
    void changed(int id) {
        if (changed != null && id >= 0) {
            changed = mark(changed, id);
        }
    }

    /**
     * QP {@code id}'s responder received payload in order (nothing when nobody tracks changes): once per data packet
     * delivered, so that a sample of the bytes delivered visits only those QPs, not every one that still has bytes to
     * deliver (a 1,024-host all-to-all's million, every sample: 3.6 % of its loop).
     */
    void delivered(int id) {
        if (delivered != null) {
            delivered = mark(delivered, id);
        }
    }

    /** Sets bit {@code id} of {@code bits} (grown to hold it: only before the table turns concurrent). */
    private long[] mark(long[] bits, int id) {
        long[] b = bits;
        if (id >>> 6 >= b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, (id >>> 6) + 1));
        }
        if (concurrent) {
            WORDS.getAndBitwiseOr(b, id >>> 6, 1L << id);
        } else {
            b[id >>> 6] |= 1L << id;
        }
        return b;
    }

    /**
     * The lowest QP id at or after {@code from} that changed since it was last taken, clearing its bit, or -1 when
     * none did: walking {@code id = takeChanged(id + 1)} from 0 visits the changed QPs in id order.
     */
    public int takeChanged(int from) {
        if (changed == null) {
            throw new IllegalStateException("changes are not tracked");
        }
        return take(changed, from);
    }

    /** As {@link #takeChanged}, for the QPs whose responder received payload in order since they were last taken. */
    public int takeDelivered(int from) {
        if (delivered == null) {
            throw new IllegalStateException("changes are not tracked");
        }
        return take(delivered, from);
    }

    private static int take(long[] bits, int from) {
        int w = from >>> 6;
        if (w >= bits.length) {
            return -1;
        }
        long word = bits[w] & (-1L << from);
        while (word == 0) {
            if (++w == bits.length) {
                return -1;
            }
            word = bits[w];
        }
        int id = (w << 6) + Long.numberOfTrailingZeros(word);
        bits[w] &= ~(1L << id);
        return id;
    }
}
