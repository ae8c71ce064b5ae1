package rocelab.workload.collective;

import java.util.EnumMap;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/** Which algorithm serves which collective, and the rules every algorithm shares. */
public final class Collectives {
    private static final Map<CollectiveOp, Map<Algorithm, CollectiveAlgorithm>> TABLE = new EnumMap<>(CollectiveOp.class);

    static {
        RingAlgorithm ring = new RingAlgorithm();
        register(CollectiveOp.ALL_REDUCE, Algorithm.RING, ring);
        register(CollectiveOp.ALL_GATHER, Algorithm.RING, ring);
        register(CollectiveOp.REDUCE_SCATTER, Algorithm.RING, ring);
        HierarchicalAlgorithm hierarchical = new HierarchicalAlgorithm();
        register(CollectiveOp.ALL_REDUCE, Algorithm.HIERARCHICAL, hierarchical);
        register(CollectiveOp.ALL_GATHER, Algorithm.HIERARCHICAL, hierarchical);
        register(CollectiveOp.REDUCE_SCATTER, Algorithm.HIERARCHICAL, hierarchical);
    }

    private Collectives() {}

    private static void register(CollectiveOp op, Algorithm a, CollectiveAlgorithm impl) {
        TABLE.computeIfAbsent(op, k -> new EnumMap<>(Algorithm.class)).put(a, impl);
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
        return TABLE.getOrDefault(op, Map.of()).keySet().stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no algorithm for " + op.title()));
    }

    /** Whether {@code op} is available at all. */
    public static boolean available(CollectiveOp op) {
        return TABLE.containsKey(op);
    }

    /** Adds a call to a graph; see {@link CollectiveAlgorithm#emit}. */
    public static int[] emit(TaskGraph graph, Collective call, int[] entry) {
        CollectiveAlgorithm impl = TABLE.getOrDefault(call.op(), Map.of()).get(call.algorithm());
        if (impl == null) {
            throw new IllegalArgumentException(call.op().title() + " has no " + call.algorithm().key()
                    + " algorithm; expected one of: " + algorithmsOf(call.op()));
        }
        if (entry.length != call.rankCount()) {
            throw new IllegalArgumentException("one entry task per rank is needed");
        }
        return impl.emit(graph, call, entry);
    }

    /**
     * Channels worth using: NCCL gives small messages fewer channels, and a channel needs at least one byte per
     * rank.
     */
    static int usefulChannels(Collective call) {
        long perChannelFloor = Math.max(1, call.sizeBytes() / call.rankCount());
        return (int) Math.max(1, Math.min(call.channels(), perChannelFloor));
    }

    /**
     * Bytes of one write: a part that rounds to nothing is still sent as a 1-byte write, because the
     * synchronisation it carries still has to cross the fabric.
     */
    static long atLeastOne(long bytes) {
        return Math.max(1, bytes);
    }
}
