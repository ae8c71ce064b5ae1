package rocelab.fabric.packet;

/**
 * The packets a switch holds in its egress queues of lossless classes, linked again by (ingress port, egress port,
 * class) through an intrusive field of the packet, so that the cause of an XOFF (the ingress group's bytes by
 * egress port and its flows) is found by visiting that group's packets only, not every packet queued at the switch
 * (up to a whole 32 MB buffer of them at every XOFF of a large all-to-all). Made only when a PFC log asks for it;
 * lossy classes are never linked. Adding and removing are O(1) and allocate nothing.
 *
 * <p>Each list is a first-in first-out chain: an egress queue of one class is a FIFO, so the packets of one ingress
 * group in it leave in the order they came, and the packet leaving is always its list's head. Removing it then
 * touches no other packet: a doubly linked list wrote its newer neighbour, which behind a deep queue (a 1,024-host
 * all-to-all holds a million frames behind pauses) had gone cold in the meantime. Each list also counts its
 * bytes; on InfiniBand only the counts are kept ({@code linked} false), on every data lane: what a port's input buffer
 * holds for each egress names the root of a wait for its credits, and the counts of one input and lane lie side by
 * side, one per egress port.
 */
public final class IngressLists {
    private final int ports;
    /** The list slot of each traffic class, -1 for a class that is not lossless. */
    private final int[] slotOfClass;
    private final int slots;
    /**
     * Each list's oldest packet at {@code 2i} and its newest (where the next one is linked) at {@code 2i + 1}: one
     * line for both, as a 128-port spine's lists' ends alone fill 128 KB (null when the packets are only counted).
     */
    private final Packet[] ends;
    /** The bytes of each list: what an ingress group holds for each egress port, without visiting its packets. */
    private final long[] bytes;

    /** @param losslessMask bit {@code c} set when traffic class {@code c} is lossless */
    public IngressLists(int ports, int classes, int losslessMask) {
        this(ports, classes, losslessMask, true);
    }

    /** As {@link #IngressLists(int, int, int)}; with {@code linked} false the lists only count their bytes. */
    public IngressLists(int ports, int classes, int losslessMask, boolean linked) {
        this.ports = ports;
        this.slotOfClass = new int[classes];
        int n = 0;
        for (int c = 0; c < classes; c++) {
            slotOfClass[c] = (losslessMask & 1 << c) != 0 ? n++ : -1;
        }
        this.slots = n;
        this.bytes = new long[ports * ports * Math.max(1, n)];
        this.ends = linked ? new Packet[2 * bytes.length] : null;
    }

    /** Whether class {@code tc}'s packets are linked here (it is lossless). */
    public boolean tracks(int tc) {
        return tc < slotOfClass.length && slotOfClass[tc] >= 0;
    }

    private int index(int in, int out, int slot) {
        return (in * slots + slot) * ports + out;
    }

    /** Links a packet queued at {@code out} in class {@code tc} that came in by {@code in} (no-op when lossy). */
    public void add(int in, int out, int tc, Packet p) {
        int slot = slotOfClass[tc];
        if (slot < 0) {
            return;
        }
        int i = index(in, out, slot);
        if (ends == null) {
            // Counted only when not linked (InfiniBand's credit roots): a PFC log's XOFF causes visit the packets,
            // and a count kept beside the links cost every lossless packet a read and write more at every switch.
            bytes[i] += p.frameBytes;
            return;
        }
        Packet tail = ends[2 * i + 1];
        p.ingressNext = null;
        if (tail == null) {
            ends[2 * i] = p;
        } else {
            tail.ingressNext = p;
        }
        ends[2 * i + 1] = p;
    }

    /**
     * Unlinks a packet leaving the queue of {@code out} in class {@code tc} (no-op when lossy): the head of its
     * egress queue, so the head of its list.
     */
    public void remove(int out, int tc, Packet p) {
        int slot = slotOfClass[tc];
        if (slot < 0) {
            return;
        }
        int i = index(p.ingressPort, out, slot);
        if (ends == null) {
            bytes[i] -= p.frameBytes;
            return;
        }
        if (ends[2 * i] != p) {
            // A list is a subsequence of a FIFO queue: only a removal from the middle of a queue gets here.
            throw new IllegalStateException("a packet left its egress queue ahead of its ingress group's older ones");
        }
        Packet next = p.ingressNext;
        ends[2 * i] = next;
        if (next == null) {
            ends[2 * i + 1] = null;
        }
        p.ingressNext = null;
    }

    /** The oldest packet queued at {@code out} in class {@code tc} from {@code in}, or null. */
    public Packet first(int in, int out, int tc) {
        int slot = slotOfClass[tc];
        return slot < 0 || ends == null ? null : ends[2 * index(in, out, slot)];
    }

    /**
     * The bytes queued at {@code out} in class {@code tc} that came in by {@code in} (0 for a lossy class), counted
     * only when the lists are not linked.
     */
    public long bytes(int in, int out, int tc) {
        if (ends != null) {
            throw new IllegalStateException("linked lists do not count their bytes");
        }
        int slot = slotOfClass[tc];
        return slot < 0 ? 0 : bytes[index(in, out, slot)];
    }

    /** The packet after {@code p} in its (ingress, egress, class) list, or null. */
    public static Packet next(Packet p) {
        return p.ingressNext;
    }
}
