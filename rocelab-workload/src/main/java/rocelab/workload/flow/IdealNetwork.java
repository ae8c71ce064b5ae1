package rocelab.workload.flow;

import rocelab.fabric.network.BestPath;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * The ideal network behind every "waited on the network" figure: the only capacities are each sender RNIC's egress
 * (resource {@code h}) and each receiver RNIC's ingress (resource {@code hosts + h}), at the rate of the host's link
 * (the ingress at its receive pipeline's, {@code nic.rx}, when that is slower),
 * shared max-min fairly by the messages crossing them; a message
 * is never faster than the slowest link of its path; the fabric between is non-blocking: no queues, no ECN marks,
 * no pauses, no drops, no ECMP collisions, every link up. Fixed latencies are those of {@link PathTiming} over the
 * best links at each hop of the switches' equal-cost paths ({@link BestPath}), so a message alone takes exactly its
 * closed-form time, and no path the switches could pick is faster.
 */
public final class IdealNetwork implements FlowRouter {
    private final Network network;
    private final Topology topology;
    private final PathTiming timing;
    private final BestPath best;
    private final long[] rates;
    private final long[] delays;
    private final long[] onePath = new long[1];
    /** {@link #queuePairKeepsPath}, found once: the switches' load balancing does not change. */
    private final boolean keepsPath;

    public IdealNetwork(Network network, PathTiming timing) {
        this.network = network;
        this.keepsPath = everySwitchHashesPerFlow(network);
        this.topology = network.topology();
        this.timing = timing;
        this.best = new BestPath(topology);
        this.rates = new long[topology.nodeCount()];
        this.delays = new long[topology.nodeCount()];
    }

    @Override
    public double[] capacitiesBps() {
        int hosts = topology.hostCount();
        double[] c = new double[2 * hosts];
        for (int h = 0; h < hosts; h++) {
            c[h] = rnicRateBps(h);
            c[hosts + h] = ingressRateBps(h);
        }
        return c;
    }

    /**
     * How fast host {@code h}'s RNIC takes data in: its rate, or its receive pipeline's ({@code nic.rx}) when that is
     * slower. A receiver that cannot take data faster than its pipeline cannot on the ideal network either.
     */
    public long ingressRateBps(int h) {
        long rx = receiveRateBps(h);
        return rx > 0 ? Math.min(rnicRateBps(h), rx) : rnicRateBps(h);
    }

    /** How often host {@code h}'s RNIC acknowledges as a responder ({@code nic.ack-every}). */
    public int ackEvery(int h) {
        return network.nic(h) == null ? 1 : network.nic(h).parameters().ackEvery();
    }

    /** Host {@code h}'s receive pipeline rate ({@code nic.rx}, wire bits per second), 0 when it keeps up. */
    public long receiveRateBps(int h) {
        return network.nic(h) == null ? 0 : network.nic(h).receiveRateBps();
    }

    /**
     * The rate of host {@code h}'s RNIC, each way: the one place the ideal network's port capacities come from (a
     * multi-plane RNIC: all its planes' ports together).
     */
    public long rnicRateBps(int h) {
        return topology.hostRateBps(h);
    }

    /**
     * How many planes' paths one message uses at once: the plane count where the RNICs spray packets across
     * planes, else 1 (a queue pair keeps to its plane). A message alone is capped by its path's slowest link times this.
     */
    public int planesPerMessage() {
        return network.planeRouting() != null && network.planeRouting().selection() == PlaneSelection.SPRAY
                ? topology.planes() : 1;
    }

    /**
     * Whether a queue pair's packets keep to one path within a plane: every switch hashes per flow ({@code ecmp}), so
     * all of a QP's packets cross the same links. Per-packet spraying, adaptive routing and flowlets may spread one
     * QP over several equal-cost paths at once, whose slowest links together are faster than one path's.
     */
    public boolean queuePairKeepsPath() {
        return keepsPath;
    }

    private static boolean everySwitchHashesPerFlow(Network network) {
        for (int i = 0; i < network.switchCount(); i++) {
            if (network.switchAt(i).loadBalancing() != LoadBalancing.ECMP) {
                return false;
            }
        }
        return true;
    }

    /** The most links a path can have (the size of the arrays {@link #path} fills). */
    public int maxHops() {
        return rates.length;
    }

    /** The timing of messages alone on a path (the closed form). */
    public PathTiming timing() {
        return timing;
    }

    /**
     * The rates and propagation delays a message from {@code src} to {@code dst} is bounded by: at each hop the best
     * of the links its equal-cost paths cross there, every link up ({@link BestPath}: the message is no faster on
     * whichever path the switches pick), into the arrays given; returns the number of hops.
     */
    // Synchronized: the walk's scratch is this object's, and two walkers of one bound may ask at once
    // (IdealBound#walker); a bound asks once per new host pair, so the lock is uncontended nearly always.
    public synchronized int path(int src, int dst, long[] pathRates, long[] pathDelays) {
        return best.fill(src, dst, pathRates, pathDelays);
    }

    /**
     * As {@link #path(int, int, long[], long[])}, and into {@code onePathBps[0]} the most a queue pair that keeps one
     * path can have ({@link BestPath#onePathBps}: the widest path's slowest link): the hop-wise best links may be of
     * different paths, none of which has them all (leaf0-spine0 and spine1-leaf1 at 100 Gb/s among 400 Gb/s links:
     * every path crosses one of them, and a 2-rank ring's ideal at the hop-wise 400 Gb/s was 5.7x faster than the
     * fabric runs it alone). {@code Long.MAX_VALUE} where a queue pair may spread over several paths or planes.
     */
    public synchronized int path(int src, int dst, long[] pathRates, long[] pathDelays, long[] onePathBps) {
        int hops = best.fill(src, dst, pathRates, pathDelays);
        onePathBps[0] = queuePairKeepsPath() && planesPerMessage() == 1 ? best.onePathBps() : Long.MAX_VALUE;
        return hops;
    }

    @Override
    public FlowRoute route(int src, int dst, long sizeBytes, int queuePair) {
        int hops = path(src, dst, rates, delays, onePath);
        int[] ends = {src, topology.hostCount() + dst};
        // Multi-plane: a QP on one plane is capped by that plane's path; a sprayed one by all planes together.
        // A slower receive pipeline (nic.rx) caps it too, and takes in each frame after it has arrived.
        long rx = receiveRateBps(dst);
        // A QP that switches spread over equal-cost paths is certain to cross only its first and last links.
        double cap = (queuePairKeepsPath() ? PathTiming.bottleneck(rates, hops) : Math.min(rates[0], rates[hops - 1]))
                * (double) planesPerMessage();
        cap = Math.min(cap, (double) onePath[0]);
        if (rx > 0) {
            cap = Math.min(cap, rx);
        }
        // Where no one path has the hop-wise best links, the latency is the one that goes with the slower rate and the
        // last ACK is taken alone (PathTiming#latencyHeldToPs, #completionPs).
        boolean noPathHasThem = onePath[0] < PathTiming.bottleneck(rates, hops);
        long ack = noPathHasThem
                ? timing.ackLatencyPs(rates, delays, hops, receiveRateBps(src))
                : timing.ackLatencyPs(rates, delays, hops, sizeBytes, rx, receiveRateBps(src), ackEvery(dst));
        long latency = noPathHasThem ? timing.latencyHeldToPs(rates, delays, hops, sizeBytes, rx, (long) cap)
                : timing.deliveryLatencyPs(rates, delays, hops, sizeBytes, rx);
        return new FlowRoute(ends, null, cap, 8.0 * timing.wireBytes(sizeBytes), latency, ack);
    }
}
