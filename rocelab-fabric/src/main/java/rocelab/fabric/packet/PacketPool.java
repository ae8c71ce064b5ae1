package rocelab.fabric.packet;

import java.util.Arrays;
import java.util.List;

/**
 * The only source of packets. Acquire pops a preallocated packet; release pushes it back. The pool may grow
 * during warm-up (each growth is counted); in steady state it does not allocate.
 */
public final class PacketPool {
    private Packet[] free;
    private int freeCount;
    private long acquired;
    private long released;
    private int created;
    private int growths;
    private final int framingBytes;
    /** From this many packets on, the pool grows by a quarter instead of doubling. */
    static final int LARGE = 1 << 16;

    public PacketPool(int initialSize) {
        this(initialSize, FrameFormat.PREAMBLE_AND_IFG);
    }

    /** @param framingBytes link time per packet beyond its bytes (Ethernet preamble and IFG, IB delimiters) */
    public PacketPool(int initialSize, int framingBytes) {
        this.framingBytes = framingBytes;
        free = new Packet[Math.max(16, initialSize)];
        make(free, free.length);
        freeCount = free.length;
        created = free.length;
    }

    public Packet acquire() {
        if (freeCount == 0) {
            grow();
        }
        Packet p = free[--freeCount];
        free[freeCount] = null;
        p.clear();
        p.framing = (char) framingBytes;
        p.free = false;
        acquired++;
        return p;
    }

    public void release(Packet p) {
        if (p.free) {
            throw new IllegalStateException("packet released twice");
        }
        p.free = true;
        p.next = null;
        if (freeCount == free.length) {
            // A partitioned run: a packet acquired from another partition's pool comes back here.
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = p;
        released++;
    }

    /**
     * Lets the collector have the free packets: for the end of a run, when the pool holds as many as the run's peak
     * had in flight (the 1,024-host all-to-all: 1.1 million, 250 MB with their extras) and the outputs need the room.
     * Packets still out stay theirs; a later {@link #acquire} makes new ones, as in the warm-up.
     */
    public void dropFree() {
        free = new Packet[16];
        freeCount = 0;
    }

    /** Packets handed out and not yet returned: those in queues, on links and in service. */
    public long outstanding() {
        return acquired - released;
    }

    public long acquiredCount() {
        return acquired;
    }

    public long releasedCount() {
        return released;
    }

    public int createdCount() {
        return created;
    }

    public int growths() {
        return growths;
    }

    /**
     * Between the windows of a partitioned run (every partition idle): packets travel from the pool of the partition
     * that sends them to the pool of the one that releases them, so the free packets are evened out here; otherwise
     * a partition that only sends (an incast's senders) would create packets while another's pile up.
     */
    public static void rebalance(List<PacketPool> pools) {
        long total = 0;
        for (PacketPool p : pools) {
            total += p.freeCount;
        }
        int share = (int) (total / pools.size());
        int a = 0;
        for (PacketPool rich : pools) {
            while (rich.freeCount > share + share / 2 + 16) {
                while (a < pools.size() && pools.get(a).freeCount >= share) {
                    a++;
                }
                if (a == pools.size()) {
                    return;
                }
                PacketPool poor = pools.get(a);
                int move = Math.min(rich.freeCount - share, share - poor.freeCount);
                if (poor.free.length < poor.freeCount + move) {
                    poor.free = Arrays.copyOf(poor.free, Math.max(poor.free.length * 2, poor.freeCount + move));
                }
                System.arraycopy(rich.free, rich.freeCount - move, poor.free, poor.freeCount, move);
                Arrays.fill(rich.free, rich.freeCount - move, rich.freeCount, null);
                rich.freeCount -= move;
                poor.freeCount += move;
            }
        }
    }

    private void grow() {
        // Twice as many while small (a few growths in the warm-up, then none), a quarter more past 65,536 packets
        // (15 MB): a packet and its extras are about 230 bytes, and a large lossless run holds hundreds of thousands
        // in its queues at its peak (the 1,024-host all-to-all: more than 2^19), where doubling would leave up to as
        // many again unused for the rest of the run, in every partition's pool. At most a fifth unused there.
        int add = created < LARGE ? Math.max(16, created) : created >> 2;
        free = Arrays.copyOf(free, free.length + add);
        make(free, add);
        freeCount = add;
        created += add;
        growths++;
    }

    /**
     * Fills {@code into[0..n)} with new packets, every packet's extras made after all the packets: allocation order
     * is address order, so the packets lie side by side (fewer pages and lines for what every hop reads) and their
     * rarely touched extras lie apart.
     */
    private static void make(Packet[] into, int n) {
        for (int i = 0; i < n; i++) {
            into[i] = new Packet();
        }
        for (int i = 0; i < n; i++) {
            into[i].extras = new PacketExtras();
        }
    }
}
