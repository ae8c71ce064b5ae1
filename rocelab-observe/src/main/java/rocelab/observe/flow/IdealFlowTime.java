package rocelab.observe.flow;

import rocelab.engine.Rates;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.network.ShortestPath;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.topology.Topology;

/**
 * Completion time of a flow alone on an idle fabric, in closed form ({@link PathTiming} over one shortest path):
 * every frame serialised at the path's bottleneck, one largest frame of store-and-forward at every other hop,
 * propagation on every link, and the ACK of the last packet back over the same links. Exact for a path of equal
 * rates (see the timing tests). This is the "ideal FCT" of flows.csv: the flow with the fabric to itself.
 */
public final class IdealFlowTime {
    private final Topology topology;
    private final PathTiming timing;
    private final int[][] distances;
    /** The links (rates, then delays) of the path between two hosts, by src x hosts + dst, found once. */
    private final java.util.Map<Long, long[][]> paths = new java.util.HashMap<>();

    public IdealFlowTime(Network network, NicParameters nic, long forwardingLatencyPs) {
        this.topology = network.topology();
        this.timing = new PathTiming(network.frames(), nic.mtuBytes(), forwardingLatencyPs);
        this.distances = new int[topology.hostCount()][];
    }

    public long fctPs(int src, int dst, long sizeBytes) {
        long[][] p = path(src, dst);
        return timing.completionPs(p[0], p[1], p[0].length, sizeBytes);
    }

    /** From the first byte leaving until the receiver has the last one, on an idle fabric. */
    public long deliveryPs(int src, int dst, long sizeBytes) {
        long[][] p = path(src, dst);
        return timing.deliveryPs(p[0], p[1], p[0].length, sizeBytes);
    }

    /** How long the message keeps the sender's link busy: all its frames at the first hop's rate. */
    public long senderBusyPs(int src, int dst, long sizeBytes) {
        return Rates.serializationPs(timing.wireBytes(sizeBytes), path(src, dst)[0][0]);
    }

    private long[][] path(int src, int dst) {
        return paths.computeIfAbsent((long) src * topology.hostCount() + dst, k -> {
            int[] dist = distances[dst];
            if (dist == null) {
                dist = topology.distancesTo(dst);
                distances[dst] = dist;
            }
            int[] links = new int[topology.nodeCount()];
            int n = ShortestPath.walk(topology, dist, src, dst, links);
            long[] r = new long[n];
            long[] d = new long[n];
            for (int i = 0; i < n; i++) {
                r[i] = ShortestPath.rateBps(topology, links[i]);
                d[i] = ShortestPath.delayPs(topology, links[i]);
            }
            return new long[][] {r, d};
        });
    }
}
