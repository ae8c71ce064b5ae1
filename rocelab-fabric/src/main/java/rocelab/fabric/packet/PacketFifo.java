package rocelab.fabric.packet;

/** A first-in first-out queue of packets linked through their intrusive {@code next} field; tracks bytes. */
public final class PacketFifo {
    private Packet head;
    private Packet tail;
    private int count;
    private long bytes;

    public void add(Packet p) {
        p.next = null;
        if (tail == null) {
            head = p;
        } else {
            tail.next = p;
        }
        tail = p;
        count++;
        bytes += p.frameBytes;
    }

    public Packet poll() {
        Packet p = head;
        if (p != null) {
            head = p.next;
            if (head == null) {
                tail = null;
            }
            p.next = null;
            count--;
            bytes -= p.frameBytes;
        }
        return p;
    }

    public Packet peek() {
        return head;
    }

    /** The last packet queued (the one a packet added now would follow), or null. */
    public Packet last() {
        return tail;
    }

    /** The packet queued behind {@code p} in this FIFO, or null (for walking the queue without removing). */
    public Packet after(Packet p) {
        return p.next;
    }

    public boolean isEmpty() {
        return head == null;
    }

    public int size() {
        return count;
    }

    /** Frame bytes queued. */
    public long bytes() {
        return bytes;
    }
}
