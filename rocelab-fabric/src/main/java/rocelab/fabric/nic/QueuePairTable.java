package rocelab.fabric.nic;

import java.util.Arrays;

/**
 * All queue pairs of a fabric by number, so an arriving packet finds its QP with one array index. On request
 * ({@link #trackChanges}) it also keeps one bit per QP for "its rate, its congestion notifications received or its
 * posted work changed since the last look": a sampler then visits only those QPs instead of every QP of the fabric
 * each interval (a million QPs at 1,024 hosts, each visit a cache miss). A second bit per QP says "its responder
 * received payload in order since the last look", for the samples of bytes delivered.
 *
 * <p>In a partitioned run every partition marks bits of its own ({@link #partitions}): the RNICs of two partitions
 * mark at the same time, and neighbouring QPs share a word. One shared array made every mark an atomic or on a line
 * the other core wrote too, once per data packet delivered; the two threads of bench-B3 spent more time on that
 * line than on the packets. A reader (between windows, every partition idle) sees the union.
 */
public final class QueuePairTable {
    private QueuePair[] byId = new QueuePair[64];
    /**
     * Each QP's source host, destination host and UDP source port (three ints per id), fixed for its life and kept
     * apart from it: the PFC log's replay reads them for every wait it takes (17 million at 1,024 hosts), on a thread
     * of its own in a parallel run, and the outputs for every row of throughput.csv and rates.csv. From the QP they
     * were three dependent loads (the QP, then each end's RNIC), of objects the partitions write at every packet.
     */
    private int[] ends = new int[3 * 64];
    private int count;
    /** The constants of the QP opened last, which the next one shares when they are alike. */
    QueuePairConstants lastConstants;
    /** Per partition, one bit per QP id, set on a change; null until someone tracks changes. */
    private long[][] changed;
    /**
     * Per partition, one bit per QP id, set when its responder received payload in order; null until someone tracks
     * changes.
     */
    private long[][] delivered;
    /** How many partitions mark (1: one thread runs the fabric). */
    private int partitions = 1;

    int nextId() {
        return count;
    }

    /**
     * Adds {@code qp}, opened by an RNIC of {@code partition}, from host {@code sourceHost} to {@code destinationHost}
     * (its RNICs' hosts, given rather than read through them).
     */
    void add(QueuePair qp, int partition, int sourceHost, int destinationHost) {
        if (count == byId.length) {
            byId = Arrays.copyOf(byId, count * 2);
            ends = Arrays.copyOf(ends, 3 * count * 2);
        }
        ends[3 * count] = sourceHost;
        ends[3 * count + 1] = destinationHost;
        ends[3 * count + 2] = qp.entropy();
        byId[count++] = qp;
        // A new QP counts as changed: whoever tracks changes has not seen it yet.
        changed(partition, qp.id);
    }

    /**
     * The RNICs of {@code count} partitions mark changes at the same time from now on, each with its partition's
     * number (before anyone tracks changes).
     */
    public void partitions(int count) {
        if (changed != null) {
            throw new IllegalStateException("partitions are set before changes are tracked");
        }
        if (count < 1) {
            throw new IllegalArgumentException("at least one partition, got " + count);
        }
        this.partitions = count;
    }

    public QueuePair get(int id) {
        return byId[id];
    }

    public int size() {
        return count;
    }

    /** QP {@code id}'s source host ({@link QueuePair#sourceHost}), without reading the QP. */
    public int sourceHost(int id) {
        return ends[3 * id];
    }

    /** QP {@code id}'s destination host ({@link QueuePair#destinationHost}), without reading the QP. */
    public int destinationHost(int id) {
        return ends[3 * id + 1];
    }

    /** QP {@code id}'s UDP source port, its ECMP entropy ({@link QueuePair#entropy}), without reading the QP. */
    public int entropy(int id) {
        return ends[3 * id + 2];
    }

    /**
     * From now on, remembers which QPs changed (every QP that exists counts as changed once). One reader only:
     * {@link #takeChanged} clears what it returns.
     */
    public void trackChanges() {
        if (changed != null) {
            throw new IllegalStateException("changes are tracked already (one reader per table)");
        }
        int words = (byId.length + 63) >>> 6;
        changed = new long[partitions][words];
        delivered = new long[partitions][words];
        for (int id = 0; id < count; id++) {
            changed(0, id);
            delivered(0, id);
        }
    }

    /**
     * QP {@code id}'s rate, notifications received or posted work changed, told by an RNIC of {@code partition}
     * (nothing when nobody tracks changes).
     */
    void changed(int partition, int id) {
        if (changed != null && id >= 0) {
            mark(changed, partition, id);
        }
    }

    /**
     * QP {@code id}'s responder, an RNIC of {@code partition}, received payload in order (nothing when nobody tracks
     * changes): once per data packet delivered, so that a sample of the bytes delivered visits only those QPs, not
     * every one that still has bytes to deliver (a 1,024-host all-to-all's million, every sample: 3.6 % of its loop).
     */
    void delivered(int partition, int id) {
        if (delivered != null) {
            mark(delivered, partition, id);
        }
    }

    /**
     * Sets bit {@code id} of {@code partition}'s bits. Every partition's array grows together, and only where one
     * thread runs: QPs open while the fabric is built or, in a partitioned run, between windows.
     */
    private static void mark(long[][] bits, int partition, int id) {
        long[] b = bits[partition];
        int w = id >>> 6;
        if (w >= b.length) {
            int words = Math.max(b.length * 2, w + 1);
            for (int p = 0; p < bits.length; p++) {
                bits[p] = Arrays.copyOf(bits[p], words);
            }
            b = bits[partition];
        }
        b[w] |= 1L << id;
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

    /** The lowest id at or after {@code from} whose bit any partition set, cleared in all of them, or -1. */
    private static int take(long[][] bits, int from) {
        int w = from >>> 6;
        int words = bits[0].length;
        if (w >= words) {
            return -1;
        }
        long word = union(bits, w) & (-1L << from);
        while (word == 0) {
            if (++w == words) {
                return -1;
            }
            word = union(bits, w);
        }
        int id = (w << 6) + Long.numberOfTrailingZeros(word);
        long clear = ~(1L << id);
        for (long[] b : bits) {
            b[w] &= clear;
        }
        return id;
    }

    private static long union(long[][] bits, int w) {
        long word = 0;
        for (long[] b : bits) {
            word |= b[w];
        }
        return word;
    }
}
