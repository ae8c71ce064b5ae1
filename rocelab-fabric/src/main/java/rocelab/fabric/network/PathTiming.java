package rocelab.fabric.network;

import rocelab.engine.Rates;
import rocelab.engine.Saturating;
import rocelab.fabric.packet.FrameFormat;

/**
 * The closed-form timing of one message alone on a path of links: every frame serialised at the path's
 * bottleneck, one largest frame of store-and-forward at every other hop, propagation on every link, forwarding
 * latency at every switch, and the ACK of the last packet back over the same links. Exact for a path of equal rates
 * (see the timing tests). The flow-level model uses the same numbers: a message's wire bytes are its fluid work, and
 * everything else is the path's fixed latency, so a flow alone there ends exactly when this says.
 */
public final class PathTiming {
    private final FrameFormat frames;
    private final int mtu;
    private final long forwardingLatencyPs;

    public PathTiming(FrameFormat frames, int mtuBytes, long forwardingLatencyPs) {
        this.frames = frames;
        this.mtu = mtuBytes;
        this.forwardingLatencyPs = forwardingLatencyPs;
    }

    /** The largest payload of a frame: {@link #deliveryLatencyPs} is the same for every message of at least this. */
    public int mtuBytes() {
        return mtu;
    }

    /** Bytes the message puts on one link: its frames with their headers, preamble and inter-frame gap. */
    public long wireBytes(long sizeBytes) {
        long packets = Math.max(1, (sizeBytes + mtu - 1) / mtu);
        long fullWire = frames.onWire(frames.dataFrameBytes(mtu, false));
        // The first packet carries the largest payload and the RETH, so it is also the largest frame.
        long all = largestFrameWire(sizeBytes);
        if (packets > 1) {
            long lastPayload = sizeBytes - (packets - 1) * mtu;
            all += (packets - 2) * fullWire + frames.onWire(frames.dataFrameBytes((int) lastPayload, false));
        }
        return all;
    }

    private long largestFrameWire(long sizeBytes) {
        return frames.onWire(frames.dataFrameBytes((int) Math.min(mtu, sizeBytes), true));
    }

    /** The slowest of the first {@code hops} rates. */
    public static long bottleneck(long[] rates, int hops) {
        long b = Long.MAX_VALUE;
        for (int i = 0; i < hops; i++) {
            b = Math.min(b, rates[i]);
        }
        return b;
    }

    /** From the first byte leaving until the receiver has the last one, alone on the path. */
    public long deliveryPs(long[] rates, long[] delays, int hops, long sizeBytes) {
        long bottleneck = bottleneck(rates, hops);
        // Saturating: a message too large for a long of picoseconds never completes rather than wrapping around.
        return Saturating.add(Rates.serializationPs(wireBytes(sizeBytes), bottleneck),
                deliveryLatencyPs(rates, delays, hops, sizeBytes));
    }

    /** From the first byte leaving until the sender has the last ACK, alone on the path. */
    public long completionPs(long[] rates, long[] delays, int hops, long sizeBytes) {
        return Saturating.add(deliveryPs(rates, delays, hops, sizeBytes), ackLatencyPs(rates, delays, hops));
    }

    /**
     * Delivery time minus the serialisation of every frame at the bottleneck: store-and-forward of the largest frame
     * at every hop but (the first) bottleneck one, propagation and forwarding latency.
     */
    public long deliveryLatencyPs(long[] rates, long[] delays, int hops, long sizeBytes) {
        long bottleneck = bottleneck(rates, hops);
        long maxWire = largestFrameWire(sizeBytes);
        long t = 0;
        boolean bottleneckCounted = false;
        for (int i = 0; i < hops; i++) {
            if (!bottleneckCounted && rates[i] == bottleneck) {
                bottleneckCounted = true;
            } else {
                t = Saturating.add(t, Rates.serializationPs(maxWire, rates[i]));
            }
        }
        return Saturating.add(t, oneWayPs(delays, hops));
    }

    /** From delivery until the sender has the ACK of the last packet: the ACK frame at every hop and the way back. */
    public long ackLatencyPs(long[] rates, long[] delays, int hops) {
        long ackWire = frames.onWire(frames.ackFrameBytes());
        long ack = 0;
        for (int i = 0; i < hops; i++) {
            ack = Saturating.add(ack, Rates.serializationPs(ackWire, rates[i]));
        }
        return Saturating.add(ack, oneWayPs(delays, hops));
    }

    private long oneWayPs(long[] delays, int hops) {
        long propagation = 0;
        for (int i = 0; i < hops; i++) {
            propagation += delays[i];
        }
        return propagation + (hops - 1) * forwardingLatencyPs;
    }
}
