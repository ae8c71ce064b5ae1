package rocelab.workload.job;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.CollectiveOp;

/** One step of a job's program, executed by every rank for which its {@code when} holds. */
public sealed interface Step {
    /**
     * What every step has: an id (for {@code after}), its stream (steps of one stream run in order, steps of
     * different streams may overlap, like CUDA streams), extra dependencies by id, an optional condition on the
     * rank's coordinates and loop variables, and where it was written (for messages; line and column 1-based, 0
     * when unknown).
     */
    record Meta(String id, String stream, List<String> after, Expr when, int line, int column) {
        public Meta {
            after = List.copyOf(after);
        }

        public String where() {
            return line > 0 ? line + ":" + column : "";
        }
    }

    Meta meta();

    /** GPU work of a fixed duration. */
    record Compute(Meta meta, long durationPs) implements Step {}

    /** A wait that does not occupy the GPU (host overhead, a tool call). */
    record Delay(Meta meta, long durationPs) implements Step {}

    /**
     * A collective over the group of {@code dims} (all of them: the whole job). {@code sizeBytes} is the nccl-tests
     * size S, or one rank's part when {@code perRank}; {@code qpsPerConnection} is NCCL_IB_QPS_PER_CONNECTION.
     * {@code members}, when not null, keeps only the ranks of each group for which it holds (the others skip the
     * step): a group no set of dimensions gives, such as Megatron's embedding group of the first and last stage.
     */
    record Collective(Meta meta, CollectiveOp op, Algorithm algorithm, Set<Dim> dims, long sizeBytes, boolean perRank,
            int channels, int rootIndex, int qpsPerConnection, Skew skew, Expr members) implements Step {
        public Collective(Meta meta, CollectiveOp op, Algorithm algorithm, Set<Dim> dims, long sizeBytes,
                boolean perRank, int channels, int rootIndex, int qpsPerConnection, Skew skew) {
            this(meta, op, algorithm, dims, sizeBytes, perRank, channels, rootIndex, qpsPerConnection, skew, null);
        }

        public Collective(Meta meta, CollectiveOp op, Algorithm algorithm, Set<Dim> dims, long sizeBytes,
                boolean perRank, int channels, int rootIndex, int qpsPerConnection) {
            this(meta, op, algorithm, dims, sizeBytes, perRank, channels, rootIndex, qpsPerConnection, null);
        }

        public Collective(Meta meta, CollectiveOp op, Algorithm algorithm, Set<Dim> dims, long sizeBytes,
                boolean perRank, int channels, int rootIndex) {
            this(meta, op, algorithm, dims, sizeBytes, perRank, channels, rootIndex, 1, null);
        }
    }

    /**
     * Skewed AlltoAllv destinations, as tokens routed to hot experts: Zipf weights with this exponent over a
     * popularity order drawn from {@code seed} (see {@link rocelab.workload.collective.PairSizes#zipf}).
     */
    record Skew(double zipf, long seed) {}

    /**
     * One side of a point-to-point transfer with the rank whose coordinates {@code peer} gives (dimensions not
     * named stay the rank's own). A send and a receive between the same two ranks pair up in program order.
     */
    record Transfer(Meta meta, boolean send, Map<Dim, Expr> peer, long sizeBytes) implements Step {
        public Transfer {
            peer = Collections.unmodifiableMap(new EnumMap<>(peer));
        }
    }

    /** {@code steps} repeated {@code count} times, with the loop index bound to {@code variable} (may be null). */
    record Repeat(Meta meta, int count, String variable, List<Step> steps) implements Step {
        public Repeat {
            steps = List.copyOf(steps);
        }
    }
}
