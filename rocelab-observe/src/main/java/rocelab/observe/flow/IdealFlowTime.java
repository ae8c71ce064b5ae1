package rocelab.observe.flow;

import rocelab.engine.Rates;
import rocelab.fabric.network.BestPath;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.PathTiming;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * Completion time of a flow alone on an idle fabric, in closed form ({@link PathTiming} over the best links of its
 * equal-cost paths, {@link BestPath}: a bound for whichever path its hash picks):
 * every frame serialised at the path's bottleneck, the store-and-forward pipeline's extra time, propagation on every
 * link, and the ACK of the last packet back over the same links after the message's earlier ACKs. Exact for any
 * rates along the path (see the timing tests). This is the "ideal FCT" of flows.csv: the flow with the fabric to itself. A receiver
 * whose pipeline is slower than its link ({@code nic.rx}) takes the frames in at its rate, one more stage after the
 * last link, and the sender's takes in the ACK ({@link PathTiming#completionPs(long[], long[], int, long, long,
 * long)}): a flow into it is no faster than min(path rate, pipeline rate), as at packet level.
 */
public final class IdealFlowTime {
    private final Topology topology;
    private final Network network;
    private final PathTiming timing;
    /** The best links at each hop of the equal-cost paths between two hosts. */
    private final BestPath best;
    /** Scratch for one path's link rates and delays: no per-pair cache, which would grow with hosts squared. */
    private final long[] rates;
    private final long[] delays;
    /** Multi-plane RNICs that spray: a flow alone has all P planes, as one path at P times a plane's rates. */
    private final int rateFactor;
    /**
     * Whether a switch may spread one QP over several equal-cost paths at once (spray, adaptive, flowlets): then a
     * flow alone is certain to be capped only by its first and last links, not by one path's slower links between
     * (a flow over two 200G spines between 400G hosts ran at 400G, a slowdown of 0.52 against one spine's 200G).
     */
    private final boolean spreads;
    /**
     * The last {@link #path}'s widest one-path bottleneck ({@link BestPath#onePathBps}): a flow hashed onto one path
     * is no faster, even where the hop-wise best links are of different paths. No cap where it may spread.
     */
    private long onePathBps;

    public IdealFlowTime(Network network, NicParameters nic, long forwardingLatencyPs) {
        this(network, new PathTiming(network.frames(), nic.mtuBytes(), forwardingLatencyPs));
    }

    /** With the closed forms of {@code timing} (its frames, MTU, forwarding latency and RETH placement). */
    public IdealFlowTime(Network network, PathTiming timing) {
        this.topology = network.topology();
        this.network = network;
        this.timing = timing;
        this.best = new BestPath(topology);
        this.rates = new long[topology.nodeCount()];
        this.delays = new long[topology.nodeCount()];
        this.rateFactor = topology.planes() > 1
                && topology.planeSelection() == PlaneSelection.SPRAY ? topology.planes() : 1;
        boolean any = false;
        for (int i = 0; i < network.switchCount(); i++) {
            any |= network.switchAt(i).loadBalancing() != LoadBalancing.ECMP;
        }
        this.spreads = any;
    }

    public long fctPs(int src, int dst, long sizeBytes) {
        int hops = path(src, dst);
        return timing.completionPs(rates, delays, hops, sizeBytes, receiveRateBps(dst), receiveRateBps(src),
                ackEvery(dst), onePathBps);
    }

    /** From the first byte leaving until the receiver has the last one, on an idle fabric. */
    public long deliveryPs(int src, int dst, long sizeBytes) {
        int hops = path(src, dst);
        return timing.deliveryPs(rates, delays, hops, sizeBytes, receiveRateBps(dst), onePathBps);
    }

    /** How often host {@code h}'s RNIC acknowledges as a responder ({@code nic.ack-every}). */
    private int ackEvery(int h) {
        var nic = network.nic(h);
        return nic == null ? 1 : nic.parameters().ackEvery();
    }

    /** Host {@code h}'s receive pipeline rate ({@code nic.rx}, wire bits per second), 0 when it keeps up. */
    private long receiveRateBps(int h) {
        var nic = network.nic(h);
        return nic == null ? 0 : nic.receiveRateBps();
    }

    /** How long the message keeps the sender's link busy: all its frames at the first hop's rate. */
    public long senderBusyPs(int src, int dst, long sizeBytes) {
        path(src, dst);
        return Rates.serializationPs(timing.wireBytes(sizeBytes), rates[0]);
    }

    /**
     * Fills the best rate and delay at each hop among the switches' equal-cost paths ({@link BestPath}: the flow
     * alone is no faster on whichever path it was hashed onto); returns the number of links.
     */
    private int path(int src, int dst) {
        int hops = best.fill(src, dst, rates, delays);
        onePathBps = spreads || rateFactor > 1 ? Long.MAX_VALUE : best.onePathBps();
        for (int i = 0; i < hops; i++) {
            rates[i] *= rateFactor;
        }
        if (spreads && hops > 2) {
            // The links between the first and the last may be several at once: none is slower than the slower of
            // those two (a frame's store-and-forward on them is then counted at that rate, which only lowers the
            // figure).
            long ends = Math.min(rates[0], rates[hops - 1]);
            for (int i = 1; i < hops - 1; i++) {
                rates[i] = Math.max(rates[i], ends);
            }
        }
        return hops;
    }
}
