package rocelab.congestion.dctcp;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;

/**
 * DCTCP-style sender of one queue pair (RFC 8257 adapted to RoCE as in HPCC ns-3 {@code HandleAckDctcp}), window
 * based: per window of data (one RTT) it measures the fraction F of acknowledged bytes whose ACK echoed ECN and
 * updates {@code alpha <- (1 - g) alpha + g F}; the first echo outside a congestion-window-reduced (CWR) period
 * cuts the window by {@code alpha/2} and starts a CWR period that lasts until the data then in flight is acked;
 * a window that ends outside CWR grows the window by one additive step.
 *
 * <p>The RNIC paces the queue pair at {@code W / T} (T: the base RTT) so the window goes out smoothly instead of
 * in line-rate bursts. The window starts at one bandwidth-delay product: before the first ACK there is no window
 * (line rate for one RTT puts exactly B x T on the wire), the first RTT sample then sets {@code W = B x T}.
 */
public final class DctcpControl implements CongestionControl {
    private static final double BITS_PS_PER_BYTE_S = 8e12;

    private final DctcpParameters p;
    private long baseRttPs;
    private double windowBytes;
    private double alpha;
    private boolean started;
    private long ackedBytes;
    private long windowEndBytes;
    private long windowAckedBytes;
    private long windowMarkedBytes;
    private boolean cwr;
    private long cwrEndBytes;
    private long cuts;
    private final RateListener rates;
    private final int queuePair;
    private RateCause cause;

    public DctcpControl(DctcpParameters params) {
        this(params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate or window change of QP {@code queuePair} with its cause */
    public DctcpControl(DctcpParameters params, RateListener rates, int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.p = params;
        this.alpha = params.initialAlpha();
        this.baseRttPs = params.baseRttPs();
        if (baseRttPs > 0) {
            windowBytes = maxWindow();
        }
    }

    @Override
    public long rateBps() {
        if (baseRttPs == 0) {
            return p.maxRateBps();
        }
        double r = windowBytes * BITS_PS_PER_BYTE_S / baseRttPs;
        return (long) Math.max(p.minRateBps(), Math.min(p.maxRateBps(), r));
    }

    @Override
    public long windowBytes() {
        return baseRttPs == 0 ? Long.MAX_VALUE : Math.max(1L, (long) windowBytes);
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {}

    @Override
    public void onAck(long nowPs, AckFeedback ack) {
        long rate = rateBps();
        long window = windowBytes();
        cause = RateCause.RTT_SAMPLE;
        handleAck(ack);
        rates.report(nowPs, queuePair, rate, rateBps(), window, windowBytes(), cause,
                cause == RateCause.ECN_ECHO ? Math.round(alpha * 1e6) : cause == RateCause.RTT_SAMPLE ? ack.rttPs() : 0,
                0);
    }

    private void handleAck(AckFeedback ack) {
        long rtt = ack.rttPs();
        boolean setBySample = false;
        if (rtt > 0 && p.baseRttPs() == 0 && (baseRttPs == 0 || rtt < baseRttPs)) {
            boolean first = baseRttPs == 0;
            baseRttPs = rtt;
            if (first) {
                windowBytes = maxWindow();
                setBySample = true;
            }
        }
        if (baseRttPs == 0) {
            return;
        }
        long newly = ack.newlyAckedBytes();
        ackedBytes += newly;
        long sentBytes = ackedBytes + ack.unackedBytes();
        windowAckedBytes += newly;
        if (ack.ecnEcho()) {
            windowMarkedBytes += newly;
        }
        boolean windowEnded = false;
        if (!started) {
            started = true;
            windowEndBytes = sentBytes;
            windowEnded = true;
        } else if (ackedBytes > windowEndBytes) {
            double f = windowAckedBytes == 0 ? 0 : (double) windowMarkedBytes / windowAckedBytes;
            alpha = (1 - p.g()) * alpha + p.g() * f;
            windowAckedBytes = 0;
            windowMarkedBytes = 0;
            windowEndBytes = sentBytes;
            windowEnded = true;
        }
        react(ack.ecnEcho(), windowEnded, sentBytes);
        if (setBySample && cause == RateCause.WINDOW_GROWTH) {
            // The window is the one this ACK's first RTT sample set (a BDP), the growth step clamped to it: the journey
            // names the sample, not a window of data that has not been sent yet.
            cause = RateCause.RTT_SAMPLE;
        }
    }

    /** Cut once per CWR period on an echo, else grow once per window. */
    private void react(boolean echo, boolean windowEnded, long sentBytes) {
        if (cwr && ackedBytes > cwrEndBytes) {
            cwr = false;
        }
        if (echo && !cwr) {
            windowBytes *= 1 - alpha / 2;
            cwr = true;
            cwrEndBytes = sentBytes;
            cuts++;
            cause = RateCause.ECN_ECHO;
        } else if (!cwr && windowEnded) {
            windowBytes += p.aiRateBps() * (double) baseRttPs / BITS_PS_PER_BYTE_S;
            cause = RateCause.WINDOW_GROWTH;
        }
        windowBytes = Math.max(minWindow(), Math.min(maxWindow(), windowBytes));
    }

    private double maxWindow() {
        return p.maxRateBps() * (double) baseRttPs / BITS_PS_PER_BYTE_S;
    }

    private double minWindow() {
        return Math.max(1, p.minRateBps() * (double) baseRttPs / BITS_PS_PER_BYTE_S);
    }

    @Override
    public long rateCuts() {
        return cuts;
    }

    @Override
    public String cutsCounted() {
        return "DCTCP window cuts: at most one per window of data, on an ECN echo";
    }

    public double alpha() {
        return alpha;
    }

    /** The congestion window in payload bytes, unrounded (0 until T is known). */
    public double congestionWindowBytes() {
        return windowBytes;
    }

    /** T in picoseconds (0 until known). */
    public long baseRttPs() {
        return baseRttPs;
    }

    public boolean inCwr() {
        return cwr;
    }

    public DctcpParameters parameters() {
        return p;
    }
}
