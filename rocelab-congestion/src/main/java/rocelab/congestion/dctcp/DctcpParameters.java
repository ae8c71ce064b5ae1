package rocelab.congestion.dctcp;

import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.CongestionAlgorithm.Unit;
import rocelab.congestion.Overrides;

/**
 * DCTCP-style parameters (RFC 8257; the RoCE adaptation of HPCC ns-3) resolved for one line rate. Times in
 * picoseconds, rates in bit/s.
 *
 * @param g gain of the marked-fraction EWMA
 * @param initialAlpha alpha before the first window closes
 * @param aiRateBps additive increase per window, expressed as a rate: the window grows by aiRate x T per RTT
 * @param baseRttPs the RTT T that converts window to rate; 0: the smallest RTT sample seen so far
 * @param minRateBps lowest pacing rate (the window never goes below minRate x T)
 * @param maxRateBps highest pacing rate (the line rate); the window never exceeds maxRate x T
 */
public record DctcpParameters(
        double g, double initialAlpha, long aiRateBps, long baseRttPs, long minRateBps, long maxRateBps) {

    /** Scenario keys and their units. */
    public static final Map<String, Unit> KEYS = Map.of(
            "g", Unit.FRACTION,
            "initial-alpha", Unit.FRACTION,
            "ai-rate", Unit.RATE,
            "base-rtt", Unit.TIME,
            "min-rate", Unit.RATE);

    private static final long MBPS = 1_000_000L;

    public DctcpParameters {
        Overrides.require(g > 0 && g <= 1, "g must be in (0, 1], got " + g);
        Overrides.require(initialAlpha >= 0 && initialAlpha <= 1, "initial-alpha must be in [0, 1], got " + initialAlpha);
        Overrides.require(aiRateBps > 0, "ai-rate must be positive");
        Overrides.require(baseRttPs >= 0, "base-rtt must not be negative");
        Overrides.require(maxRateBps > 0, "line rate must be positive");
        Overrides.require(minRateBps > 0 && minRateBps <= maxRateBps, "min-rate must be positive and at most the line rate");
    }

    /**
     * The reference defaults: g = 1/16 and alpha starting at 1 (Linux {@code dctcp_shift_g = 4}, RFC 8257), the
     * HPCC ns-3 DCTCP additive step of 615 Mb/s ("1 MTU per 13 us RTT"), T learnt from RTT samples, and the ns-3
     * run.py minimum rate of 1 Gb/s.
     */
    public static DctcpParameters defaults(long lineRateBps) {
        return new DctcpParameters(1.0 / 16, 1.0, 615 * MBPS, 0, Math.min(1000 * MBPS, lineRateBps), lineRateBps);
    }

    /** The defaults with a scenario's overrides (base units) applied; min-rate is capped at the line rate. */
    public static DctcpParameters resolve(Map<String, Double> overrides, long lineRateBps) {
        for (String key : overrides.keySet()) {
            Overrides.require(KEYS.containsKey(key), "unknown DCTCP parameter '" + key + "'; expected one of "
                    + new TreeSet<>(KEYS.keySet()));
        }
        DctcpParameters d = defaults(lineRateBps);
        return new DctcpParameters(
                Overrides.value(overrides, "g", d.g()),
                Overrides.value(overrides, "initial-alpha", d.initialAlpha()),
                Math.round(Overrides.value(overrides, "ai-rate", d.aiRateBps())),
                Math.round(Overrides.value(overrides, "base-rtt", d.baseRttPs())),
                Math.min(lineRateBps, Math.round(Overrides.value(overrides, "min-rate", d.minRateBps()))),
                lineRateBps);
    }


}
