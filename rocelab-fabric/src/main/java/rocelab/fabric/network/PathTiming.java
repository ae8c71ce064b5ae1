package rocelab.fabric.network;

import rocelab.engine.Rates;
import rocelab.engine.Saturating;
import rocelab.fabric.packet.FrameFormat;

/**
 * The closed-form timing of one message alone on a path of links: every frame serialised at the path's
 * bottleneck, the store-and-forward pipeline's extra time ({@link #deliveryLatencyPs}), propagation on every link,
 * forwarding latency at every switch, and the ACK of the last packet back over the same links, after the message's
 * earlier ACKs where they hold it ({@link #ackLatencyPs(long[], long[], int, long, long, long, int)}). Exact for any
 * rates along the path (see the timing tests). The flow-level model uses the same numbers: a message's wire bytes are
 * its fluid work, and everything else is the path's fixed latency, so a flow alone there ends exactly when this says.
 */
public final class PathTiming {
    private final FrameFormat frames;
    private final int mtu;
    private final long forwardingLatencyPs;
    /** Every data packet carries a RETH, not only a message's first: out-of-order placement ({@code nic.ooo}). */
    private final boolean rethEveryPacket;
    /** The congestion control's telemetry header on every data frame and on the ACK (HPCC's INT; 0: none). */
    private final int telemetryBytes;

    public PathTiming(FrameFormat frames, int mtuBytes, long forwardingLatencyPs) {
        this(frames, mtuBytes, forwardingLatencyPs, false);
    }

    public PathTiming(FrameFormat frames, int mtuBytes, long forwardingLatencyPs, boolean rethEveryPacket) {
        this(frames, mtuBytes, forwardingLatencyPs, rethEveryPacket, 0);
    }

    /**
     * With {@code rethEveryPacket} every frame of a message has the RETH, as every QP's frames do when both its RNICs
     * place out of order ({@code nic.ooo}: the placement address on every packet, 16 bytes more per frame after the
     * first). With {@code telemetryBytes} every data frame and the ACK carry the congestion control's telemetry
     * header ({@code CongestionControl.telemetryHeaderBytes}: HPCC's INT, 42 bytes by default).
     */
    public PathTiming(FrameFormat frames, int mtuBytes, long forwardingLatencyPs, boolean rethEveryPacket,
            int telemetryBytes) {
        this.frames = frames;
        this.mtu = mtuBytes;
        this.forwardingLatencyPs = forwardingLatencyPs;
        this.rethEveryPacket = rethEveryPacket;
        this.telemetryBytes = telemetryBytes;
    }

    /** Bytes of link time of a data frame of {@code payloadBytes}. */
    private long dataWire(int payloadBytes, boolean withReth) {
        return frames.onWire(frames.dataFrameBytes(payloadBytes, withReth, telemetryBytes));
    }

    /** Bytes of link time of the ACK. */
    private long ackWire() {
        return frames.onWire(frames.ackFrameBytes(telemetryBytes));
    }

    /** The largest payload of a frame. */
    public int mtuBytes() {
        return mtu;
    }

    /** Bytes the message puts on one link: its frames with their headers, preamble and inter-frame gap. */
    public long wireBytes(long sizeBytes) {
        long packets = Math.max(1, (sizeBytes + mtu - 1) / mtu);
        long fullWire = dataWire(mtu, rethEveryPacket);
        // The first packet carries the largest payload and the RETH, so it is also the largest frame.
        long all = largestFrameWire(sizeBytes);
        if (packets > 1) {
            long lastPayload = sizeBytes - (packets - 1) * mtu;
            all += (packets - 2) * fullWire + dataWire((int) lastPayload, rethEveryPacket);
        }
        return all;
    }

    private long largestFrameWire(long sizeBytes) {
        return dataWire((int) Math.min(mtu, sizeBytes), true);
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
        return completionPs(rates, delays, hops, sizeBytes, 0, 0, 1);
    }

    /**
     * As {@link #deliveryPs(long[], long[], int, long)}, into a receiver whose pipeline ({@code nic.rx}) takes in
     * frames at {@code receiveBps} (0: no limit): every frame at the slowest of the links and the pipeline, plus
     * {@link #deliveryLatencyPs(long[], long[], int, long, long)}.
     */
    public long deliveryPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps) {
        return Saturating.add(Rates.serializationPs(wireBytes(sizeBytes), bottleneck(rates, hops, receiveBps)),
                deliveryLatencyPs(rates, delays, hops, sizeBytes, receiveBps));
    }

    /**
     * As {@link #completionPs(long[], long[], int, long)}, with the receiver's pipeline at {@code receiveBps} and the
     * sender's, which takes in the ACKs, at {@code senderReceiveBps} (0: no limit), and a responder that acknowledges
     * every packet.
     */
    public long completionPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps,
            long senderReceiveBps) {
        return completionPs(rates, delays, hops, sizeBytes, receiveBps, senderReceiveBps, 1);
    }

    /**
     * As {@link #completionPs(long[], long[], int, long, long, long)}, with a responder that acknowledges every
     * {@code ackEvery}-th packet and the last ({@code nic.ack-every}): the last ACK after the earlier ones, see
     * {@link #ackLatencyPs(long[], long[], int, long, long, long, int)}.
     */
    public long completionPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps,
            long senderReceiveBps, int ackEvery) {
        return Saturating.add(deliveryPs(rates, delays, hops, sizeBytes, receiveBps),
                ackLatencyPs(rates, delays, hops, sizeBytes, receiveBps, senderReceiveBps, ackEvery));
    }

    /**
     * As {@link #deliveryPs(long[], long[], int, long, long)} over hop-wise best rates ({@link BestPath}) that may come
     * from different paths, for a message that keeps one of them: its frames at no more than {@code onePathBps}, the
     * widest path's slowest link ({@link BestPath#onePathBps}). That is {@code rate} (the slower of it and the hop-wise
     * bottleneck and pipeline) for serialisation plus {@link #latencyHeldToPs}.
     */
    public long deliveryPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps, long onePathBps) {
        long rate = Math.min(bottleneck(rates, hops, receiveBps), onePathBps);
        return Saturating.add(Rates.serializationPs(wireBytes(sizeBytes), rate),
                latencyHeldToPs(rates, delays, hops, sizeBytes, receiveBps, rate));
    }

    /**
     * The fixed latency that goes with serialising a message at {@code rateBps}, at or below the slowest of the
     * hop-wise best rates (and pipeline) because no one path has them all: the larger of the propagation and
     * forwarding alone and the hop-wise delivery less that serialisation. Not {@link #deliveryLatencyPs}: its
     * store-and-forward counts the largest frame at the hops after the slowest one, where on a path whose slow link
     * comes early only the last (smaller) frame's time remains, so added to the slow link's serialisation it was 0.14 us
     * past a run on a fat-tree. Every path's delivery is at least its wire bytes at its slowest link plus the
     * propagation and forwarding, and at least the hop-wise delivery, so both sums are bounds; the result is never above
     * {@link #deliveryLatencyPs}.
     */
    public long latencyHeldToPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps, long rateBps) {
        long hopWise = deliveryPs(rates, delays, hops, sizeBytes, receiveBps);
        return Math.max(oneWayPs(delays, hops), hopWise - Rates.serializationPs(wireBytes(sizeBytes), rateBps));
    }

    /**
     * As {@link #completionPs(long[], long[], int, long, long, long, int)}, for a message that keeps one of the paths
     * whose hop-wise best rates these are: delivered as {@link #deliveryPs(long[], long[], int, long, long, long)}
     * says. Where no path has the hop-wise rates ({@code onePathBps} below their slowest) the last ACK is taken
     * alone: its wait behind the earlier ACKs would be reckoned from packets arriving faster than any path brings
     * them, which is no bound.
     */
    public long completionPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps,
            long senderReceiveBps, int ackEvery, long onePathBps) {
        if (onePathBps >= bottleneck(rates, hops)) {
            return completionPs(rates, delays, hops, sizeBytes, receiveBps, senderReceiveBps, ackEvery);
        }
        return Saturating.add(deliveryPs(rates, delays, hops, sizeBytes, receiveBps, onePathBps),
                ackLatencyPs(rates, delays, hops, senderReceiveBps));
    }

    /**
     * Delivery time minus the serialisation of every frame at the bottleneck: the store-and-forward pipeline's extra
     * time, propagation and forwarding latency.
     *
     * <p>Frames leave back to back and every hop forwards a frame once it has all of it, so the last frame is
     * delivered at the longest monotone path through the (frame, hop) grid of serialisation times (frame k at hop j
     * waits for frame k at hop j-1 and for frame k-1 at hop j). The message's frames are a first one (the largest:
     * a full payload and the RETH), identical full ones, and a last one, so such a path is: the first frame over hops
     * 0..p, the full frames over hops p..q with all but one of them at the slowest hop among those, the last frame
     * over hops q..end. The longest over p <= q is exact for any rates; charging the largest frame at every hop but
     * the bottleneck overstates it when faster links follow a slower one, where only the last frame's time remains
     * (a 25G hop between 100G ones: the ideal time would exceed a run alone on the path).
     */
    public long deliveryLatencyPs(long[] rates, long[] delays, int hops, long sizeBytes) {
        return deliveryLatencyPs(rates, delays, hops, sizeBytes, 0);
    }

    /**
     * As {@link #deliveryLatencyPs(long[], long[], int, long)}, with the receiver's pipeline ({@code nic.rx}) taking
     * in the frames at {@code receiveBps} (0: no limit): one more stage after the last link, which takes a frame once
     * all of it has arrived and one at a time, each its wire bytes at that rate, with no propagation and no forwarding
     * latency (the grid above holds for it as for a hop). The receiver has the message when the pipeline has taken its
     * last frame; the serialisation this leaves out is every frame at the slowest of the links and the pipeline.
     */
    public long deliveryLatencyPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps) {
        int stages = receiveBps > 0 ? hops + 1 : hops;
        long packets = Math.max(1, (sizeBytes + mtu - 1) / mtu);
        long first = largestFrameWire(sizeBytes);
        long last = packets == 1 ? first
                : dataWire((int) (sizeBytes - (packets - 1) * mtu), rethEveryPacket);
        long full = dataWire(mtu, rethEveryPacket);
        // Per call, no arrays: the flow model and the ideal bound ask this once per message.
        long lastOverAll = 0;
        for (int j = 0; j < stages; j++) {
            lastOverAll = Saturating.add(lastOverAll, Rates.serializationPs(last, stage(rates, hops, receiveBps, j)));
        }
        long longest = Long.MIN_VALUE;
        long firstThrough = 0; // the first frame over stages 0..p
        long lastBefore = 0; // the last frame over stages 0..p-1, so it covers p..end in lastOverAll - lastBefore
        for (int p = 0; p < stages; p++) {
            long rateP = stage(rates, hops, receiveBps, p);
            firstThrough = Saturating.add(firstThrough, Rates.serializationPs(first, rateP));
            if (packets == 1) {
                longest = firstThrough; // the first frame over every stage, at p = stages - 1
            } else if (packets == 2) {
                longest = Math.max(longest, Saturating.add(firstThrough, lastOverAll - lastBefore));
            } else {
                long extra = packets - 3; // full frames beyond the one that crosses stages p..q
                long fullOver = 0;
                long slowest = 0;
                long lastBeforeQ = lastBefore;
                for (int q = p; q < stages; q++) {
                    long rateQ = stage(rates, hops, receiveBps, q);
                    long t = Rates.serializationPs(full, rateQ);
                    fullOver = Saturating.add(fullOver, t);
                    slowest = Math.max(slowest, t);
                    long path = Saturating.add(Saturating.add(firstThrough, fullOver),
                            Saturating.add(Saturating.multiply(extra, slowest), lastOverAll - lastBeforeQ));
                    longest = Math.max(longest, path);
                    lastBeforeQ += Rates.serializationPs(last, rateQ);
                }
            }
            lastBefore += Rates.serializationPs(last, rateP);
        }
        long atBottleneck = Rates.serializationPs(wireBytes(sizeBytes), bottleneck(rates, hops, receiveBps));
        return Saturating.add(Math.max(0, longest - atBottleneck), oneWayPs(delays, hops));
    }

    /** The rate of stage {@code j}: link j, or after the last link the receive pipeline. */
    private static long stage(long[] rates, int hops, long receiveBps, int j) {
        return j < hops ? rates[j] : receiveBps;
    }

    /** The slowest of the first {@code hops} rates and the receive pipeline's ({@code receiveBps}, 0: no limit). */
    public static long bottleneck(long[] rates, int hops, long receiveBps) {
        long b = bottleneck(rates, hops);
        return receiveBps > 0 ? Math.min(b, receiveBps) : b;
    }

    /**
     * As {@link #ackLatencyPs(long[], long[], int)}, with the sender's receive pipeline ({@code nic.rx}) taking in the
     * ACK at {@code senderReceiveBps} (0: no limit) before the sender has it.
     */
    public long ackLatencyPs(long[] rates, long[] delays, int hops, long senderReceiveBps) {
        long ack = ackLatencyPs(rates, delays, hops);
        return senderReceiveBps > 0
                ? Saturating.add(ack, Rates.serializationPs(ackWire(), senderReceiveBps))
                : ack;
    }

    /**
     * From delivery until the sender has the ACK of the last packet, alone on the path with the message's earlier
     * ACKs ahead of it: the responder acknowledges every {@code ackEvery}-th packet and the last, each ACK when the
     * receiver has its packet (past its pipeline, {@code receiveBps}), and the ACKs cross the links back (and the
     * sender's pipeline, {@code senderReceiveBps}) one after another, as every other frame does. The last ACK alone
     * ({@link #ackLatencyPs(long[], long[], int, long)}) is this unless packets reach the receiver closer together
     * than an ACK takes at the slowest stage of the way back: a small last packet queued behind a full one at a fast
     * link after a slower one (a 25G sender to a 100G receiver: 20 ns more), or a sender's pipeline slower for ACKs
     * than its packets come in (10 Gb/s at MTU 256 behind a 100G link: every ACK in its turn, 2.5x the message).
     *
     * <p>Exact by the grid argument of {@link #deliveryLatencyPs}: equal ACKs released at D_1 .. D_m (the deliveries
     * of the packets they answer) leave the last stage no sooner than max_i (D_i + (m - i) a) + their time at every
     * stage, a being an ACK's time at the slowest stage. D_k of the k-th packet is the delivery of the message's
     * first k frames, a message of k MTUs; it is convex in k from k = 2 on (a longest path over affine terms), so the
     * maximum is at the first, second or last ACK before the message's last.
     */
    public long ackLatencyPs(long[] rates, long[] delays, int hops, long sizeBytes, long receiveBps,
            long senderReceiveBps, int ackEvery) {
        long alone = ackLatencyPs(rates, delays, hops, senderReceiveBps);
        long packets = Math.max(1, (sizeBytes + mtu - 1) / mtu);
        long every = Math.max(1, ackEvery);
        long before = (packets - 1) / every; // ACKs ahead of the last one: after packets every, 2 every, ...
        if (before == 0) {
            return alone;
        }
        long ackWire = ackWire();
        long slowest = senderReceiveBps > 0 ? Rates.serializationPs(ackWire, senderReceiveBps) : 0;
        for (int i = 0; i < hops; i++) {
            slowest = Math.max(slowest, Rates.serializationPs(ackWire, rates[i]));
        }
        // Each packet reaches the receiver at least its own time at the last stage after the one before it, so when
        // the smallest (the last) takes as long there as an ACK at the slowest stage back, no ACK waits for another:
        // every path of equal rates, and most others.
        long lastStage = receiveBps > 0 ? receiveBps : rates[hops - 1];
        long smallest = packets == 1 ? largestFrameWire(sizeBytes)
                : dataWire((int) (sizeBytes - (packets - 1) * mtu), rethEveryPacket);
        if (Rates.serializationPs(smallest, lastStage) >= slowest) {
            return alone;
        }
        long last = deliveryPs(rates, delays, hops, sizeBytes, receiveBps);
        long behind = 0;
        for (long j : new long[] {1, 2, before}) {
            if (j > before) {
                continue;
            }
            long dk = deliveryPs(rates, delays, hops, j * every * mtu, receiveBps);
            // ACK j and the before - j + 1 ACKs after it, the last one included, at the slowest stage.
            behind = Math.max(behind, Saturating.add(dk, Saturating.multiply(before - j + 1, slowest)) - last);
        }
        return Saturating.add(alone, behind);
    }

    /** From delivery until the sender has the ACK of the last packet: the ACK frame at every hop and the way back. */
    public long ackLatencyPs(long[] rates, long[] delays, int hops) {
        long ackWire = ackWire();
        long ack = 0;
        for (int i = 0; i < hops; i++) {
            ack = Saturating.add(ack, Rates.serializationPs(ackWire, rates[i]));
        }
        return Saturating.add(ack, oneWayPs(delays, hops));
    }

    /**
     * The fixed part of any frame's way over the first {@code hops} links, whatever its size: every link's propagation
     * and every switch's forwarding latency (no serialisation).
     */
    public long oneWayPs(long[] delays, int hops) {
        long propagation = 0;
        for (int i = 0; i < hops; i++) {
            propagation += delays[i];
        }
        return propagation + (hops - 1) * forwardingLatencyPs;
    }
}
