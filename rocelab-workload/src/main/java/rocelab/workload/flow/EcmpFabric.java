package rocelab.workload.flow;

import java.util.Arrays;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.network.ShortestPath;
import rocelab.fabric.nic.HomePlanes;
import rocelab.fabric.nic.PlaneRouting;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * The fabric of the flow-level fast mode: every directed link is a capacity, and a message crosses the links its
 * QP's packets would: at each switch the next hop that switch's ECMP hash picks for the QP's 5-tuple (same hash
 * function, same per-switch seed, same UDP source port as the packet level), read from the switches' current routes,
 * so after a link event a rerouted flow takes the new path. A spraying or adaptive switch spreads the flow evenly over
 * its equal-cost next hops (each link then carries its share of the flow's rate: the perfect balance both aim at;
 * an adaptive switch whose candidate links differ in rate, in proportion to their rates); a
 * flowlet switch routes a message as ECMP does, since a fluid message has no idle gap to start a new flowlet at and
 * no queue to compare. A receiver whose pipeline is slower than its link ({@code nic.rx}) is one more capacity, at
 * the pipeline's rate, that every flow into that host shares (after the directed links), as on the ideal network,
 * and it takes in each frame after the last link (and the sender's pipeline the ACK): {@link PathTiming}. Unlike the
 * packet level there are no queues, marks, pauses or drops: rates are max-min fair over the links.
 */
public final class EcmpFabric implements FlowRouter {
    private final Network network;
    private final Topology topology;
    private final PathTiming timing;
    private final int[] links;
    private final long[] rates;
    private final long[] delays;
    /** Per directed link, the share of the flow being routed (spraying), and the links touched in order. */
    private final double[] share;
    private final int[] touched;
    private final double[] nodeShare;
    private final int[] frontier;
    private final int[] nextFrontier;
    private final boolean spraying;
    /** Each directed link's rate and delay, read once (the topology hands out copies of its edge list). */
    private final long[] linkRate;
    private final long[] linkDelay;
    /** Each host's receive pipeline rate ({@code nic.rx}; 0: it keeps up) and its capacity's index (-1: none). */
    private final long[] receiveBps;
    /** Each host's {@code nic.ack-every} as a responder: how many of a message's ACKs come back ahead of its last. */
    private final int[] ackEvery;
    private final int[] receiveResource;
    private final int resources;
    /** Each QP's ECMP entropy once derived ({@link #entropy(int)}), by QP id. */
    private int[] entropyOfQueuePair = new int[64];

    public EcmpFabric(Network network, PathTiming timing) {
        this.network = network;
        this.topology = network.topology();
        this.timing = timing;
        int nodes = topology.nodeCount();
        this.links = new int[nodes];
        this.rates = new long[nodes];
        this.delays = new long[nodes];
        this.share = new double[2 * topology.edges().size()];
        this.touched = new int[2 * topology.edges().size()];
        this.nodeShare = new double[nodes];
        this.frontier = new int[nodes];
        this.nextFrontier = new int[nodes];
        this.linkRate = ShortestPath.rates(topology);
        this.linkDelay = ShortestPath.delays(topology);
        int hosts = topology.hostCount();
        this.receiveBps = new long[hosts];
        this.ackEvery = new int[hosts];
        this.receiveResource = new int[hosts];
        int next = linkRate.length;
        for (int h = 0; h < hosts; h++) {
            receiveBps[h] = network.nic(h) == null ? 0 : network.nic(h).receiveRateBps();
            ackEvery[h] = network.nic(h) == null ? 1 : network.nic(h).parameters().ackEvery();
            receiveResource[h] = receiveBps[h] > 0 ? next++ : -1;
        }
        this.resources = next;
        boolean any = false;
        for (int s = 0; s < network.switchCount(); s++) {
            any |= spreads(network.switchAt(s));
        }
        this.planes = network.planeRouting();
        this.planeSpraying = planes != null && planes.selection() == PlaneSelection.SPRAY;
        this.spraying = any || planeSpraying;
        this.homes = planes == null || planeSpraying ? null : new HomePlanes(planes.planes(), hosts);
    }

    /**
     * Multi-plane fabric (null: one plane): a per-QP flow takes its QP's plane (as the packet level picks it, moved
     * off a plane that lost its path); a sprayed flow is spread evenly over the planes that reach its destination.
     */
    private final PlaneRouting planes;
    private final boolean planeSpraying;
    /**
     * Per-QP planes: each QP's home, recorded as the driver opens it by the packet level's rule and in its order
     * (null otherwise). This router's own, not the network's: a network that ran its packet level has opened QPs of
     * its own, numbered from 0 too.
     */
    private final HomePlanes homes;

    /** Whether a switch spreads a flow over all its candidates (spray, adaptive) or hashes it (ecmp, flowlet). */
    static boolean spreads(Switch sw) {
        LoadBalancing lb = sw.loadBalancing();
        return lb == LoadBalancing.SPRAY || lb == LoadBalancing.ADAPTIVE;
    }

    /** Every directed link's rate: both directions of every edge. */
    static double[] linkCapacities(Topology topology) {
        long[] rates = ShortestPath.rates(topology);
        double[] c = new double[rates.length];
        for (int i = 0; i < rates.length; i++) {
            c[i] = rates[i];
        }
        return c;
    }

    /**
     * The path of a QP's packets ({@code entropy} its UDP source port; -1: every switch's first candidate), as
     * directed links; -1 when some switch has no route.
     */
    static int walk(Network network, int src, int dst, int entropy, int[] links) {
        return walk(network, src, dst, entropy, 0, links);
    }

    /** As above, leaving the source by its port {@code plane} (a multi-plane RNIC's port on that plane). */
    static int walk(Network network, int src, int dst, int entropy, int plane, int[] links) {
        Topology t = network.topology();
        int hosts = t.hostCount();
        int node = src;
        int port = plane;
        int hops = 0;
        while (true) {
            links[hops++] = ShortestPath.directedLink(t, node, port);
            node = t.peer(node, port).node();
            if (node == dst) {
                return hops;
            }
            if (t.isHost(node) || hops >= links.length) {
                return -1;
            }
            Switch sw = network.switchAt(node - hosts);
            int[] candidates = sw.candidates(dst);
            if (candidates.length == 0) {
                return -1;
            }
            port = candidates.length == 1 || entropy < 0 ? candidates[0]
                    : candidates[sw.ecmpChoice(src, dst, entropy, candidates.length)];
            if (sw.loadBalancing() == LoadBalancing.ADAPTIVE && candidates.length > 1) {
                port = fastest(t, node, candidates, port);
            }
        }
    }

    /**
     * The fastest of an adaptive switch's candidates, {@code hashed} among equals. The path's timing is the flow's
     * latency, and the flow leans on the fast links there ({@link #unequalRateSum}): timed over a slower one, the
     * store-and-forward grid takes the slower hop for the flow's bottleneck and leaves out frames it does not wait
     * for, which put a lone flow ahead of its closed form.
     */
    private static int fastest(Topology t, int node, int[] candidates, int hashed) {
        int best = hashed;
        long bestRate = t.edgeAt(node, hashed).parameters().rateBps();
        for (int port : candidates) {
            long rate = t.edgeAt(node, port).parameters().rateBps();
            if (rate > bestRate) {
                best = port;
                bestRate = rate;
            }
        }
        return best;
    }

    /**
     * The QP's UDP source port, derived once per QP: {@link Network#entropy} builds the QP's stream name and hashes
     * it, and a QP carries many messages (a ring's connection carries every step of a call). A pure function of the
     * seed and the QP's id; 0 marks one not derived yet (a port is never 0).
     */
    private int entropy(int queuePair) {
        if (queuePair >= entropyOfQueuePair.length) {
            entropyOfQueuePair = Arrays.copyOf(entropyOfQueuePair, Math.max(queuePair + 1,
                    entropyOfQueuePair.length + (entropyOfQueuePair.length >> 1)));
        }
        int e = entropyOfQueuePair[queuePair];
        if (e == 0) {
            e = network.entropy(queuePair);
            entropyOfQueuePair[queuePair] = e;
        }
        return e;
    }

    @Override
    public double[] capacitiesBps() {
        double[] c = Arrays.copyOf(linkCapacities(topology), resources);
        for (int h = 0; h < receiveBps.length; h++) {
            if (receiveResource[h] >= 0) {
                c[receiveResource[h]] = receiveBps[h];
            }
        }
        return c;
    }

    @Override
    public void open(int queuePair, int src, int dst) {
        if (homes != null) {
            homes.open(queuePair, src, dst);
        }
    }

    /** A per-QP flow's plane: its QP's home, or the next plane that reaches {@code dst} now. */
    private int planeOf(int queuePair, int src, int dst) {
        return planes.planeFrom(homes.home(queuePair), src, dst);
    }

    @Override
    public boolean dynamic() {
        return true;
    }

    @Override
    public FlowRoute route(int src, int dst, long sizeBytes, int queuePair) {
        int entropy = entropy(queuePair);
        double work = 8.0 * timing.wireBytes(sizeBytes);
        // A sprayed flow is timed over the first plane that reaches its destination: plane 0 cut off from it (a
        // link down) had no route, and the flow waited at rate zero while the others carried it at packet level.
        int plane = planes == null ? 0 : planeSpraying ? planes.planeFrom(0, src, dst) : planeOf(queuePair, src, dst);
        int hops = walk(network, src, dst, entropy, plane, links);
        if (hops < 0) {
            // No route now: the flow waits (rate zero) until a link event gives it one.
            return new FlowRoute(new int[0], null, 0, work, 0, 0);
        }
        for (int i = 0; i < hops; i++) {
            rates[i] = linkRate[links[i]];
            delays[i] = linkDelay[links[i]];
        }
        // A slower receive pipeline (nic.rx) at the destination takes in each frame after the last link, the
        // source's the ACK; the destination's is a capacity its incoming flows share.
        long delivery = timing.deliveryLatencyPs(rates, delays, hops, sizeBytes, receiveBps[dst]);
        long ack = timing.ackLatencyPs(rates, delays, hops, sizeBytes, receiveBps[dst], receiveBps[src],
                ackEvery[dst]);
        if (!spraying) {
            int rx = receiveResource[dst];
            int[] own = Arrays.copyOf(links, rx >= 0 ? hops + 1 : hops);
            if (rx >= 0) {
                own[hops] = rx;
            }
            return new FlowRoute(own, null, PathTiming.bottleneck(rates, hops, receiveBps[dst]), work, delivery, ack);
        }
        return sprayed(src, dst, entropy, queuePair, work, delivery, ack);
    }

    /**
     * The sum of the rates of a switch's candidate links when they differ, 0 when they are alike. An adaptive switch
     * sends each packet to the least-loaded candidate, so a flow that would fill an even split's slowest link queues
     * there and moves to the others until every link it can use is full: it spreads in proportion to the links'
     * rates (a 100 Gb/s flow over a 25 and a 100 Gb/s uplink runs at 100 Gb/s at packet level, where an even split
     * held it at twice the slow link's 25). Spraying picks uniformly whatever the rates, so it stays even.
     */
    private double unequalRateSum(int node, int[] candidates) {
        long first = linkRate[ShortestPath.directedLink(topology, node, candidates[0])];
        double sum = 0;
        boolean alike = true;
        for (int port : candidates) {
            long rate = linkRate[ShortestPath.directedLink(topology, node, port)];
            alike &= rate == first;
            sum += rate;
        }
        return alike ? 0 : sum;
    }

    /**
     * Spreads the flow over the candidates of every spraying switch, hop by hop from the source: evenly, or at an
     * adaptive switch whose candidate links differ in rate, in proportion to their rates ({@link #unequalRateSum}).
     */
    private FlowRoute sprayed(int src, int dst, int entropy, int queuePair, double work, long delivery, long ack) {
        int hosts = topology.hostCount();
        int nTouched = 0;
        int n = 0;
        int ports = planeSpraying ? planes.usableCount(src, dst) : 1;
        for (int plane = 0; plane < topology.planes(); plane++) {
            if (planeSpraying ? !planes.usable(plane, src, dst) : plane != (planes == null ? 0
                    : planeOf(queuePair, src, dst))) {
                continue;
            }
            int first = ShortestPath.directedLink(topology, src, plane);
            share[first] = 1.0 / ports;
            touched[nTouched++] = first;
            int startNode = topology.peer(src, plane).node();
            frontier[n++] = startNode;
            nodeShare[startNode] = 1.0 / ports;
        }
        while (n > 0) {
            int m = 0;
            for (int i = 0; i < n; i++) {
                int node = frontier[i];
                double s = nodeShare[node];
                nodeShare[node] = 0;
                if (node == dst || topology.isHost(node)) {
                    continue;
                }
                Switch sw = network.switchAt(node - hosts);
                int[] candidates = sw.candidates(dst);
                if (candidates.length == 0) {
                    continue;
                }
                double each = spreads(sw) ? s / candidates.length : s;
                int from = spreads(sw) ? 0 : -1;
                double byRate = sw.loadBalancing() == LoadBalancing.ADAPTIVE ? unequalRateSum(node, candidates) : 0;
                for (int c = 0; c < candidates.length; c++) {
                    int port;
                    if (from < 0) {
                        if (c > 0) {
                            break;
                        }
                        port = candidates.length == 1 ? candidates[0] : candidates[sw.ecmpChoice(src, dst, entropy,
                                candidates.length)];
                    } else {
                        port = candidates[c];
                    }
                    int link = ShortestPath.directedLink(topology, node, port);
                    if (byRate > 0) {
                        each = s * linkRate[link] / byRate;
                    }
                    if (share[link] == 0) {
                        touched[nTouched++] = link;
                    }
                    share[link] += each;
                    int next = topology.peer(node, port).node();
                    if (nodeShare[next] == 0) {
                        nextFrontier[m++] = next;
                    }
                    nodeShare[next] += each;
                }
            }
            System.arraycopy(nextFrontier, 0, frontier, 0, m);
            n = m;
        }
        // The whole flow crosses the destination's receive pipeline, when it has one (nic.rx).
        int rx = receiveResource[dst];
        int[] rs = new int[rx >= 0 ? nTouched + 1 : nTouched];
        double[] ws = new double[rs.length];
        for (int i = 0; i < nTouched; i++) {
            rs[i] = touched[i];
            ws[i] = share[touched[i]];
            share[touched[i]] = 0;
        }
        if (rx >= 0) {
            rs[nTouched] = rx;
            ws[nTouched] = 1;
        }
        return new FlowRoute(rs, ws, Double.POSITIVE_INFINITY, work, delivery, ack);
    }
}
