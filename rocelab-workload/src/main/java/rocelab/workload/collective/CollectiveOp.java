package rocelab.workload.collective;

/**
 * The collectives, with their scenario names, their nccl-tests names and the nccl-tests conventions: which size S a
 * call is given by, and the bus bandwidth factor busbw / algbw.
 */
public enum CollectiveOp {
    ALL_REDUCE("allreduce", "AllReduce", "all_reduce", "sum"),
    ALL_GATHER("allgather", "AllGather", "all_gather", "none"),
    REDUCE_SCATTER("reduce-scatter", "ReduceScatter", "reduce_scatter", "sum"),
    ALL_TO_ALL("alltoall", "AlltoAll", "alltoall", "none"),
    /** AlltoAll with its own size per pair of ranks ({@link PairSizes}); S is the largest rank's send or receive. */
    ALL_TO_ALLV("alltoallv", "AlltoAllv", "alltoallv", "none"),
    BROADCAST("broadcast", "Broadcast", "broadcast", "none"),
    REDUCE("reduce", "Reduce", "reduce", "sum"),
    SEND_RECV("sendrecv", "SendRecv", "sendrecv", "none"),
    BARRIER("barrier", "Barrier", "barrier", "none");

    private final String key;
    private final String title;
    private final String ncclName;
    private final String redop;

    CollectiveOp(String key, String title, String ncclName, String redop) {
        this.key = key;
        this.title = title;
        this.ncclName = ncclName;
        this.redop = redop;
    }

    /** The name in scenarios ({@code allreduce}). */
    public String key() {
        return key;
    }

    /** The name people write ({@code AllReduce}). */
    public String title() {
        return title;
    }

    /** The nccl-tests binary without {@code _perf} ({@code all_reduce}). */
    public String ncclName() {
        return ncclName;
    }

    /** The reduction nccl-tests prints in its redop column. */
    public String redop() {
        return redop;
    }

    /** Whether the call names a root rank (Broadcast, Reduce). */
    public boolean rooted() {
        return this == BROADCAST || this == REDUCE;
    }

    /**
     * busbw / algbw in nccl-tests: 2(n-1)/n for AllReduce; (n-1)/n for AllGather, ReduceScatter, AlltoAll and
     * AlltoAllv; 1 for
     * Broadcast, Reduce and SendRecv; 0 for Barrier, which moves no data.
     */
    public double busFactor(int n) {
        return switch (this) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, ALL_TO_ALLV -> (double) (n - 1) / n;
            case BROADCAST, REDUCE, SEND_RECV -> 1.0;
            case BARRIER -> 0.0;
        };
    }

    /**
     * The nccl-tests size S of a call given by the bytes of one rank's own part: the whole buffer for AllReduce,
     * Broadcast, Reduce and SendRecv; n parts for AllGather (output), ReduceScatter (input) and AlltoAll (sent,
     * including to itself; for AlltoAllv the balanced size before any skew).
     */
    public long totalFromPerRank(long perRank, int n) {
        return switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, ALL_TO_ALLV -> Math.multiplyExact(perRank, n);
            default -> perRank;
        };
    }

    /** The collective a scenario names, or null. */
    public static CollectiveOp ofKey(String key) {
        for (CollectiveOp op : values()) {
            if (op.key.equals(key)) {
                return op;
            }
        }
        return null;
    }

    /** The collective of an nccl-tests binary name, or null. */
    public static CollectiveOp ofNcclName(String name) {
        for (CollectiveOp op : values()) {
            if (op.ncclName.equals(name)) {
                return op;
            }
        }
        return null;
    }
}
