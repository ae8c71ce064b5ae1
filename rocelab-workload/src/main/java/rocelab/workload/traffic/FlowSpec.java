package rocelab.workload.traffic;

/**
 * One point-to-point transfer: an RDMA WRITE of {@code sizeBytes} from host src to host dst, posted at
 * {@code startPs} (or later, when it waits for other tasks of a {@link rocelab.workload.graph.TaskGraph}), marked
 * with {@code dscp} (-1: the RNIC's default DSCP).
 */
public record FlowSpec(int src, int dst, long sizeBytes, long startPs, int dscp) {
    public FlowSpec(int src, int dst, long sizeBytes, long startPs) {
        this(src, dst, sizeBytes, startPs, -1);
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
