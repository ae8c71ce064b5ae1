package rocelab.observe.victim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
 * to the root the caller names; a root off the flow's round trip makes the wait a victim's, and a root not known yet (a
 * hold whose own root its log had not been told when the wait ended) is neither: its waits are told apart, with no
 * claim either way ({@link Way#NOT_KNOWN}). A flow keeps a bounded
 * number of hops and roots apart (a million flows' slots fill much of a run's heap); its waits beyond them are told
 * together, named by none ({@link Hop#others}, {@link Root#others}), never under another's name.
 */
public final class FlowWaits {
    /**
     * Where a root lies relative to a flow: on the round trip of {@code queuePair}, off it, or not known (the root of
     * that kind names no place the waits were finally rooted at).
     */
    @FunctionalInterface
    public interface RootPlace {
        Way wayOf(int queuePair, int kind, int node, int port);
    }

    /** Whether a root is on a flow's own round trip: its data's way or its ACKs' way back, or its ends' NICs. */
    public enum Way {
        ON,
        OFF,
        /** The root was not known when the wait ended (only where a hold further on was): no claim either way. */
        NOT_KNOWN;

        public static Way of(boolean onRoundTrip) {
            return onRoundTrip ? ON : OFF;
        }
    }

    /** Hops kept per flow by default; a flow with more tells the rest together in the last slot ({@link Hop#others}). */
    private static final int SLOTS = 8;
    /**
     * Hops kept per flow. A flow's hop slots (and its root slots) come in chunks of {@link #PAIR}, each made when the
     * flow first needs it: a 1,024-host all-to-all's million flows wait behind pauses at two hops each, most of them
     * (their RNIC and one switch), and chunks of four held two empty slots per flow (64 MB).
     */
    private final int slots;
    /** Slots per chunk. */
    private static final int PAIR = 2;
    /** Chunks of hop slots, and of root slots, per flow. */
    private final int hopChunks;
    private final int rootChunks;
    /**
     * A hop slot's key: its transmitter's number among the transmitters seen ({@link #hopIds}: its node and port), with
     * these flags: the waits there were of the flow's ACKs; the slot holds the hops beyond the others'. -1: empty.
     */
    private static final int ACK_HOP = 1 << 30;
    private static final int OTHER_HOPS = 1 << 29;
    private static final int HOP_ID = OTHER_HOPS - 1;
    private static final int NO_HOP = -1;
    /** An empty root slot. */
    private static final int NO_ROOT = -1;
    /**
     * A root slot's key: the root's number among the roots seen ({@link #rootIds}), with these flags: the slot holds
     * the waits behind other roots ({@link Root#others}); the root is on the way; whether it is, is not known.
     */
    private static final int OTHERS = 1 << 30;
    private static final int ON_PATH = 1 << 29;
    private static final int WAY_NOT_KNOWN = 1 << 28;
    /** A root key without its flags: the root's number. */
    private static final int ROOT_ID = WAY_NOT_KNOWN - 1;
    /** Hops from a root, three to a long (first, fewest, most): each saturates at this. */
    private static final int DEPTH_BITS = 21;
    private static final long DEPTH_MAX = (1L << DEPTH_BITS) - 1;

    private final RootPlace place;
    /** A root key's place flags: on the way, or not known (neither: off it). */
    private static final int WAY = ON_PATH | WAY_NOT_KNOWN;
    /** Whether the switches' routes have changed since the run began ({@link #routesChanged}). */
    private boolean rerouted;
    /**
     * The transmitters and roots seen, numbered: a slot keeps a number of 4 bytes instead of the long key (a
     * 1,024-host all-to-all's slots are millions, its transmitters and roots a few thousand).
     */
    private final PlaceNumbers hopIds = new PlaceNumbers();
    private final PlaceNumbers rootIds = new PlaceNumbers();
    /** See {@link #expectFlows}. */
    private int expectedFlows = Integer.MAX_VALUE / 16;
    /**
     * Roots kept apart per flow: each has a slot of its own until a flow meets one more than that; then the last slot
     * takes the waits behind its root and every later one ({@link Root#others}), so that no root is named for
     * another's waits.
     */
    private final int roots;
    // Per-flow waits (by message cookie: the flow id): flowBase[flow] = its index among the flows with waits, or
    // -1. Its chunks of hop slots are chunkOf[index * hopChunks + k], of root slots rootChunkOf[index * rootChunks
    // + k] (-1 until made).
    private int[] flowBase = new int[64];
    private int flowsWithWaits;
    private int[] chunkOf;
    private int[] rootChunkOf;
    /** Room in chunkOf and rootChunkOf, in flows. */
    private int flowRoom = 16;
    private int chunksMade;
    private int rootChunksMade;
    private int[] slotKey;
    private long[] slotClock;
    private long[] slotWait;
    /**
     * Per hop slot, the part of its wait behind roots off the flow's way; made with the first such part (the ECMP
     * log's waits have no roots: a 1,024-host all-to-all's 700,000 colliding flows held 11 MB of zeros).
     */
    private long[] slotOffPath;
    /**
     * Per hop slot, the part of its wait behind roots not known yet ({@link Way#NOT_KNOWN}); made with the first such
     * part (a PFC run has none), so that the waits beyond the roots kept apart are split three ways ({@link #roots}).
     */
    private long[] slotWayNotKnown;
    /** Per root slot: kind, node and port with the flags above ({@link #NO_ROOT}: empty), the wait, the hops. */
    private int[] rootKey;
    private long[] rootWait;
    /**
     * Holds from the root at the flow's first wait behind it, and the fewest and most of all its waits behind it, in
     * {@link #DEPTH_BITS} each: one array of 8 bytes a slot, where three of ints took 12 (a million flows' slots).
     */
    private long[] rootDepths;

    /** Eight roots kept apart per flow. */
    public FlowWaits(RootPlace place) {
        this(place, 8);
    }

    /** {@code roots} (even, at least 2) kept apart per flow: more cost a million-flow run 20 bytes each per flow. */
    public FlowWaits(RootPlace place, int roots) {
        this(place, roots, SLOTS);
    }

    /**
     * {@code roots} and {@code hops} (each even, at least 2) kept apart per flow: a hop slot costs a million-flow run
     * 28 bytes per flow.
     */
    public FlowWaits(RootPlace place, int roots, int hops) {
        if (roots < 2 || roots % 2 != 0 || hops < 2 || hops % 2 != 0) {
            throw new IllegalArgumentException("roots and hops per flow must be even and at least 2: " + roots + ", "
                    + hops);
        }
        this.slots = hops;
        this.hopChunks = hops / PAIR;
        this.rootChunks = roots / PAIR;
        this.chunkOf = new int[hopChunks * flowRoom];
        this.rootChunkOf = new int[rootChunks * flowRoom];
        this.slotKey = new int[PAIR * 16];
        this.slotClock = new long[PAIR * 16];
        this.slotWait = new long[PAIR * 16];
        this.place = place;
        this.roots = roots;
        this.rootKey = new int[PAIR * 16];
        this.rootWait = new long[PAIR * 16];
        this.rootDepths = new long[PAIR * 16];
        Arrays.fill(flowBase, -1);
        Arrays.fill(slotKey, NO_HOP);
        Arrays.fill(rootKey, NO_ROOT);
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
        if (flowsWithWaits > flowRoom) {
            growFlowRoom(flowsWithWaits);
        }
        int slotsNeeded = flowsWithWaits * PAIR;
        if (slotsNeeded > slotKey.length) {
            int old = slotKey.length;
            slotKey = Arrays.copyOf(slotKey, slotsNeeded);
            slotClock = Arrays.copyOf(slotClock, slotsNeeded);
            slotWait = Arrays.copyOf(slotWait, slotsNeeded);
            if (slotOffPath != null) {
                slotOffPath = Arrays.copyOf(slotOffPath, slotsNeeded);
            }
            if (slotWayNotKnown != null) {
                slotWayNotKnown = Arrays.copyOf(slotWayNotKnown, slotsNeeded);
            }
            Arrays.fill(slotKey, old, slotsNeeded, NO_HOP);
        }
        int slotsForRoots = flowsWithWaits * PAIR;
        if (slotsForRoots > rootKey.length) {
            growRoots(slotsForRoots);
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
        int key = hopIds.numberOf(0, node, port) | (ack ? ACK_HOP : 0);
        int j = 0;
        int s = slot(ordinal, 0);
        while (j < slots - 1 && slotKey[s] != key && slotKey[s] != NO_HOP) {
            s = slot(ordinal, ++j);
            if (s < 0) { // the flow's first hop beyond its chunks: a chunk more, empty
                chunkOf[ordinal * hopChunks + j / PAIR] = newChunk();
                s = slot(ordinal, j);
            }
        }
        if ((slotKey[s] & ~OTHER_HOPS) != key) {
            if (slotKey[s] == NO_HOP) {
                slotKey[s] = key;
            } else {
                // More hops than slots: the last slot takes the rest, named by none of them, each hop's waits on a
                // fresh clock (the key keeps the latest hop, so that a run of waits there is merged on its clock).
                slotKey[s] = key | OTHER_HOPS;
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
        int root = rootIds.numberOf(rootKind, rootNode, rootPort);
        if (rootChunkOf[ordinal * rootChunks] < 0) {
            rootChunkOf[ordinal * rootChunks] = newRootChunk();
        }
        // Once a link event has rerouted the fabric, a root's place is asked for every part: a flow moved onto the
        // port a root names waits behind it on its own way from then on (and one moved off it, as a victim), so the
        // same root then has a slot for each place (-1: routes unchanged, the place its first wait found still holds).
        int way = rerouted ? wayFlag(queuePair, rootKind, rootNode, rootPort) : -1;
        int i = 0;
        int r = rootSlot(ordinal, 0);
        while (i < roots - 1 && !same(rootKey[r], root, way) && rootKey[r] != NO_ROOT) {
            r = rootSlot(ordinal, ++i);
            if (r < 0) { // past the flow's chunks of roots: a chunk more, empty
                rootChunkOf[ordinal * rootChunks + i / PAIR] = newRootChunk();
                r = rootSlot(ordinal, i);
            }
        }
        int k = rootKey[r];
        if (k == NO_ROOT) {
            k = root | (way >= 0 ? way : wayFlag(queuePair, rootKind, rootNode, rootPort));
            rootDepths[r] = depths(depth, depth, depth);
        } else if (!same(k, root, way)) {
            // The last slot, held by another root: from now on it holds the waits behind every root the flow meets
            // beyond its first roots - 1, named by none. The key keeps the latest such root and whether it is on the
            // flow's way, so that a run of waits behind one root asks that only once.
            k = OTHERS | root | (way >= 0 ? way : wayFlag(queuePair, rootKind, rootNode, rootPort));
        } else if ((k & OTHERS) == 0) {
            long d = rootDepths[r];
            rootDepths[r] = depths(first(d), Math.min(fewest(d), depth), Math.max(most(d), depth));
        }
        rootKey[r] = k;
        rootWait[r] += added;
        if ((k & WAY_NOT_KNOWN) != 0) {
            if (slotWayNotKnown == null) {
                slotWayNotKnown = new long[slotKey.length];
            }
            slotWayNotKnown[s] += added;
        } else if ((k & ON_PATH) == 0) {
            if (slotOffPath == null) {
                slotOffPath = new long[slotKey.length];
            }
            slotOffPath[s] += added;
        }
    }

    /**
     * Whether root key {@code key} is of root number {@code root} and, unless {@code way} is -1, of that place (its
     * {@link #WAY} flags).
     */
    private static boolean same(int key, int root, int way) {
        return (key & ROOT_ID) == root && (way < 0 || (key & WAY) == way);
    }

    /**
     * The switches' routes changed (a link went down or came back up): where a root lies relative to a flow is asked
     * again for every part of a wait from now on, not taken from the flow's first wait behind that root.
     */
    public void routesChanged() {
        rerouted = true;
    }

    /** The flag of a root key that says where the root lies relative to the flow ({@link RootPlace}). */
    private int wayFlag(int queuePair, int rootKind, int rootNode, int rootPort) {
        return switch (place.wayOf(queuePair, rootKind, rootNode, rootPort)) {
            case ON -> ON_PATH;
            case OFF -> 0;
            case NOT_KNOWN -> WAY_NOT_KNOWN;
        };
    }

    private static Way way(int key) {
        return (key & WAY_NOT_KNOWN) != 0 ? Way.NOT_KNOWN : (key & ON_PATH) != 0 ? Way.ON : Way.OFF;
    }

    private long offPath(int slot) {
        return slotOffPath == null ? 0 : slotOffPath[slot];
    }

    private static long depths(long first, long fewest, long most) {
        return Math.min(first, DEPTH_MAX) | Math.min(fewest, DEPTH_MAX) << DEPTH_BITS
                | Math.min(most, DEPTH_MAX) << 2 * DEPTH_BITS;
    }

    private static int first(long depths) {
        return (int) (depths & DEPTH_MAX);
    }

    private static int fewest(long depths) {
        return (int) (depths >>> DEPTH_BITS & DEPTH_MAX);
    }

    private static int most(long depths) {
        return (int) (depths >>> 2 * DEPTH_BITS & DEPTH_MAX);
    }

    private int base(int flow) {
        if (flow >= flowBase.length) {
            int old = flowBase.length;
            flowBase = Arrays.copyOf(flowBase, Math.max(flow + 1, grown(old, expectedFlows)));
            Arrays.fill(flowBase, old, flowBase.length, -1);
        }
        if (flowBase[flow] < 0) {
            int o = flowsWithWaits++;
            if (o == flowRoom) {
                growFlowRoom(grown(o, expectedFlows));
            }
            Arrays.fill(chunkOf, o * hopChunks, (o + 1) * hopChunks, -1);
            chunkOf[o * hopChunks] = newChunk();
            // Roots come with the first credited part ({@link #credit}): waits without roots (the ECMP log's) never
            // take any.
            Arrays.fill(rootChunkOf, o * rootChunks, (o + 1) * rootChunks, -1);
            flowBase[flow] = o;
        }
        return flowBase[flow];
    }

    private void growFlowRoom(int flows) {
        chunkOf = Arrays.copyOf(chunkOf, flows * hopChunks);
        rootChunkOf = Arrays.copyOf(rootChunkOf, flows * rootChunks);
        flowRoom = flows;
    }

    /** Slot {@code j} (0..slots-1) of the flow with waits {@code ordinal}, or -1 if its chunk was not made. */
    private int slot(int ordinal, int j) {
        if (j >= slots) {
            return -1;
        }
        int c = chunkOf[ordinal * hopChunks + j / PAIR];
        return c < 0 ? -1 : c * PAIR + j % PAIR;
    }

    /** Root slot {@code i} (0..roots-1) of the flow with waits {@code ordinal}, or -1 if its chunk was not made. */
    private int rootSlot(int ordinal, int i) {
        if (i >= roots) {
            return -1;
        }
        int c = rootChunkOf[ordinal * rootChunks + i / PAIR];
        return c < 0 ? -1 : c * PAIR + i % PAIR;
    }

    /**
     * The next length of an array that has to grow: twice, but no further than {@code enough} (what the run's flows
     * fill when each has waited: {@link #expectFlows}), and past that an eighth more at a time. A million flows'
     * arrays fill much of a run's heap, and doubling one past what they need (or copying it while the old one is
     * still held) was what made a 1,024-host all-to-all run out of it.
     */
    private static int grown(int length, long enough) {
        if (length < enough) {
            return (int) Math.min(2L * length, enough);
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, length + Math.max(16, length >> 3));
    }

    /**
     * The run's flows, so that the arrays grow to what they fill (see {@link #grown}) without making room for flows
     * that never wait. 0 (the default): unknown, the arrays double.
     */
    public void expectFlows(int flows) {
        this.expectedFlows = flows > 0 ? flows : Integer.MAX_VALUE / 16;
    }

    /** A chunk of empty root slots. */
    private int newRootChunk() {
        int c = rootChunksMade++;
        int b = c * PAIR;
        if (b + PAIR > rootKey.length) {
            growRoots(Math.max(b + PAIR, grown(rootKey.length, (long) expectedFlows * roots)));
        }
        return c;
    }

    private void growRoots(int n) {
        int oldLen = rootKey.length;
        rootKey = Arrays.copyOf(rootKey, n);
        rootWait = Arrays.copyOf(rootWait, n);
        rootDepths = Arrays.copyOf(rootDepths, n);
        Arrays.fill(rootKey, oldLen, n, NO_ROOT);
    }

    /** A chunk of empty slots (no key, a fresh clock). */
    private int newChunk() {
        int c = chunksMade++;
        int b = c * PAIR;
        if (b + PAIR > slotKey.length) {
            // Enough for two hops of every flow: what a large all-to-all's flows mostly wait at.
            int n = Math.max(b + PAIR, grown(slotKey.length, (long) expectedFlows * PAIR));
            int oldLen = slotKey.length;
            slotKey = Arrays.copyOf(slotKey, n);
            slotClock = Arrays.copyOf(slotClock, n);
            slotWait = Arrays.copyOf(slotWait, n);
            if (slotOffPath != null) {
                slotOffPath = Arrays.copyOf(slotOffPath, n);
            }
            if (slotWayNotKnown != null) {
                slotWayNotKnown = Arrays.copyOf(slotWayNotKnown, n);
            }
            Arrays.fill(slotKey, oldLen, n, NO_HOP);
        }
        for (int s = b; s < b + PAIR; s++) {
            slotClock[s] = Long.MIN_VALUE;
        }
        return c;
    }

    /**
     * Where a flow waited: a transmitter (switch egress port, or an RNIC with its port), and whether what waited there
     * was the flow's data (at an RNIC: its sender's) or its last ACK on its way back ({@code acks}: at an RNIC, its
     * receiver's). With {@code others} it is not one hop but the waits at every hop beyond those a flow keeps apart
     * (all but its last slot: seven of eight), named by none of them.
     */
    public record Hop(int node, int port, long waitPs, long offPathWaitPs, boolean acks, boolean others) {
        public Hop(int node, int port, long waitPs, long offPathWaitPs, boolean acks) {
            this(node, port, waitPs, offPathWaitPs, acks, false);
        }

        /** The hops beyond those kept apart name no node and port (-1). */
        public Hop {
            if (others) {
                node = -1;
                port = -1;
            }
        }
    }

    /**
     * A root the flow's waits were behind: a node and port (port -1: none, such as a switch's buffer) of a
     * {@code kind} its log defines (0 for PFC); {@code hops} is how many holds away from it the flow waited at its
     * first wait behind it, {@code minHops} and {@code maxHops} the fewest and most over all its waits behind it;
     * {@code way}: whether it lies on the flow's own round trip, or that is not known (its log had not been told the
     * root yet). With {@code others} it is not one root but the waits behind every root the flow met after the ones
     * kept apart, those on its way, off it, or not known: node, port, kind and hops then name nothing (-1).
     */
    public record Root(int node, int port, int hops, long waitPs, Way way, int kind, int minHops, int maxHops,
            boolean others) {
        public Root(int node, int port, int hops, long waitPs, Way way, int kind, int minHops, int maxHops) {
            this(node, port, hops, waitPs, way, kind, minHops, maxHops, false);
        }

        /** It lies on the flow's own round trip. */
        public boolean onPath() {
            return way == Way.ON;
        }

        /** It lies off the flow's own round trip: the waits behind it are a victim's. */
        public boolean offPath() {
            return way == Way.OFF;
        }
    }

    /** The flow's waits at each hop, in the order first seen (flows are the QP messages' cookies: the flow ids). */
    public List<Hop> waits(int flow) {
        List<Hop> out = new ArrayList<>();
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return out;
        }
        int o = flowBase[flow];
        for (int j = 0, s = slot(o, 0); j < slots && s >= 0 && slotKey[s] != NO_HOP; s = slot(o, ++j)) {
            int k = slotKey[s];
            int hop = k & HOP_ID;
            out.add(new Hop(hopIds.node(hop), hopIds.port(hop), slotWait[s], offPath(s),
                    (k & ACK_HOP) != 0 && (k & OTHER_HOPS) == 0, (k & OTHER_HOPS) != 0));
        }
        return out;
    }

    /**
     * The roots the flow waited behind, most waited first. Beyond the roots a flow keeps apart, its waits behind the
     * others are one entry ({@link Root#others}) for the part on its way, one for the part off it and one for the part
     * behind roots not known yet: each credited part's place was decided by its own root, so the part off its way is
     * what its hops' off-way waits hold beyond the named roots' off its way, and the same for the part not known.
     */
    public List<Root> roots(int flow) {
        List<Root> out = new ArrayList<>();
        if (flow < 0 || flow >= flowBase.length || flowBase[flow] < 0) {
            return out;
        }
        int o = flowBase[flow];
        long othersWait = -1;
        long namedOffPath = 0;
        long namedNotKnown = 0;
        for (int i = 0, r = rootSlot(o, 0); i < roots && r >= 0 && rootKey[r] != NO_ROOT; r = rootSlot(o, ++i)) {
            int k = rootKey[r];
            if ((k & OTHERS) != 0) {
                othersWait = rootWait[r];
                continue;
            }
            Way way = way(k);
            namedOffPath += way == Way.OFF ? rootWait[r] : 0;
            namedNotKnown += way == Way.NOT_KNOWN ? rootWait[r] : 0;
            long d = rootDepths[r];
            int id = k & ROOT_ID;
            out.add(new Root(rootIds.node(id), rootIds.port(id), first(d), rootWait[r], way, rootIds.kind(id),
                    fewest(d), most(d)));
        }
        if (othersWait >= 0) {
            long offPath = sumOverHops(flow, true) - namedOffPath;
            long notKnown = wayNotKnownPs(o) - namedNotKnown;
            if (othersWait - offPath - notKnown > 0) {
                out.add(new Root(-1, -1, -1, othersWait - offPath - notKnown, Way.ON, -1, -1, -1, true));
            }
            if (offPath > 0) {
                out.add(new Root(-1, -1, -1, offPath, Way.OFF, -1, -1, -1, true));
            }
            if (notKnown > 0) {
                out.add(new Root(-1, -1, -1, notKnown, Way.NOT_KNOWN, -1, -1, -1, true));
            }
        }
        out.sort(Comparator.comparingLong(Root::waitPs).reversed());
        return out;
    }

    /** The waits of the flow with waits {@code ordinal} behind roots not known yet, summed over its hops. */
    private long wayNotKnownPs(int ordinal) {
        if (slotWayNotKnown == null) {
            return 0;
        }
        long sum = 0;
        for (int j = 0, s = slot(ordinal, 0); j < slots && s >= 0 && slotKey[s] != NO_HOP; s = slot(ordinal, ++j)) {
            sum += slotWayNotKnown[s];
        }
        return sum;
    }

    /** How many roots each flow keeps apart (the last slot of them takes the waits behind the others). */
    public int rootsKeptApart() {
        return roots - 1;
    }

    /** Sum over its hops of the time the flow's packets waited (see the class comment). */
    public long waitPs(int flow) {
        return sumOverHops(flow, false);
    }

    /**
     * The part of {@link #waitPs} behind roots off the flow's own round trip (not those behind roots not known yet:
     * whether they were off it is not known).
     */
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
        for (int j = 0, s = slot(o, 0); j < slots && s >= 0 && slotKey[s] != NO_HOP; s = slot(o, ++j)) {
            sum += offPathOnly ? offPath(s) : slotWait[s];
        }
        return sum;
    }
}
