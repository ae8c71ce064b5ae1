package rocelab.workload.flow;

/**
 * How a message crosses the flow-level network: the resources it shares (each with its weight; null weights: all
 * one), its own rate cap, its work in wire bits, and its path's fixed latencies (from its last bit leaving until the
 * receiver has it, and from then until the sender has the last ACK).
 */
public record FlowRoute(int[] resources, double[] weights, double capBps, double workBits, long deliveryLatencyPs,
        long ackLatencyPs) {}
