package rocelab.congestion.swift;

import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.CongestionAlgorithm.Unit;
import rocelab.congestion.Overrides;

/**
 * Swift parameters (Kumar et al., SIGCOMM 2020, with the constants of Broadcom/csg-htsim {@code swift.cpp})
 * resolved for one line rate. Times in picoseconds, rates in bit/s, sizes in bytes; "packets" are MSS units.
 *
 * @param baseDelayPs base target delay
 * @param hopDelayPs target added per switch hop (h); 0: no per-hop scaling and no telemetry requested
 * @param fsRangePs largest flow-scaling addition to the target
 * @param fsMinCwnd window (packets) at which flow scaling adds the full range
 * @param fsMaxCwnd window (packets) at which flow scaling adds nothing
 * @param ai additive increase, packets per window of acknowledged data
 * @param beta multiplicative decrease gain
 * @param maxMdf largest fraction one decrease removes
 * @param minCwndBytes smallest window
 * @param maxCwndPackets largest window, in packets
 * @param retransmitReset consecutive losses without an ACK after which the window drops to the minimum
 * @param mssBytes payload bytes per packet; 0: learnt from the ACKs (bytes acknowledged per PSN)
 * @param minRateBps lowest pacing rate while the window is below one packet
 * @param maxRateBps the line rate
 */
public record SwiftParameters(
        long baseDelayPs,
        long hopDelayPs,
        long fsRangePs,
        double fsMinCwnd,
        double fsMaxCwnd,
        double ai,
        double beta,
        double maxMdf,
        long minCwndBytes,
        double maxCwndPackets,
        int retransmitReset,
        long mssBytes,
        long minRateBps,
        long maxRateBps) {

    /** Scenario keys and their units. */
    public static final Map<String, Unit> KEYS = Map.ofEntries(
            Map.entry("base-delay", Unit.TIME),
            Map.entry("hop-delay", Unit.TIME),
            Map.entry("fs-range", Unit.TIME),
            Map.entry("fs-min-cwnd", Unit.NUMBER),
            Map.entry("fs-max-cwnd", Unit.NUMBER),
            Map.entry("ai", Unit.NUMBER),
            Map.entry("beta", Unit.FRACTION),
            Map.entry("max-mdf", Unit.FRACTION),
            Map.entry("min-cwnd", Unit.SIZE),
            Map.entry("max-cwnd", Unit.NUMBER),
            Map.entry("retransmit-reset", Unit.COUNT),
            Map.entry("mss", Unit.SIZE),
            Map.entry("min-rate", Unit.RATE));

    private static final long US = 1_000_000L;
    private static final long MBPS = 1_000_000L;
    /** htsim's path-length scaling: h = base delay / 6.55. */
    private static final double HOP_DIVISOR = 6.55;
    /** htsim's flow-scaling range: 5 x base delay. */
    private static final int FS_RANGE_FACTOR = 5;

    public SwiftParameters {
        Overrides.require(baseDelayPs > 0, "base-delay must be positive");
        Overrides.require(hopDelayPs >= 0, "hop-delay must not be negative");
        Overrides.require(fsRangePs >= 0, "fs-range must not be negative");
        Overrides.require(fsMinCwnd > 0 && fsMinCwnd < fsMaxCwnd, "fs-min-cwnd must be positive and below fs-max-cwnd");
        Overrides.require(ai > 0, "ai must be positive");
        Overrides.require(beta > 0 && beta <= 1, "beta must be in (0, 1]");
        Overrides.require(maxMdf > 0 && maxMdf < 1, "max-mdf must be in (0, 1)");
        Overrides.require(minCwndBytes >= 1, "min-cwnd must be at least 1 byte");
        Overrides.require(maxCwndPackets > 0, "max-cwnd must be positive");
        Overrides.require(retransmitReset >= 1, "retransmit-reset must be at least 1");
        Overrides.require(mssBytes >= 0, "mss must not be negative");
        Overrides.require(maxRateBps > 0, "line rate must be positive");
        Overrides.require(minRateBps > 0 && minRateBps <= maxRateBps, "min-rate must be positive and at most the line rate");
    }

    /**
     * The htsim defaults (marked there as guesses): base delay 20 us, h = base/6.55, fs_range = 5 x base,
     * fs_min_cwnd 0.1 and fs_max_cwnd 100 packets, ai 1, β 0.8, max_mdf 0.5, cwnd in [10 B, 1000 packets],
     * window to the minimum after 5 retransmissions; MSS learnt; pacing floor 1 Mb/s (our choice: NVIDIA's
     * rpg_min_rate, the slowest a RoCE rate limiter is configured to go).
     */
    public static SwiftParameters defaults(long lineRateBps) {
        long base = 20 * US;
        return new SwiftParameters(base, Math.round(base / HOP_DIVISOR), FS_RANGE_FACTOR * base, 0.1, 100, 1.0, 0.8,
                0.5, 10, 1000, 5, 0, Math.min(MBPS, lineRateBps), lineRateBps);
    }

    /** The defaults with a scenario's overrides (base units); h and fs-range follow an overridden base delay. */
    public static SwiftParameters resolve(Map<String, Double> overrides, long lineRateBps) {
        for (String key : overrides.keySet()) {
            Overrides.require(KEYS.containsKey(key), "unknown Swift parameter '" + key + "'; expected one of "
                    + new TreeSet<>(KEYS.keySet()));
        }
        SwiftParameters d = defaults(lineRateBps);
        long base = Math.round(Overrides.value(overrides, "base-delay", d.baseDelayPs()));
        return new SwiftParameters(
                base,
                Math.round(Overrides.value(overrides, "hop-delay", base / HOP_DIVISOR)),
                Math.round(Overrides.value(overrides, "fs-range", (double) FS_RANGE_FACTOR * base)),
                Overrides.value(overrides, "fs-min-cwnd", d.fsMinCwnd()),
                Overrides.value(overrides, "fs-max-cwnd", d.fsMaxCwnd()),
                Overrides.value(overrides, "ai", d.ai()),
                Overrides.value(overrides, "beta", d.beta()),
                Overrides.value(overrides, "max-mdf", d.maxMdf()),
                Math.round(Overrides.value(overrides, "min-cwnd", d.minCwndBytes())),
                Overrides.value(overrides, "max-cwnd", d.maxCwndPackets()),
                (int) Math.round(Overrides.value(overrides, "retransmit-reset", d.retransmitReset())),
                Math.round(Overrides.value(overrides, "mss", d.mssBytes())),
                Math.min(lineRateBps, Math.round(Overrides.value(overrides, "min-rate", d.minRateBps()))),
                lineRateBps);
    }


}
