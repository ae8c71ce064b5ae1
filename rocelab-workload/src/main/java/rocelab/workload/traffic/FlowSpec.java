package rocelab.workload.traffic;

/** One point-to-point transfer: an RDMA WRITE of {@code sizeBytes} from host src to host dst, posted at startPs. */
public record FlowSpec(int src, int dst, long sizeBytes, long startPs) {
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
    }
}
