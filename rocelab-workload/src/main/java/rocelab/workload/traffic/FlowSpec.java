package rocelab.workload.traffic;

/**
 * One point-to-point transfer: an RDMA WRITE of {@code sizeBytes} from host src to host dst, marked with
 * {@code dscp} (-1: the RNIC's default DSCP). It is posted at {@code startPs}, or, when {@code after} names another
 * flow (by index in the same expansion), as soon as that flow's data has been delivered. Flows with the same
 * {@code connection} (>= 0) share one queue pair, as the steps of a collective share NCCL's connections.
 */
public record FlowSpec(int src, int dst, long sizeBytes, long startPs, int dscp, int after, int connection) {
    public FlowSpec(int src, int dst, long sizeBytes, long startPs) {
        this(src, dst, sizeBytes, startPs, -1, -1, -1);
    }

    public FlowSpec(int src, int dst, long sizeBytes, long startPs, int dscp) {
        this(src, dst, sizeBytes, startPs, dscp, -1, -1);
    }

    /** The same flow with its dependency and connection moved by {@code base} (when expansions are joined). */
    public FlowSpec shifted(int base) {
        return new FlowSpec(src, dst, sizeBytes, startPs, dscp, after < 0 ? -1 : after + base,
                connection < 0 ? -1 : connection + base);
    }

    public FlowSpec {
        if (src == dst) {
            throw new IllegalArgumentException("a flow needs two different hosts, got " + src + " -> " + dst);
        }
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("flow size must be positive, got " + sizeBytes);
        }
        if (startPs < 0) {
            throw new IllegalArgumentException("flow start must not be negative");
        }
        if (dscp < -1 || dscp > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + dscp);
        }
    }
}
