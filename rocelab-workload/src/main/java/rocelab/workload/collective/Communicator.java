package rocelab.workload.collective;

import java.util.HashMap;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/**
 * The connections of one NCCL communicator, kept for its whole life: NCCL connects a communicator's ranks once, at its
 * first use of each channel and peer, and every later call on it (the next iteration of nccl-tests' loop, a training
 * step's AllReduce on the same data-parallel group) sends over the same queue pairs, so with the same UDP source ports
 * and the same ECMP paths. An ECMP collision therefore lasts as long as the communicator, not one call.
 *
 * <p>A call asks for its connections in the same order every time it runs (its algorithm's order): the k-th connection
 * a call opens from host a to host b is the k-th this communicator holds from a to b, made on first use. A communicator
 * made for one call alone ({@link #perCall()}) opens new connections for every call, as before communicators were kept.
 */
public final class Communicator {
    private record Key(int srcHost, int dstHost, int ordinal, int qps, int dscp) {}

    private final Map<Key, int[]> connections;

    private Communicator(boolean kept) {
        this.connections = kept ? new HashMap<>() : null;
    }

    /** A communicator whose connections every call made on it reuses. */
    public static Communicator kept() {
        return new Communicator(true);
    }

    /** A communicator for one call: its connections are the call's own. */
    public static Communicator perCall() {
        return new Communicator(false);
    }

    /**
     * The queue pairs (connection ids of {@code graph}, {@code qps} of them) of the {@code ordinal}-th connection a call
     * opens from host {@code srcHost} to {@code dstHost} with DSCP {@code dscp}: the ones made for the first call that
     * opened it, or new ones.
     */
    int[] connection(TaskGraph graph, int srcHost, int dstHost, int ordinal, int qps, int dscp) {
        if (connections == null) {
            return newConnection(graph, qps);
        }
        return connections.computeIfAbsent(new Key(srcHost, dstHost, ordinal, qps, dscp),
                k -> newConnection(graph, qps)).clone();
    }

    private static int[] newConnection(TaskGraph graph, int qps) {
        int[] ids = new int[qps];
        for (int q = 0; q < qps; q++) {
            ids[q] = graph.newConnection();
        }
        return ids;
    }
}
