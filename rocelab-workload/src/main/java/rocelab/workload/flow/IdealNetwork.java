package rocelab.workload.flow;

import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.network.ShortestPath;
import rocelab.fabric.topology.Topology;

/**
 * The ideal network behind every "waited on the network" figure: the only capacities are each sender RNIC's egress
 * (resource {@code h}) and each receiver RNIC's ingress (resource {@code hosts + h}), at the rate of the host's link,
 * shared max-min fairly by the messages crossing them; a message
 * is never faster than the slowest link of its path; the fabric between is non-blocking: no queues, no ECN marks,
 * no pauses, no drops, no ECMP collisions. Fixed latencies are those of {@link PathTiming} over the switches' first
 * equal-cost path, so a message alone takes exactly its closed-form time.
 */
public final class IdealNetwork implements FlowRouter {
    private final Network network;
    private final Topology topology;
    private final PathTiming timing;
    private final int[] links;
    private final long[] rates;
    private final long[] delays;
    private final long[] linkRate;
    private final long[] linkDelay;

    public IdealNetwork(Network network, PathTiming timing) {
        this.network = network;
        this.topology = network.topology();
        this.timing = timing;
        this.links = new int[topology.nodeCount()];
        this.rates = new long[topology.nodeCount()];
        this.delays = new long[topology.nodeCount()];
        this.linkRate = ShortestPath.rates(topology);
        this.linkDelay = ShortestPath.delays(topology);
    }

    @Override
    public double[] capacitiesBps() {
        int hosts = topology.hostCount();
        double[] c = new double[2 * hosts];
        for (int h = 0; h < hosts; h++) {
            c[h] = rnicRateBps(h);
            c[hosts + h] = c[h];
        }
        return c;
    }

    /** The rate of host {@code h}'s RNIC, each way: the one place the ideal network's port capacities come from. */
    public long rnicRateBps(int h) {
        return topology.edgeAt(h, 0).parameters().rateBps();
    }

    /** The most links a path can have (the size of the arrays {@link #path} fills). */
    public int maxHops() {
        return links.length;
    }

    /** The timing of messages alone on a path (the closed form). */
    public PathTiming timing() {
        return timing;
    }

    /**
     * The rates and propagation delays of the links a message from {@code src} to {@code dst} crosses (the
     * switches' first equal-cost path, as {@link #route}), into the arrays given; returns the number of hops.
     */
    public int path(int src, int dst, long[] pathRates, long[] pathDelays) {
        int hops = EcmpFabric.firstPath(network, src, dst, links);
        if (hops < 0) {
            hops = ShortestPath.walk(topology, topology.distancesTo(dst), src, dst, links);
        }
        for (int i = 0; i < hops; i++) {
            pathRates[i] = linkRate[links[i]];
            pathDelays[i] = linkDelay[links[i]];
        }
        return hops;
    }

    @Override
    public FlowRoute route(int src, int dst, long sizeBytes, int queuePair) {
        // The switches route around a failed link and may find none: the ideal fabric has every link up.
        int hops = path(src, dst, rates, delays);
        int[] ends = {src, topology.hostCount() + dst};
        return new FlowRoute(ends, null, PathTiming.bottleneck(rates, hops), 8.0 * timing.wireBytes(sizeBytes),
                timing.deliveryLatencyPs(rates, delays, hops, sizeBytes), timing.ackLatencyPs(rates, delays, hops));
    }
}
