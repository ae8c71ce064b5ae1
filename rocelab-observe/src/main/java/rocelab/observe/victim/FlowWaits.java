package rocelab.observe.victim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The waits of each flow's packets at the transmitters of its way, where a lossless fabric held them (behind a PFC
 * pause, or for InfiniBand credits), each attributed to the root the transmitter was held by, and split by whether
 * that root is on the flow's own round trip. Both the PFC log and the credit log keep their flows' waits here, so a
 * victim means the same on both fabrics ({@link Victims}).
 *
 * <p>A transmitter reports each wait of a flow's packet as an interval on its own held-time clock (paused time, or
 * credit-stall time, of the packet's class): packets queued together wait through the same hold and report
 * overlapping intervals. Per flow and hop the intervals are merged (a flow's packets wait in FIFO order, so their
 * intervals on one clock only need a high-water mark): the flow's wait at a hop is the held time during which at
 * least one of its packets (at an RNIC: its next packet) was held there. The waits of the ACK of a message's last
 * packet are a hop of their own: its sender sees the flow complete only when it arrives. Each new part of a wait goes
 * to the root the caller names; a root off the flow's round trip makes the wait a victim's.
 */
public final class FlowWaits {
    /** Where a root lies relative to a flow: whether it is on the round trip of {@code queuePair}. */
    @FunctionalInterface
    public interface RootPlace {
        boolean onRoundTrip(int queuePair, int kind, int node, int port);
    }

    /** Hops kept per flow, and roots kept per flow; a flow with more merges the rest into the last one. */
    private static final int SLOTS = 8;
    private static final int ROOTS = 8;
    /** A flow's roots come in chunks of this many, the second made only when a flow has waited behind a fifth. */
    private static final int ROOT_CHUNK = ROOTS / 2;
    /**
     * A flow's hop slots come in chunks of this many: the first at its first wait, the second at its fifth hop. A
     * leaf-spine flow has at most four (its RNIC, two leaves, a spine), so a 1,024-host all-to-all's million flows
     * keep four slots each instead of eight (134 MB).
     */
    private static final int CHUNK = SLOTS / 2;
    /** A hop key's flag: the waits there were of the flow's ACKs. */
    private static final long ACK_HOP = 1L << 62;
    private static final int KIND_SHIFT = 56;

    private final RootPlace place;
    private final boolean depthRange;
    // Per-flow waits (by message cookie: the flow id): flowBase[flow] = its index among the flows with waits, or
    // -1. That index names its roots and its chunks of hop slots (firstChunk, secondChunk: -1 until needed).
    private int[] flowBase = new int[64];
    private int flowsWithWaits;
    private int[] firstChunk = new int[16];
    private int[] secondChunk = new int[16];
    private int[] firstRoots = new int[16];
    private int[] secondRoots = new int[16];
    private int chunks;
    private int rootChunks;
    private long[] slotKey = new long[CHUNK * 16];
    private long[] slotClock = new long[CHUNK * 16];
    private long[] slotWait = new long[CHUNK * 16];
    private long[] slotOffPath = new long[CHUNK * 16];
    private long[] rootKey = new long[ROOT_CHUNK * 16];
    private long[] rootWait = new long[ROOT_CHUNK * 16];
    /** Holds from the root at the flow's first wait behind it, and the fewest and most of all its waits behind it. */
    private int[] rootDepth = new int[ROOT_CHUNK * 16];
    /** Only with {@code depthRange} (else empty: a million flows' PFC waits need only the first). */
    private int[] rootMinDepth;
    private int[] rootMaxDepth;
    private boolean[] rootOnPath = new boolean[ROOT_CHUNK * 16];

    public FlowWaits(RootPlace place) {
        this(place, true);
    }

    /**
     * With {@code depthRange} false only the hops from each root at the flow's first wait behind it are kept (the
     * fewest and most are that one): two arrays less to touch per wait, where a PFC log needs only the first.
     */
    public FlowWaits(RootPlace place, boolean depthRange) {
        this.place = place;
        this.depthRange = depthRange;
        this.rootMinDepth = new int[depthRange ? ROOT_CHUNK * 16 : 0];
        this.rootMaxDepth = new int[depthRange ? ROOT_CHUNK * 16 : 0];
        Arrays.fill(flowBase, -1);
        Arrays.fill(slotKey, -1);
        Arrays.fill(rootKey, Long.MIN_VALUE);
    }

    /**
     * A packet of flow {@code flow} (on {@code queuePair}) waited at transmitter ({@code node}, {@code port}) from
     * {@code fromClockPs} to {@code toClockPs} on that transmitter's held-time clock ({@code ack}: the flow's last ACK
     * waited), behind the root ({@code rootKind}, {@code rootNode}, {@code rootPort}), {@code depth} hops away. A
     * negative flow (a duplicate of a packet already acknowledged: no flow waits for it any more) is ignored.
     */
    public void add(long flow, int queuePair, int node, int port, boolean ack, long fromClockPs, long toClockPs,
            int rootKind, int rootNode, int rootPort, int depth) {
        long added = claim(flow, node, port, ack, fromClockPs, toClockPs);
        if (added > 0) {
            credit(queuePair, added, rootKind, rootNode, rootPort, depth);
        }
    }

    /**
     * Makes room at once for flows numbered below {@code flows}, and for the first hop chunk and root chunk of
     * {@code flowsWithWaits} of them, so that a run whose flows start waiting late (when it is warm) does not grow the
     * arrays then. More flows than that still fit: the arrays grow as before.
     */
    public void reserve(int flows, int flowsWithWaits) {
        if (flows > flowBase.length) {
            int old = flowBase.length;
            flowBase = Arrays.copyOf(flowBase, flows);
            Arrays.fill(flowBase, old, flows, -1);
        }
        if (flowsWithWaits > firstChunk.length) {
            firstChunk = Arrays.copyOf(firstChunk, flowsWithWaits);
            secondChunk = Arrays.copyOf(secondChunk, flowsWithWaits);
            firstRoots = Arrays.copyOf(firstRoots, flowsWithWaits);
            secondRoots = Arrays.copyOf(secondRoots, flowsWithWaits);
        }
        int slots = flowsWithWaits * CHUNK;
        if (slots > slotKey.length) {
            int old = slotKey.length;
            slotKey = Arrays.copyOf(slotKey, slots);
            slotClock = Arrays.copyOf(slotClock, slots);
            slotWait = Arrays.copyOf(slotWait, slots);
            slotOffPath = Arrays.copyOf(slotOffPath, slots);
            Arrays.fill(slotKey, old, slots, -1);
        }
        int roots = flowsWithWaits * ROOT_CHUNK;
        if (roots > rootKey.length) {
            int old = rootKey.length;
            rootKey = Arrays.copyOf(rootKey, roots);
            rootWait = Arrays.copyOf(rootWait, roots);
            rootDepth = Arrays.copyOf(rootDepth, roots);
            if (depthRange) {
                rootMinDepth = Arrays.copyOf(rootMinDepth, roots);
                rootMaxDepth = Arrays.copyOf(rootMaxDepth, roots);
            }
            rootOnPath = Arrays.copyOf(rootOnPath, roots);
            Arrays.fill(rootKey, old, roots, Long.MIN_VALUE);
        }
    }

    /**
     * As {@link #add}, for waits that have no root (the ECMP log's: a collision is its own cause): the new part is
     * counted on the hop and nothing else. Returns it (0 or less: nothing new).
     */
    public long addUnrooted(long flow, int node, int port, boolean ack, long fromClockPs, long toClockPs) {
        return claim(flow, node, port, ack, fromClockPs, toClockPs);
    }

    /** The flow and hop slot {@link #claim} took its part for, for {@link #credit}. */
    private int claimedOrdinal;
    private int claimedSlot;

    /**
     * The first half of {@link #add}: how much of the wait is new at that hop (what earlier packets' waits there have
     * not covered), which it counts on the hop; 0 or less when nothing is new. When it is positive, {@link #credit}
     * must follow at once with the wait's root: a caller whose root costs a search finds it only for a new part.
     */
    public long claim(long flow, int node, int port, boolean ack, long fromClockPs, long toClockPs) {
        if (flow < 0 || flow > Integer.MAX_VALUE) {
            return 0;
        }
        int ordinal = base((int) flow);
        long key = key(node, port) | (ack ? ACK_HOP : 0);
        int j = 0;
        int s = slot(ordinal, 0);
        while (j < SLOTS - 1 && slotKey[s] != key && slotKey[s] != -1) {
            s = slot(ordinal, ++j);
            if (s < 0) { // the flow's fifth hop: its second chunk, empty
                secondChunk[ordinal] = newChunk();
                s = slot(ordinal, j);
            }
        }
        if (slotKey[s] != key) {
            if (slotKey[s] == -1) {
                slotKey[s] = key;
            } else {
                // More hops than slots: the last slot takes the rest, on a fresh clock.
                slotClock[s] = Long.MIN_VALUE;
            }
        }
        long added = toClockPs - Math.max(fromClockPs, slotClock[s]);
        if (added <= 0) {
            return 0;
        }
        slotClock[s] = Math.max(slotClock[s], toClockPs);
        slotWait[s] += added;
        claimedOrdinal = ordinal;
        claimedSlot = s;
        return added;
    }

    /** The second half of {@link #add}: the part {@link #claim} just counted, {@code added}, goes to its root. */
    public void credit(int queuePair, long added, int rootKind, int rootNode, int rootPort, int depth) {
        int ordinal = claimedOrdinal;
        int s = claimedSlot;
        long root = (long) rootKind << KIND_SHIFT | key(rootNode, rootPort);
        if (firstRoots[ordinal] < 0) {
            firstRoots[ordinal] = newRootChunk();
        }
        int i = 0;
        int r = rootSlot(ordinal, 0);
        while (i < ROOTS - 1 && rootKey[r] != root && rootKey[r] != Long.MIN_VALUE) {
            r = rootSlot(ordinal, ++i);
            if (r < 0) { // the flow's fifth root: its second chunk, empty
                secondRoots[ordinal] = newRootChunk();
                r = rootSlot(ordinal, i);
            }
        }
        if (rootKey[r] != root) {
            // A new root, or more roots than slots: the last slot takes the latest one.
            rootKey[r] = root;
            rootDepth[r] = depth;
            if (depthRange) {
                rootMinDepth[r] = depth;
                rootMaxDepth[r] = depth;
            }
            rootOnPath[r] = place.onRoundTrip(queuePair, rootKind, rootNode, rootPort);
        }
        if (depthRange) {
            rootMinDepth[r] = Math.min(rootMinDepth[r], depth);
            rootMaxDepth[r] = Math.max(rootMaxDepth[r], depth);
        }
        rootWait[r] += added;
        if (!rootOnPath[r]) {
            slotOffPath[s] += added;
        }
    }

    private static long key(int node, int port) {
        return (long) node << 20 | (port & 0xFFFFF);
    }

    private static int keyNode(long key) {
        return (int) ((key & ~ACK_HOP & ((1L << KIND_SHIFT) - 1)) >> 20);
    }

    private static int keyPort(long key) {
        int p = (int) (key & 0xFFFFF);
        return p == 0xFFFFF ? -1 : p;
    }

    private int base(int flow) {
        if (flow >= flowBase.length) {
            int old = flowBase.length;
            flowBase = Arrays.copyOf(flowBase, Math.max(flow + 1, 2 * old));
            Arrays.fill(flowBase, old, flowBase.length, -1);
        }
        if (flowBase[flow] < 0) {
            int o = flowsWithWaits++;
            if (o == firstChunk.length) {
                int n = 2 * o;
                firstChunk = Arrays.copyOf(firstChunk, n);
                secondChunk = Arrays.copyOf(secondChunk, n);
                firstRoots = Arrays.copyOf(firstRoots, n);
                secondRoots = Arrays.copyOf(secondRoots, n);
            }
            firstChunk[o] = newChunk();
            secondChunk[o] = -1;
            // Roots come with the first credited part ({@link #credit}): waits without roots (the ECMP log's) never
            // take any, a million colliding flows' 116 bytes each.
            firstRoots[o] = -1;
            secondRoots[o] = -1;
            flowBase[flow] = o;
        }
        return flowBase[flow];
    }

    /** Slot {@code j} (0..SLOTS-1) of the flow with waits {@code ordinal}, or -1 if its chunk was not made. */
    private int slot(int ordinal, int j) {
        if (j < CHUNK) {
            return firstChunk[ordinal] * CHUNK + j;
        }
        int c = secondChunk[ordinal];
        return c < 0 ? -1 : c * CHUNK + j - CHUNK;
    }

    /** Root slot {@code i} (0..ROOTS-1) of the flow with waits {@code ordinal}, or -1 if its chunk was not made. */
    private int rootSlot(int ordinal, int i) {
        if (i < ROOT_CHUNK) {
            int c = firstRoots[ordinal];
            return c < 0 ? -1 : c * ROOT_CHUNK + i;
        }
        int c = secondRoots[ordinal];
        return c < 0 ? -1 : c * ROOT_CHUNK + i - ROOT_CHUNK;
    }

    /** A chunk of empty root slots. */
    private int newRootChunk() {
        int c = rootChunks++;
        int b = c * ROOT_CHUNK;
        if (b + ROOT_CHUNK > rootKey.length) {
            int n = 2 * rootKey.length;
            int oldLen = rootKey.length;
            rootKey = Arrays.copyOf(rootKey, n);
            rootWait = Arrays.copyOf(rootWait, n);
            rootDepth = Arrays.copyOf(rootDepth, n);
            if (depthRange) {
                rootMinDepth = Arrays.copyOf(rootMinDepth, n);
                rootMaxDepth = Arrays.copyOf(rootMaxDepth, n);
            }
            rootOnPath = Arrays.copyOf(rootOnPath, n);
            Arrays.fill(rootKey, oldLen, n, Long.MIN_VALUE);
        }
        return c;
    }

    /** A chunk of empty slots (no key, a fresh clock). */
    private int newChunk() {
        int c = chunks++;
        int b = c * CHUNK;
        if (b + CHUNK > slotKey.length) {
            int n = 2 * slotKey.length;
            int oldLen = slotKey.length;
            slotKey = Arrays.copyOf(slotKey, n);
            slotClock = Arrays.copyOf(slotClock, n);
            slotWait = Arrays.copyOf(slotWait, n);
            slotOffPath = Arrays.copyOf(slotOffPath, n);
            Arrays.fill(slotKey, oldLen, n, -1);
        }
        for (int s = b; s < b + CHUNK; s++) {
            slotClock[s] = Long.MIN_VALUE;
        }
        return c;
    }

    /**
     * Where a flow waited: a transmitter (switch egress port, or an RNIC with its port), and whether what waited there
     * was the flow's data (at an RNIC: its sender's) or its last ACK on its way back ({@code acks}: at an RNIC, its
     * receiver's).
     */
    public record Hop(int node, int port, long waitPs, long offPathWaitPs, boolean acks) {}

    /**
     * A root the flow's waits were behind: a node and port (port -1: none, such as a switch's buffer) of a
     * {@code kind} its log defines (0 for PFC); {@code hops} is how many holds away from it the flow waited at its
     * first wait behind it, {@code minHops} and {@code maxHops} the fewest and most over all its waits behind it;
     * {@code onPath}: it lies on the flow's own round trip.
     */
    public record Root(int node, int port, int hops, long waitPs, boolean onPath, int kind, int minHops,
            int maxHops) {}

    /** The flow's waits at each hop, in the order first seen (flows are the QP messages' cookies: the flow ids). */
    public List<Hop> waits(int flow) {
        List<Hop> out = new ArrayList<>();
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return out;
        }
        int o = flowBase[flow];
        for (int j = 0, s = slot(o, 0); j < SLOTS && s >= 0 && slotKey[s] != -1; s = slot(o, ++j)) {
            out.add(new Hop(keyNode(slotKey[s]), keyPort(slotKey[s]), slotWait[s], slotOffPath[s],
                    (slotKey[s] & ACK_HOP) != 0));
        }
        return out;
    }

    /** The roots the flow waited behind, most waited first. */
    public List<Root> roots(int flow) {
        List<Root> out = new ArrayList<>();
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return out;
        }
        int o = flowBase[flow];
        for (int i = 0, r = rootSlot(o, 0); i < ROOTS && r >= 0 && rootKey[r] != Long.MIN_VALUE; r = rootSlot(o, ++i)) {
            out.add(new Root(keyNode(rootKey[r]), keyPort(rootKey[r]), rootDepth[r], rootWait[r], rootOnPath[r],
                    (int) (rootKey[r] >>> KIND_SHIFT), depthRange ? rootMinDepth[r] : rootDepth[r],
                    depthRange ? rootMaxDepth[r] : rootDepth[r]));
        }
        out.sort(java.util.Comparator.comparingLong(Root::waitPs).reversed());
        return out;
    }

    /** Sum over its hops of the time the flow's packets waited (see the class comment). */
    public long waitPs(int flow) {
        return sumOverHops(flow, false);
    }

    /** The part of {@link #waitPs} behind roots off the flow's own round trip. */
    public long offPathWaitPs(int flow) {
        return sumOverHops(flow, true);
    }

    /**
     * The flow's waits at its hops summed, as {@link #waits} lists them, without making the list: flows.csv and the
     * victims ask this of every flow (a million at 1,024 hosts).
     */
    private long sumOverHops(int flow, boolean offPathOnly) {
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return 0;
        }
        long sum = 0;
        int o = flowBase[flow];
        for (int j = 0, s = slot(o, 0); j < SLOTS && s >= 0 && slotKey[s] != -1; s = slot(o, ++j)) {
            sum += offPathOnly ? slotOffPath[s] : slotWait[s];
        }
        return sum;
    }
}
