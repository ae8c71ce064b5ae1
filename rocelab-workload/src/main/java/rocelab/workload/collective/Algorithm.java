package rocelab.workload.collective;

/** How a collective's data moves between ranks. Which algorithms serve which collective: {@link Collectives}. */
public enum Algorithm {
    /** NCCL's ring (AllReduce, AllGather, ReduceScatter) and pipelined chain (Broadcast, Reduce). */
    RING("ring"),
    /**
     * Rabenseifner: recursive halving then recursive doubling (AllReduce), recursive halving (ReduceScatter),
     * recursive doubling (AllGather); partners r XOR 2^k in ASTRA-sim's order.
     */
    HALVING_DOUBLING("halving-doubling"),
    /** Recursive doubling of the whole buffer (AllReduce, small messages): log2 N steps of S to r XOR 2^k. */
    RECURSIVE_DOUBLING("recursive-doubling"),
    /** NCCL's double binary tree (AllReduce): reduce up, broadcast down, each tree half the data, in chunks. */
    TREE("tree"),
    /** Every message posted at once: AlltoAll to all N-1 peers, SendRecv to the next rank. */
    DIRECT("direct"),
    /** Pairwise exchange (AlltoAll): N-1 steps, at step k rank r sends to r+k and receives from r-k. */
    PAIRWISE("pairwise"),
    /** Dissemination barrier: ceil(log2 N) rounds, at round k rank r signals r+2^k. */
    DISSEMINATION("dissemination"),
    /** Inside each server over NVLink, then across servers on each rail (AllReduce, AllGather, ReduceScatter). */
    HIERARCHICAL("hierarchical"),
    /** AlltoAll with PXN: a cross-rail message hops over NVLink to the GPU on the destination's rail first. */
    PXN("pxn");

    private final String key;

    Algorithm(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public static Algorithm ofKey(String key) {
        for (Algorithm a : values()) {
            if (a.key.equals(key)) {
                return a;
            }
        }
        return null;
    }
}
