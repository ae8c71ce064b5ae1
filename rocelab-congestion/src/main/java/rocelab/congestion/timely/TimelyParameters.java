package rocelab.congestion.timely;

import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.CongestionAlgorithm.Unit;
import rocelab.congestion.Overrides;

/**
 * TIMELY parameters (Mittal et al., SIGCOMM 2015) resolved for one line rate. Times in picoseconds, rates in bit/s.
 *
 * @param tLowPs below this RTT the rate always increases (T_low)
 * @param tHighPs above this RTT the rate always decreases (T_high)
 * @param minRttPs normalises the RTT gradient (minRTT)
 * @param alpha EWMA weight of the newest RTT difference (α)
 * @param beta multiplicative decrease factor (β)
 * @param aiRateBps additive increase step (δ)
 * @param haiRateBps hyper-active increase step, used after {@code haiAfter} increases in a row
 * @param haiAfter consecutive increases before the hyper step (N)
 * @param minRateBps lowest sending rate
 * @param maxRateBps highest sending rate (the line rate, also the start rate)
 */
public record TimelyParameters(
        long tLowPs,
        long tHighPs,
        long minRttPs,
        double alpha,
        double beta,
        long aiRateBps,
        long haiRateBps,
        int haiAfter,
        long minRateBps,
        long maxRateBps) {

    /** Scenario keys and their units. */
    public static final Map<String, Unit> KEYS = Map.of(
            "t-low", Unit.TIME,
            "t-high", Unit.TIME,
            "min-rtt", Unit.TIME,
            "alpha", Unit.FRACTION,
            "beta", Unit.FRACTION,
            "ai-rate", Unit.RATE,
            "hai-rate", Unit.RATE,
            "hai-after", Unit.COUNT,
            "min-rate", Unit.RATE);

    private static final long US = 1_000_000L;
    private static final long MBPS = 1_000_000L;

    public TimelyParameters {
        Overrides.require(tLowPs > 0 && tLowPs < tHighPs, "t-low must be positive and below t-high");
        Overrides.require(minRttPs > 0, "min-rtt must be positive");
        Overrides.require(alpha > 0 && alpha <= 1, "alpha must be in (0, 1], got " + alpha);
        Overrides.require(beta > 0 && beta <= 1, "beta must be in (0, 1], got " + beta);
        Overrides.require(aiRateBps > 0, "ai-rate must be positive");
        Overrides.require(haiRateBps > 0, "hai-rate must be positive");
        Overrides.require(haiAfter >= 0, "hai-after must not be negative");
        Overrides.require(maxRateBps > 0, "line rate must be positive");
        Overrides.require(minRateBps > 0 && minRateBps <= maxRateBps, "min-rate must be positive and at most the line rate");
    }

    /**
     * The reference defaults: T_low 50 us, T_high 500 us, minRTT 20 us, β 0.8, α 0.875 (TIMELY fluid model), δ
     * 10 Mb/s per 10 Gb/s of line rate (the paper's 10 Mb/s at 10 Gb/s, scaled as HPCC ns-3 run.py does: 100 Mb/s
     * at 100 Gb/s), hyper step 5δ after N = 5 increases, and the ns-3 run.py minimum rate of 1 Gb/s.
     */
    public static TimelyParameters defaults(long lineRateBps) {
        long ai = Math.max(1, Math.round(lineRateBps / 1e10 * 10 * MBPS));
        return new TimelyParameters(50 * US, 500 * US, 20 * US, 0.875, 0.8, ai, 5 * ai, 5,
                Math.min(1000 * MBPS, lineRateBps), lineRateBps);
    }

    /** The defaults with a scenario's overrides (base units); hai-rate follows an overridden ai-rate (5x). */
    public static TimelyParameters resolve(Map<String, Double> overrides, long lineRateBps) {
        for (String key : overrides.keySet()) {
            Overrides.require(KEYS.containsKey(key), "unknown TIMELY parameter '" + key + "'; expected one of "
                    + new TreeSet<>(KEYS.keySet()));
        }
        TimelyParameters d = defaults(lineRateBps);
        long ai = Math.round(Overrides.value(overrides, "ai-rate", d.aiRateBps()));
        return new TimelyParameters(
                Math.round(Overrides.value(overrides, "t-low", d.tLowPs())),
                Math.round(Overrides.value(overrides, "t-high", d.tHighPs())),
                Math.round(Overrides.value(overrides, "min-rtt", d.minRttPs())),
                Overrides.value(overrides, "alpha", d.alpha()),
                Overrides.value(overrides, "beta", d.beta()),
                ai,
                Math.round(Overrides.value(overrides, "hai-rate", 5.0 * ai)),
                (int) Math.round(Overrides.value(overrides, "hai-after", d.haiAfter())),
                Math.min(lineRateBps, Math.round(Overrides.value(overrides, "min-rate", d.minRateBps()))),
                lineRateBps);
    }


}
