package rocelab.fabric.packet;

import java.util.List;

/**
 * The only source of packets. Acquire pops a preallocated packet; release pushes it back. The pool may grow
 * during warm-up (each growth is counted); in steady state it does not allocate.
 */
public final class PacketPool {
    private final FreeStack<Packet> free;
    /** Extras given back by the packets released here, for the next packet that writes some ({@link #takeExtras}). */
    private final FreeStack<PacketExtras> freeExtras = new FreeStack<>(new PacketExtras[16]);
    private long acquired;
    private long released;
    private int created;
    private int extrasCreated;
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
        int n = Math.max(16, initialSize);
        free = new FreeStack<>(new Packet[n]);
        make(n);
        created = n;
    }

    public Packet acquire() {
        if (free.size() == 0) {
            grow();
        }
        Packet p = free.pop();
        p.clear();
        p.framing = (char) framingBytes;
        p.free = false;
        p.pool = this;
        acquired++;
        return p;
    }

    public void release(Packet p) {
        if (p.free) {
            throw new IllegalStateException("packet released twice");
        }
        p.free = true;
        p.next = null;
        PacketExtras x = p.extras;
        if (x != null) {
            x.clear();
            p.extras = null;
            freeExtras.push(x);
        }
        // In a partitioned run a packet acquired from another partition's pool comes back here (the stack grows).
        free.push(p);
        released++;
    }

    /**
     * Lets the collector have the free packets: for the end of a run, when the pool holds as many as the run's peak
     * had in flight (the 1,024-host all-to-all: 1.2 million, 180 MB) and the outputs need the room. Packets still out
     * stay theirs; a later {@link #acquire} makes new ones, as in the warm-up.
     */
    public void dropFree() {
        free.clear();
        freeExtras.clear();
    }

    /**
     * Lets the collector have half of the free packets (and extras) that no acquisition reached since the last call,
     * when they are more than {@link #IDLE_FLOOR}: a large run's tail, where fewer and fewer flows are left, held as
     * many as its peak had in flight (the 1,024-host all-to-all: 1.2 million packets, 180 MB, at the loop's end, beside
     * its records). Halving at each call, rather than dropping all, keeps the pool from making them again at once
     * when the packets in flight swing back up. Does nothing to a pool of fewer: in steady state it does not allocate.
     */
    public void trimIdle() {
        created -= free.trimIdle(IDLE_FLOOR);
        extrasCreated -= freeExtras.trimIdle(IDLE_FLOOR);
    }

    /** Idle free packets or extras a pool keeps whatever {@link #trimIdle} finds (2.4 MB of packets). */
    static final int IDLE_FLOOR = LARGE / 4;

    /**
     * Extras for a packet of this pool's that writes some: one given back by a released packet, else one of a batch
     * made now (in the warm-up; {@link #extrasCreatedCount}), as many as the packets' growth would make: made one at
     * a time, each new peak of packets in flight with extras (selective repeat's every data packet) made some more.
     */
    PacketExtras takeExtras() {
        if (freeExtras.size() == 0) {
            int add = batch(extrasCreated);
            freeExtras.growBy(add);
            for (int i = 0; i < add; i++) {
                freeExtras.push(new PacketExtras());
            }
            extrasCreated += add;
        }
        return freeExtras.pop();
    }

    /**
     * Extras made and kept: as many as the run's peak had in use at once and up to a fifth more, past which it makes
     * none (less what {@link #trimIdle} let go).
     */
    public int extrasCreatedCount() {
        return extrasCreated;
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

    /** Free packets this pool has room for before its stack grows. */
    int freeRoom() {
        return free.room();
    }

    /** Packets made and kept (less what {@link #trimIdle} let go). */
    public int createdCount() {
        return created;
    }

    public int growths() {
        return growths;
    }

    /**
     * Between the windows of a partitioned run (every partition idle): packets travel from the pool of the partition
     * that sends them to the pool of the one that releases them, so the free packets are evened out here; otherwise
     * a partition that only sends (an incast's senders) would create packets while another's pile up. So are the
     * free extras: a CNP's go from the partition of the RNIC that notifies to the one of the RNIC that reacts.
     */
    public static void rebalance(List<PacketPool> pools) {
        FreeStack.even(pools, p -> p.free);
        FreeStack.even(pools, p -> p.freeExtras);
    }

    private void grow() {
        // Twice as many while small (a few growths in the warm-up, then none), a quarter more past 65,536 packets
        // (10 MB): a packet is 152 bytes, and a large lossless run holds hundreds of thousands in its queues at its
        // peak (the 1,024-host all-to-all: more than 2^20), where doubling would leave up to as many again unused for
        // the rest of the run, in every partition's pool. At most a fifth unused there.
        int add = batch(created);
        free.growBy(add);
        make(add);
        created += add;
        growths++;
    }

    private static int batch(int made) {
        return made < LARGE ? Math.max(16, made) : made >> 2;
    }

    /**
     * Pushes {@code n} new packets: allocation order is address order, so the packets lie side by side (fewer pages
     * and lines for what every hop reads).
     */
    private void make(int n) {
        for (int i = 0; i < n; i++) {
            free.push(new Packet());
        }
    }
}
