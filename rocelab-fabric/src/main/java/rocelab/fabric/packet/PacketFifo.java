package rocelab.fabric.packet;

/**
 * A first-in first-out queue of packets in a ring that doubles when full; tracks bytes. Adding writes the ring,
 * not the packet queued last (which has long left the cache when a deep queue takes another), and each packet
 * keeps its place in the ring so that a walk can go from one packet to the next without removing them.
 */
public final class PacketFifo {
    private Packet[] ring = new Packet[8];
    private int head;
    private int count;
    /** The position of the head packet in the sequence of packets ever added (wraps around). */
    private int headSeq;
    private long bytes;

    public void add(Packet p) {
        if (count == ring.length) {
            grow();
        }
        ring[(head + count) & (ring.length - 1)] = p;
        p.fifoSeq = headSeq + count;
        count++;
        bytes += p.frameBytes;
    }

    public Packet poll() {
        if (count == 0) {
            return null;
        }
        Packet p = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        headSeq++;
        count--;
        bytes -= p.frameBytes;
        return p;
    }

    public Packet peek() {
        return count == 0 ? null : ring[head];
    }

    /** The packet queued behind {@code p} in this FIFO, or null (for walking the queue without removing). */
    public Packet after(Packet p) {
        int i = p.fifoSeq - headSeq + 1;
        return i < count ? ring[(head + i) & (ring.length - 1)] : null;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    public int size() {
        return count;
    }

    /** Frame bytes queued. */
    public long bytes() {
        return bytes;
    }

    private void grow() {
        int n = ring.length;
        Packet[] r = new Packet[2 * n];
        for (int k = 0; k < count; k++) {
            r[k] = ring[(head + k) & (n - 1)];
        }
        ring = r;
        head = 0;
    }
}
