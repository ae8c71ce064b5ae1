package rocelab.workload.collective;

import java.util.Arrays;
import java.util.Objects;

/**
 * One collective call: {@code op} by {@code algorithm} over {@code ranks} (host ids, in ring order), of
 * {@code sizeBytes} in the nccl-tests sense ({@link CollectiveOp#totalFromPerRank}), split over {@code channels}
 * independent channels as NCCL does (each with its own connections, so its own queue pairs and ECMP entropy), with
 * {@code root} an index into ranks for Broadcast and Reduce, {@code dscp} the DSCP of its packets (-1: the RNIC's
 * default), {@code qpsPerConnection} queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION: whole messages go
 * round-robin over them) and, for AlltoAllv only, the bytes of every pair ({@code pairs}; then {@code sizeBytes} is
 * their nccl-tests size, {@link PairSizes#ncclSize}).
 */
public record Collective(CollectiveOp op, Algorithm algorithm, int[] ranks, long sizeBytes, int root, int channels,
        int dscp, int qpsPerConnection, PairSizes pairs) {
    /** Most queue pairs per connection NCCL accepts. */
    public static final int MAX_QPS_PER_CONNECTION = 128;

    public Collective {
        ranks = ranks.clone();
        if (ranks.length < 2) {
            throw new IllegalArgumentException(op.title() + " needs at least 2 ranks");
        }
        // Sorted, distinct hosts are ascending: a copy of the group's size, not an array as long as the largest host
        // id (a 4,096-GPU job makes hundreds of thousands of calls of eight ranks).
        int[] sorted = ranks.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0 || i > 0 && sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException("ranks must be distinct hosts, got " + Arrays.toString(ranks));
            }
        }
        if (sizeBytes < 0 || (sizeBytes == 0 && op != CollectiveOp.BARRIER)) {
            throw new IllegalArgumentException(op.title() + " needs a positive size");
        }
        if (root < 0 || root >= ranks.length) {
            throw new IllegalArgumentException("root must be a rank index 0.." + (ranks.length - 1));
        }
        if (channels < 1) {
            throw new IllegalArgumentException("a collective needs at least one channel");
        }
        if (dscp < -1 || dscp > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + dscp);
        }
        if (qpsPerConnection < 1 || qpsPerConnection > MAX_QPS_PER_CONNECTION) {
            throw new IllegalArgumentException("qps-per-connection must be 1.." + MAX_QPS_PER_CONNECTION + ", got "
                    + qpsPerConnection);
        }
        if ((op == CollectiveOp.ALL_TO_ALLV) != (pairs != null)) {
            throw new IllegalArgumentException(op == CollectiveOp.ALL_TO_ALLV ? "AlltoAllv needs its pair sizes"
                    : op.title() + " has no per-pair sizes");
        }
        if (pairs != null) {
            if (pairs.rankCount() != ranks.length) {
                throw new IllegalArgumentException("the AlltoAllv matrix is " + pairs.rankCount() + " x "
                        + pairs.rankCount() + "; expected " + ranks.length + " x " + ranks.length + " (one row and "
                        + "column per rank)");
            }
            if (sizeBytes != pairs.ncclSize()) {
                throw new IllegalArgumentException("an AlltoAllv's size is its largest send or receive, "
                        + pairs.ncclSize() + " B");
            }
        }
    }

    /** A call with one queue pair per connection and no pair sizes. */
    public Collective(CollectiveOp op, Algorithm algorithm, int[] ranks, long sizeBytes, int root, int channels,
            int dscp) {
        this(op, algorithm, ranks, sizeBytes, root, channels, dscp, 1, null);
    }

    /** A one-channel call with root 0 and the RNIC's default DSCP. */
    public Collective(CollectiveOp op, Algorithm algorithm, int[] ranks, long sizeBytes) {
        this(op, algorithm, ranks, sizeBytes, 0, 1, -1);
    }

    /** An AlltoAllv with the given pair sizes; its size is {@link PairSizes#ncclSize}. */
    public static Collective allToAllv(Algorithm algorithm, int[] ranks, PairSizes pairs, int channels, int dscp) {
        return new Collective(CollectiveOp.ALL_TO_ALLV, algorithm, ranks, pairs.ncclSize(), 0, channels, dscp, 1,
                pairs);
    }

    @Override
    public int[] ranks() {
        return ranks.clone();
    }

    public int rankCount() {
        return ranks.length;
    }

    /** Host of rank i. */
    public int host(int i) {
        return ranks[i];
    }

    /** Part c of {@code bytes} split over {@code parts} as evenly as bytes allow. */
    public static long part(long bytes, int parts, int c) {
        return bytes / parts + (c < bytes % parts ? 1 : 0);
    }

    /** The same call with another DSCP. */
    public Collective withDscp(int newDscp) {
        return new Collective(op, algorithm, ranks, sizeBytes, root, channels, newDscp, qpsPerConnection, pairs);
    }

    /** The same call with {@code qps} queue pairs per connection. */
    public Collective withQpsPerConnection(int qps) {
        return new Collective(op, algorithm, ranks, sizeBytes, root, channels, dscp, qps, pairs);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Collective c && op == c.op && algorithm == c.algorithm && Arrays.equals(ranks, c.ranks)
                && sizeBytes == c.sizeBytes && root == c.root && channels == c.channels && dscp == c.dscp
                && qpsPerConnection == c.qpsPerConnection && Objects.equals(pairs, c.pairs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ranks) * 31 + Long.hashCode(sizeBytes) + op.hashCode() + root + channels * 7 + dscp
                + qpsPerConnection * 131 + Objects.hashCode(pairs);
    }

    @Override
    public String toString() {
        return op.title() + " " + algorithm.key() + " on " + ranks.length + " ranks, " + sizeBytes + " B";
    }
}
