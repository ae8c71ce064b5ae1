package rocelab.congestion.swift;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;

/**
 * Swift sender of one queue pair (Kumar et al., SIGCOMM 2020, following Broadcom/csg-htsim {@code swift.cpp}): a
 * delay-based window. Each ACK compares its RTT sample with a target delay of base + hops x h + a flow-scaling
 * term that grows as the window shrinks; below target the window grows additively (ai packets per window of
 * acknowledged data), above it shrinks by {@code beta (delay - target)/delay}, at most {@code max_mdf} and at most
 * once per smoothed RTT. Below one packet the RNIC paces the queue pair at {@code cwnd / srtt}.
 *
 * <p>The hop count comes from the number of telemetry records on the ACK, the simulator's stand-in for the IP TTL
 * that Swift reads (telemetry is requested only while per-hop scaling is on). A loss (NAK or timeout: the RNIC
 * does not say which) cuts by max_mdf at most once per RTT; {@code retransmit-reset} losses with no ACK in
 * between drop the window to its minimum. The window starts at one bandwidth-delay product: no window until the
 * first ACK (line rate for one RTT), then {@code cwnd = B x rtt}.
 */
public final class SwiftControl implements CongestionControl {
    private static final double BITS_PS_PER_BYTE_S = 8e12;
    /** Packet size assumed while no ACK has shown the real one. */
    private static final long FALLBACK_MSS_BYTES = 1000;
    /** Weight of the newest sample in the smoothed RTT (htsim: TCP's 1/8). */
    private static final double SRTT_GAIN = 1.0 / 8;

    private final SwiftParameters p;
    private final double fsAlphaPs;
    private final double fsBetaPs;
    private double cwndBytes;
    private double srttPs;
    private long lastDecreasePs = Long.MIN_VALUE / 2;
    private long learntMssBytes;
    private long lastAckedPsn = -1;
    private int hops;
    private int retransmits;
    private boolean started;
    private long cuts;
    private final RateListener rates;
    private final int queuePair;

    public SwiftControl(SwiftParameters params) {
        this(params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate or window change of QP {@code queuePair} with its cause */
    public SwiftControl(SwiftParameters params, RateListener rates, int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.p = params;
        this.fsAlphaPs = params.fsRangePs() / (1 / Math.sqrt(params.fsMinCwnd()) - 1 / Math.sqrt(params.fsMaxCwnd()));
        this.fsBetaPs = -fsAlphaPs / Math.sqrt(params.fsMaxCwnd());
    }

    @Override
    public boolean wantsTelemetry() {
        return p.hopDelayPs() > 0;
    }

    /** Line rate while the window holds a packet or more; {@code cwnd / srtt} below that. */
    @Override
    public long rateBps() {
        if (!started || cwndBytes >= mssBytes()) {
            return p.maxRateBps();
        }
        double r = cwndBytes * BITS_PS_PER_BYTE_S / srttPs;
        return (long) Math.max(p.minRateBps(), Math.min(p.maxRateBps(), r));
    }

    @Override
    public long windowBytes() {
        return started ? Math.max(1L, (long) cwndBytes) : Long.MAX_VALUE;
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {}

    @Override
    public void onAck(long nowPs, AckFeedback ack) {
        learnMss(ack);
        long delay = ack.rttPs();
        if (delay < 0) {
            return;
        }
        retransmits = 0;
        if (p.hopDelayPs() > 0) {
            hops = ack.hops();
        }
        long rate = rateBps();
        long window = windowBytes();
        RateCause cause = RateCause.RTT_SAMPLE;
        if (!started) {
            started = true;
            srttPs = delay;
            cwndBytes = p.maxRateBps() * (double) delay / BITS_PS_PER_BYTE_S;
        }
        boolean canDecrease = nowPs - lastDecreasePs >= srttPs;
        srttPs += SRTT_GAIN * (delay - srttPs);
        double before = cwndBytes;
        double target = targetDelayPs(cwndBytes);
        boolean first = window == Long.MAX_VALUE;
        if (delay < target) {
            double acked = ack.newlyAckedBytes();
            double mss = mssBytes();
            cwndBytes += cwndBytes >= mss ? p.ai() * mss * acked / cwndBytes : p.ai() * acked;
            cause = first ? RateCause.RTT_SAMPLE : RateCause.DELAY_BELOW_TARGET;
        } else if (canDecrease) {
            cwndBytes *= Math.max(1 - p.beta() * (delay - target) / delay, 1 - p.maxMdf());
            cause = first ? RateCause.RTT_SAMPLE : RateCause.DELAY_ABOVE_TARGET;
        }
        applyLimits(nowPs, before);
        rates.report(nowPs, queuePair, rate, rateBps(), window, windowBytes(), cause, delay, 0);
    }

    /** base + hops x h + flow scaling {@code clamp(fsα/sqrt(cwnd/mss) + fsβ, 0, fs_range)}. */
    public double targetDelayPs(double cwnd) {
        double fs = 0;
        if (cwnd > 0) {
            fs = Math.max(0, Math.min(p.fsRangePs(), fsAlphaPs / Math.sqrt(cwnd / mssBytes()) + fsBetaPs));
        }
        return p.baseDelayPs() + (double) hops * p.hopDelayPs() + fs;
    }

    @Override
    public void onLoss(long nowPs) {
        if (!started) {
            return;
        }
        retransmits++;
        double before = cwndBytes;
        long rate = rateBps();
        long window = windowBytes();
        if (retransmits >= p.retransmitReset()) {
            cwndBytes = p.minCwndBytes();
        } else if (nowPs - lastDecreasePs >= srttPs) {
            cwndBytes *= 1 - p.maxMdf();
        }
        applyLimits(nowPs, before);
        rates.report(nowPs, queuePair, rate, rateBps(), window, windowBytes(), RateCause.LOSS, 0, retransmits);
    }

    private void applyLimits(long nowPs, double before) {
        cwndBytes = Math.max(p.minCwndBytes(), Math.min(p.maxCwndPackets() * mssBytes(), cwndBytes));
        if (cwndBytes < before) {
            lastDecreasePs = nowPs;
            cuts++;
        }
    }

    /** Payload per packet: bytes newly acknowledged per newly acknowledged PSN, the largest seen (full packets). */
    private void learnMss(AckFeedback ack) {
        long psn = ack.ackedPsn();
        long newly = ack.newlyAckedBytes();
        if (newly > 0 && psn > lastAckedPsn) {
            long perPacket = newly / (psn - lastAckedPsn);
            if (perPacket > learntMssBytes) {
                learntMssBytes = perPacket;
            }
            lastAckedPsn = psn;
        }
    }

    /** The configured MSS, else the learnt one, else a 1000-byte guess until the first ACK. */
    public long mssBytes() {
        if (p.mssBytes() > 0) {
            return p.mssBytes();
        }
        return learntMssBytes > 0 ? learntMssBytes : FALLBACK_MSS_BYTES;
    }

    @Override
    public long rateCuts() {
        return cuts;
    }

    @Override
    public String cutsCounted() {
        return "Swift window cuts: at most one per smoothed RTT on a delay above target, and one per loss";
    }

    /** The congestion window in payload bytes, unrounded (0 until the first ACK). */
    public double congestionWindowBytes() {
        return cwndBytes;
    }

    public double smoothedRttPs() {
        return srttPs;
    }

    public SwiftParameters parameters() {
        return p;
    }
}
