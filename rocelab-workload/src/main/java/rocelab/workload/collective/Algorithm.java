package rocelab.workload.collective;

/** How a collective's data moves between ranks. Which algorithms serve which collective: {@link Collectives}. */
public enum Algorithm {
    /** NCCL's ring (AllReduce, AllGather, ReduceScatter) and pipelined chain (Broadcast, Reduce). */
    RING("ring"),
    /** Inside each server over NVLink, then across servers on each rail (AllReduce, AllGather, ReduceScatter). */
    HIERARCHICAL("hierarchical");

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
