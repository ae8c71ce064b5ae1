package rocelab.congestion.timely;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;

/**
 * TIMELY sender of one queue pair (Mittal et al., SIGCOMM 2015, as in the HPCC ns-3 {@code UpdateRateTimely}):
 * a rate-based control driven by the RTT and its gradient. Once per RTT (when an ACK covers data sent after the
 * previous update) it smooths the RTT difference, normalises it by minRTT, and increases the rate by δ (5δ after
 * N increases in a row) when the RTT is below T_low or falling, or cuts it by {@code β(1 - T_high/rtt)} above
 * T_high and by {@code β·gradient} when the RTT is rising. It keeps no window and no timers, and starts at line
 * rate (as HPCC ns-3 does; the paper starts new flows at C/(N+1), which the sender cannot know).
 */
public final class TimelyControl implements CongestionControl {
    private final TimelyParameters p;
    private double rateBps;
    private long lastRttPs;
    private double rttDiffPs;
    private int incStage;
    private boolean started;
    private long ackedBytes;
    private long lastUpdateBytes;
    private long cuts;
    private final RateListener rates;
    private final int queuePair;

    public TimelyControl(TimelyParameters params) {
        this(params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate change of QP {@code queuePair} with its cause */
    public TimelyControl(TimelyParameters params, RateListener rates, int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.p = params;
        this.rateBps = params.maxRateBps();
    }

    @Override
    public long rateBps() {
        return (long) rateBps;
    }

    @Override
    public long windowBytes() {
        return Long.MAX_VALUE;
    }

    @Override
    public boolean windowed() {
        return false;
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {}

    @Override
    public void onAck(long nowPs, AckFeedback ack) {
        ackedBytes += ack.newlyAckedBytes();
        long rtt = ack.rttPs();
        if (rtt < 0) {
            return;
        }
        long sentBytes = ackedBytes + ack.unackedBytes();
        if (!started) {
            started = true;
            lastUpdateBytes = sentBytes;
            lastRttPs = rtt;
            return;
        }
        if (ackedBytes <= lastUpdateBytes) {
            return;
        }
        long before = rateBps();
        RateCause cause = update(rtt);
        rates.report(nowPs, queuePair, before, rateBps(), Long.MAX_VALUE, Long.MAX_VALUE, cause,
                cause == RateCause.RTT_LOW || cause == RateCause.RTT_HIGH ? rtt : Math.round(rttDiffPs / p.minRttPs() * 1e6),
                incStage);
        lastUpdateBytes = sentBytes;
        lastRttPs = rtt;
    }

    /** The per-RTT TIMELY rule on one RTT sample; returns which branch of it acted. */
    private RateCause update(long rtt) {
        long newRttDiff = rtt - lastRttPs;
        rttDiffPs = (1 - p.alpha()) * rttDiffPs + p.alpha() * newRttDiff;
        double gradient = rttDiffPs / p.minRttPs();
        if (rtt < p.tLowPs()) {
            increase();
            return RateCause.RTT_LOW;
        } else if (rtt > p.tHighPs()) {
            decrease(1 - p.beta() * (1 - (double) p.tHighPs() / rtt));
            return RateCause.RTT_HIGH;
        } else if (gradient <= 0) {
            increase();
            return RateCause.RTT_GRADIENT_FALLING;
        } else {
            decrease(Math.max(0, 1 - p.beta() * gradient));
            return RateCause.RTT_GRADIENT_RISING;
        }
    }

    private void increase() {
        rateBps = Math.min(p.maxRateBps(), rateBps + (incStage < p.haiAfter() ? p.aiRateBps() : p.haiRateBps()));
        incStage++;
    }

    private void decrease(double factor) {
        double before = rateBps;
        rateBps = Math.max(p.minRateBps(), rateBps * factor);
        incStage = 0;
        if (rateBps < before) {
            cuts++;
        }
    }

    @Override
    public long rateCuts() {
        return cuts;
    }

    @Override
    public String cutsCounted() {
        return "TIMELY rate cuts: rate updates (at most one per window of data acknowledged) that lowered the rate";
    }

    /** The smoothed RTT difference in picoseconds. */
    public double rttDiffPs() {
        return rttDiffPs;
    }

    /** Increases in a row since the last decrease. */
    public int incStage() {
        return incStage;
    }

    public TimelyParameters parameters() {
        return p;
    }
}
