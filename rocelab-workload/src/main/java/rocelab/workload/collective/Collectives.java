package rocelab.workload.collective;

import java.util.EnumMap;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/** Which algorithm serves which collective, and the rules every algorithm shares. */
public final class Collectives {
    private static final Map<CollectiveOp, Map<Algorithm, CollectiveAlgorithm>> TABLE = new EnumMap<>(CollectiveOp.class);
    private static final Map<CollectiveOp, Algorithm> DEFAULTS = new EnumMap<>(CollectiveOp.class);

    static {
        RingAlgorithm ring = new RingAlgorithm();
        HalvingDoublingAlgorithm halvingDoubling = new HalvingDoublingAlgorithm();
        // The first algorithm registered for a collective is its default: NCCL's choice for large messages.
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_REDUCE, CollectiveOp.ALL_GATHER,
            CollectiveOp.REDUCE_SCATTER}) {
            register(op, Algorithm.RING, ring);
            register(op, Algorithm.HALVING_DOUBLING, halvingDoubling);
        }
        register(CollectiveOp.ALL_REDUCE, Algorithm.TREE, new TreeAlgorithm());
        register(CollectiveOp.ALL_REDUCE, Algorithm.RECURSIVE_DOUBLING, new HalvingDoublingAlgorithm(true));
        ChainAlgorithm chain = new ChainAlgorithm();
        register(CollectiveOp.BROADCAST, Algorithm.RING, chain);
        register(CollectiveOp.REDUCE, Algorithm.RING, chain);
        AllToAllAlgorithm direct = new AllToAllAlgorithm(false);
        AllToAllAlgorithm pairwise = new AllToAllAlgorithm(true);
        for (CollectiveOp op : new CollectiveOp[] {CollectiveOp.ALL_TO_ALL, CollectiveOp.ALL_TO_ALLV}) {
            register(op, Algorithm.DIRECT, direct);
            register(op, Algorithm.PAIRWISE, pairwise);
        }
        register(CollectiveOp.SEND_RECV, Algorithm.DIRECT, new SendRecvAlgorithm());
        register(CollectiveOp.BARRIER, Algorithm.DISSEMINATION, new DisseminationBarrier());
        PxnAllToAllAlgorithm pxn = new PxnAllToAllAlgorithm();
        register(CollectiveOp.ALL_TO_ALL, Algorithm.PXN, pxn);
        register(CollectiveOp.ALL_TO_ALLV, Algorithm.PXN, pxn);
        HierarchicalAlgorithm hierarchical = new HierarchicalAlgorithm();
        register(CollectiveOp.ALL_REDUCE, Algorithm.HIERARCHICAL, hierarchical);
        register(CollectiveOp.ALL_GATHER, Algorithm.HIERARCHICAL, hierarchical);
        register(CollectiveOp.REDUCE_SCATTER, Algorithm.HIERARCHICAL, hierarchical);
    }

    private Collectives() {}

    private static void register(CollectiveOp op, Algorithm a, CollectiveAlgorithm impl) {
        TABLE.computeIfAbsent(op, k -> new EnumMap<>(Algorithm.class)).put(a, impl);
        DEFAULTS.putIfAbsent(op, a);
    }

    /** Whether {@code op} can run with {@code algorithm}. */
    public static boolean supports(CollectiveOp op, Algorithm algorithm) {
        return TABLE.getOrDefault(op, Map.of()).containsKey(algorithm);
    }

    /** The algorithms {@code op} can run with, by their scenario names, for messages. */
    public static String algorithmsOf(CollectiveOp op) {
        return String.join(", ", TABLE.getOrDefault(op, Map.of()).keySet().stream().map(Algorithm::key).toList());
    }

    /** The scenario names of the algorithms {@code op} can run with. */
    public static String[] algorithmKeys(CollectiveOp op) {
        return TABLE.getOrDefault(op, Map.of()).keySet().stream().map(Algorithm::key).toArray(String[]::new);
    }

    /** The default algorithm of a collective (NCCL's choice for bandwidth-bound sizes). */
    public static Algorithm defaultAlgorithm(CollectiveOp op) {
        Algorithm a = DEFAULTS.get(op);
        if (a == null) {
            throw new IllegalArgumentException("no algorithm for " + op.title());
        }
        return a;
    }

    /** Whether {@code op} is available at all. */
    public static boolean available(CollectiveOp op) {
        return TABLE.containsKey(op);
    }

    /**
     * Throws IllegalArgumentException, with a message for the user, unless {@code call} can run: its algorithm serves
     * its collective and accepts its ranks.
     */
    public static void check(Collective call) {
        implementation(call).check(call);
    }

    private static CollectiveAlgorithm implementation(Collective call) {
        CollectiveAlgorithm impl = TABLE.getOrDefault(call.op(), Map.of()).get(call.algorithm());
        if (impl == null) {
            throw new IllegalArgumentException(call.op().title() + " has no " + call.algorithm().key()
                    + " algorithm; expected one of: " + algorithmsOf(call.op()));
        }
        return impl;
    }

    /** Adds a call to a graph; see {@link CollectiveAlgorithm#emit}. */
    /**
     * About how many network messages the call sends, from its op, algorithm, ranks and channels alone (no
     * expansion; at least the messages its pattern needs, chunking not counted), saturating at
     * {@link Long#MAX_VALUE}: for sizing a run before it is built.
     */
    public static long estimatedMessages(Collective call) {
        return estimatedMessages(call.op(), call.algorithm(), call.rankCount(), call.channels(), 1);
    }

    /**
     * As {@link #estimatedMessages(Collective)} for a call of {@code op} by {@code algorithm} over {@code n} ranks
     * on {@code channels} channels, the ranks in servers of {@code perServer} (for the hierarchical algorithm: its
     * rings inside the servers and across them).
     */
    public static long estimatedMessages(CollectiveOp op, Algorithm algorithm, long n, long channels, long perServer) {
        long c = channels;
        boolean ring = algorithm == Algorithm.RING;
        if (algorithm == Algorithm.HIERARCHICAL) {
            long g = Math.max(1, Math.min(perServer, n));
            long m = Math.max(1, n / g);
            long rings = op == CollectiveOp.ALL_REDUCE ? 2 : 1;
            long perChannel = rings * n * ((g - 1) + (m - 1));
            return Math.multiplyHigh(perChannel, c) != 0 || perChannel * c < 0 ? Long.MAX_VALUE : perChannel * c;
        }
        long perChannel = switch (op) {
            case ALL_TO_ALL, ALL_TO_ALLV -> n * (n - 1);
            case ALL_REDUCE -> ring ? 2 * (n - 1) * n : 2 * n;
            case ALL_GATHER, REDUCE_SCATTER -> ring ? (n - 1) * n : n;
            case BARRIER -> n * (64 - Long.numberOfLeadingZeros(n - 1));
            default -> n;
        };
        return Math.multiplyHigh(perChannel, c) != 0 || perChannel * c < 0 ? Long.MAX_VALUE : perChannel * c;
    }

    /**
     * Of {@link #estimatedMessages(CollectiveOp, Algorithm, long, long, long)}, those that cross the fabric when
     * transfers inside a server go over NVLink: the hierarchical algorithm's rings across the servers (its rings
     * inside them are NVLink transfers); every message of the other algorithms (a group that spans servers has some
     * of its hops inside one, counted here as crossing: the estimate errs high).
     */
    public static long estimatedFabricMessages(CollectiveOp op, Algorithm algorithm, long n, long channels,
            long perServer) {
        if (algorithm != Algorithm.HIERARCHICAL) {
            return estimatedMessages(op, algorithm, n, channels, perServer);
        }
        long g = Math.max(1, Math.min(perServer, n));
        long m = Math.max(1, n / g);
        long rings = op == CollectiveOp.ALL_REDUCE ? 2 : 1;
        long perChannel = rings * n * (m - 1);
        return Math.multiplyHigh(perChannel, channels) != 0 || perChannel * channels < 0 ? Long.MAX_VALUE
                : perChannel * channels;
    }

    /** One call on connections of its own ({@link Communicator#perCall()}). */
    public static int[] emit(TaskGraph graph, Collective call, int[] entry) {
        return emit(graph, call, entry, Communicator.perCall());
    }

    /** One call on {@code communicator}'s connections (see {@link CollectiveAlgorithm#emit}). */
    public static int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        CollectiveAlgorithm impl = implementation(call);
        if (entry.length != call.rankCount()) {
            throw new IllegalArgumentException("one entry task per rank is needed");
        }
        return impl.emit(graph, call, entry, communicator);
    }

    /**
     * Channels worth using: NCCL gives small messages fewer channels, and a channel needs at least one byte per
     * rank.
     */
    static int usefulChannels(Collective call) {
        long perChannelFloor = Math.max(1, call.sizeBytes() / call.rankCount());
        return (int) Math.max(1, Math.min(call.channels(), perChannelFloor));
    }

}
