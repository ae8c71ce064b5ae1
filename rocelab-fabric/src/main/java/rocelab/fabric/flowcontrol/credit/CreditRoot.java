package rocelab.fabric.flowcontrol.credit;

/**
 * The root of a wait for credits (InfiniBand link-level flow control, IBA vol. 1 §7.9), packed in one {@code long} so
 * that a flow-control packet can carry it and a port keep it without allocating: what held the buffer whose credits a
 * transmitter waited for, and where that congestion started. The receiver of a lane names it when it grants credits
 * back (its buffer held packets queued for one of its egress ports, the holder, and that egress was either free to
 * send, the congestion point, or itself held back by credits, whose root it carries on); the transmitter keeps the
 * root carried by the update that ended its stall, one credit hop further. {@link #NONE} (-1): nothing traced.
 *
 * <p>Kinds: {@link #CONGESTION} a switch egress port that was not held back by credits (the congestion point);
 * {@link #RECEIVER} an HCA whose receive buffer held packets its receive path had not taken yet; {@link #ROUND_TRIP}
 * the buffer held nothing of the lane when it granted the credits that ended the wait (they were on their way back:
 * the credit loop of the link, named by its transmitter); {@link #UNKNOWN} the holder was held back by credits whose
 * root it had not been told yet (port -1: the buffer held blocks of no queued packet, no holder to name).
 */
public final class CreditRoot {
    public static final long NONE = -1;
    public static final int CONGESTION = 0;
    public static final int RECEIVER = 1;
    public static final int ROUND_TRIP = 2;
    public static final int UNKNOWN = 3;
    /** Most credit hops counted; a longer chain (a credit loop) stays at this. */
    public static final int MAX_DEPTH = 127;

    private static final int NODE_BITS = 28;
    private static final int PORT_SHIFT = 28;
    private static final int HOLDER_SHIFT = 40;
    private static final int DEPTH_SHIFT = 52;
    private static final int KIND_SHIFT = 59;
    private static final long PORT_MASK = 0xFFF;
    private static final long DEPTH_MASK = 0x7F;

    /** What a receiver whose lane holds nothing grants: the transmitter names the root by its own port. */
    public static final long EMPTY_BUFFER = of(ROUND_TRIP, -1, -1, -1, 0);

    private CreditRoot() {}

    /**
     * @param kind one of the kinds above
     * @param node the root's node (a switch or host node id; -1 for {@link #EMPTY_BUFFER})
     * @param port the root's port on that node (-1: none)
     * @param holder the egress port, at the device whose buffer was full, that the buffered packets waited for (-1:
     *     none, an HCA or an empty buffer)
     * @param depth credit hops from the buffer that was full to the root (0: its holder is the root)
     */
    public static long of(int kind, int node, int port, int holder, int depth) {
        if (port < -1 || port >= PORT_MASK || holder < -1 || holder >= PORT_MASK || node < -1
                || node >= (1 << NODE_BITS) - 1) {
            throw new IllegalArgumentException("a credit root names nodes below 2^28 - 1 and ports below 4095");
        }
        return (long) kind << KIND_SHIFT | (long) Math.min(depth, MAX_DEPTH) << DEPTH_SHIFT
                | (long) (holder + 1) << HOLDER_SHIFT | (long) (port + 1) << PORT_SHIFT | (node + 1);
    }

    public static int kind(long root) {
        return (int) (root >>> KIND_SHIFT & 3);
    }

    public static int node(long root) {
        return (int) (root & ((1L << NODE_BITS) - 1)) - 1;
    }

    public static int port(long root) {
        return (int) (root >>> PORT_SHIFT & PORT_MASK) - 1;
    }

    public static int holder(long root) {
        return (int) (root >>> HOLDER_SHIFT & PORT_MASK) - 1;
    }

    public static int depth(long root) {
        return (int) (root >>> DEPTH_SHIFT & DEPTH_MASK);
    }

    /**
     * The root a transmitter keeps for a stall that {@code carried} ended, one credit hop further; an empty buffer's
     * root is the transmitter's own link ({@code node}, {@code port}). No allocation: the devices call it per stall.
     */
    public static long seenFrom(long carried, int node, int port) {
        if (carried < 0) {
            return NONE;
        }
        int depth = Math.min(depth(carried) + 1, MAX_DEPTH);
        if (carried == EMPTY_BUFFER) {
            return of(ROUND_TRIP, node, port, -1, depth);
        }
        return carried & ~(DEPTH_MASK << DEPTH_SHIFT) | (long) depth << DEPTH_SHIFT;
    }

    /** {@code root} as a receiver carries it on: its buffer held packets for its egress {@code holder}. */
    public static long heldFor(long root, int holder) {
        return root & ~(PORT_MASK << HOLDER_SHIFT) | (long) (holder + 1) << HOLDER_SHIFT;
    }
}
