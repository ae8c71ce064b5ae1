package rocelab.workload.flow;

/**
 * The capacities of a flow-level network and the route of every message over them: {@link IdealNetwork} (the
 * RNICs at both ends, a non-blocking fabric between) or {@link EcmpFabric} (every link on the ECMP path).
 */
public interface FlowRouter {
    /** The capacity of each resource, in wire bits per second. */
    double[] capacitiesBps();

    /** The route of a message of {@code sizeBytes} from {@code src} to {@code dst} on queue pair {@code queuePair}. */
    FlowRoute route(int src, int dst, long sizeBytes, int queuePair);

    /**
     * Hears that queue pair {@code queuePair} from {@code src} to {@code dst} opens: the drivers open their QPs in id
     * order before routing any of their messages, as the packet level connects them, so a router can give a QP what
     * depends on the QPs opened before it (a multi-plane fabric's home plane: {@link EcmpFabric}).
     */
    default void open(int queuePair, int src, int dst) {}

    /** Whether routes can change during the run (link events); the driver then reroutes running flows. */
    default boolean dynamic() {
        return false;
    }
}
