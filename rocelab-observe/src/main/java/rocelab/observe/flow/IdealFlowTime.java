package rocelab.observe.flow;

import rocelab.engine.Rates;
import rocelab.engine.Saturating;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;

/**
 * Completion time of a flow alone on an idle fabric, in closed form: every frame serialised at the path's
 * bottleneck, one largest frame of store-and-forward at every other hop, propagation on every link, and the ACK
 * of the last packet back over the same links. Exact for a path of equal rates (see the timing tests).
 */
public final class IdealFlowTime {
    private final Topology topology;
    private final FrameFormat frames;
    private final int mtu;
    private final long forwardingLatencyPs;
    private final int[][] distances;
    /** The links (rates, then delays) of the path between two hosts, by src x hosts + dst, found once. */
    private final java.util.Map<Long, long[][]> paths = new java.util.HashMap<>();

    public IdealFlowTime(Network network, NicParameters nic, long forwardingLatencyPs) {
        this.topology = network.topology();
        this.frames = network.frames();
        this.mtu = nic.mtuBytes();
        this.forwardingLatencyPs = forwardingLatencyPs;
        this.distances = new int[topology.hostCount()][];
    }

    public long fctPs(int src, int dst, long sizeBytes) {
        return times(src, dst, sizeBytes)[2];
    }

    /** From the first byte leaving until the receiver has the last one, on an idle fabric. */
    public long deliveryPs(int src, int dst, long sizeBytes) {
        return times(src, dst, sizeBytes)[1];
    }

    /** How long the message keeps the sender's link busy: all its frames at the first hop's rate. */
    public long senderBusyPs(int src, int dst, long sizeBytes) {
        return times(src, dst, sizeBytes)[0];
    }

    /** Sender busy time, delivery time and completion (last ACK back) time. */
    private long[] times(int src, int dst, long sizeBytes) {
        long[][] links = paths.computeIfAbsent((long) src * topology.hostCount() + dst, k -> {
            long[] r = new long[topology.nodeCount()];
            long[] d = new long[topology.nodeCount()];
            int n = path(src, dst, r, d);
            return new long[][] {java.util.Arrays.copyOf(r, n), java.util.Arrays.copyOf(d, n)};
        });
        long[] rates = links[0];
        long[] delays = links[1];
        int hops = rates.length;
        long bottleneck = Long.MAX_VALUE;
        long propagation = 0;
        for (int i = 0; i < hops; i++) {
            bottleneck = Math.min(bottleneck, rates[i]);
            propagation += delays[i];
        }
        long packets = (sizeBytes + mtu - 1) / mtu;
        long fullWire = frames.onWire(frames.dataFrameBytes(mtu, false));
        // The first packet carries the largest payload and the RETH, so it is also the largest frame.
        long maxWire = frames.onWire(frames.dataFrameBytes((int) Math.min(mtu, sizeBytes), true));
        long allWire = maxWire;
        if (packets > 1) {
            long lastPayload = sizeBytes - (packets - 1) * mtu;
            allWire += (packets - 2) * fullWire + frames.onWire(frames.dataFrameBytes((int) lastPayload, false));
        }
        long t = Rates.serializationPs(allWire, bottleneck);
        long ack = 0;
        boolean bottleneckCounted = false;
        long ackWire = frames.onWire(frames.ackFrameBytes());
        for (int i = 0; i < hops; i++) {
            if (!bottleneckCounted && rates[i] == bottleneck) {
                bottleneckCounted = true;
            } else {
                t = Saturating.add(t, Rates.serializationPs(maxWire, rates[i]));
            }
            ack = Saturating.add(ack, Rates.serializationPs(ackWire, rates[i]));
        }
        long switches = hops - 1;
        long oneWay = propagation + switches * forwardingLatencyPs;
        long delivery = Saturating.add(t, oneWay);
        return new long[] {Rates.serializationPs(allWire, rates[0]), delivery, Saturating.add(Saturating.add(delivery, ack), oneWay)};
    }

    /** Fills the rate and delay of each link on one shortest path; returns the number of links. */
    private int path(int src, int dst, long[] rates, long[] delays) {
        int[] dist = distances[dst];
        if (dist == null) {
            dist = topology.distancesTo(dst);
            distances[dst] = dist;
        }
        int node = src;
        int hops = 0;
        while (node != dst) {
            int next = -1;
            for (int p = 0; p < topology.portCount(node) && next < 0; p++) {
                Topology.End far = topology.peer(node, p);
                boolean relay = !topology.isHost(far.node()) || far.node() == dst;
                if (relay && dist[far.node()] == dist[node] - 1) {
                    next = far.node();
                    rates[hops] = topology.edgeAt(node, p).parameters().rateBps();
                    delays[hops] = topology.edgeAt(node, p).parameters().delayPs();
                }
            }
            if (next < 0) {
                throw new IllegalStateException("no path from h" + src + " to h" + dst);
            }
            node = next;
            hops++;
        }
        return hops;
    }
}
