package rocelab.congestion.hpcc;

import java.util.Map;
import java.util.TreeSet;
import rocelab.congestion.CongestionAlgorithm.Unit;
import rocelab.congestion.Overrides;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;

/**
 * HPCC parameters (Li et al., SIGCOMM 2019) resolved for one line rate. Times in picoseconds, rates in bit/s.
 *
 * @param eta target utilisation (η)
 * @param maxStage additive-increase rounds before a multiplicative step is forced (maxStage)
 * @param aiRateBps the additive increase W_AI expressed as a rate: W_AI = aiRate x T
 * @param baseRttPs the base RTT T; 0: the smallest RTT sample the queue pair has seen so far
 * @param minRateBps lowest sending rate
 * @param maxRateBps highest sending rate (the line rate); also the start rate, so W_init = B x T
 * @param intHops hop records the INT header has room for: every data packet and every ACK carries
 *     {@link FrameFormat#intHeaderBytes} of them (5: 42 bytes, the HPCC ns-3 {@code IntHeader::maxHop}); 0: the
 *     telemetry takes no bytes on the wire
 */
public record HpccParameters(
        double eta, int maxStage, long aiRateBps, long baseRttPs, long minRateBps, long maxRateBps, int intHops) {

    /** The HPCC ns-3 INT header's room ({@code IntHeader::maxHop}): 5 hops, 42 bytes. */
    public static final int NS3_INT_HOPS = 5;

    /** Scenario keys and their units. */
    public static final Map<String, Unit> KEYS = Map.of(
            "eta", Unit.FRACTION,
            "max-stage", Unit.COUNT,
            "ai-rate", Unit.RATE,
            "base-rtt", Unit.TIME,
            "min-rate", Unit.RATE,
            "int-hops", Unit.COUNT);

    private static final long MBPS = 1_000_000L;

    public HpccParameters {
        Overrides.require(eta > 0 && eta <= 1, "eta must be in (0, 1], got " + eta);
        Overrides.require(maxStage >= 0, "max-stage must not be negative, got " + maxStage);
        Overrides.require(aiRateBps > 0, "ai-rate must be positive, got " + aiRateBps);
        Overrides.require(baseRttPs >= 0, "base-rtt must not be negative, got " + baseRttPs);
        Overrides.require(maxRateBps > 0, "line rate must be positive");
        Overrides.require(minRateBps > 0 && minRateBps <= maxRateBps, "min-rate must be positive and at most the line rate");
        Overrides.require(intHops >= 0 && intHops <= Packet.MAX_TELEMETRY_HOPS, "int-hops must be 0 to "
                + Packet.MAX_TELEMETRY_HOPS + " (the hops a packet records), got " + intHops);
    }

    /** The {@code int-hops} of a scenario's overrides, or the ns-3 header's 5 (at any line rate). */
    public static int intHops(Map<String, Double> overrides) {
        return (int) Math.round(Overrides.value(overrides, "int-hops", NS3_INT_HOPS));
    }

    /** Bytes of the INT header on every data packet and ACK of the QP (0 with {@code int-hops: 0}). */
    public int intHeaderBytes() {
        return FrameFormat.intHeaderBytes(intHops);
    }

    /**
     * The reference defaults at a line rate: η 0.95 and maxStage 5 (htsim and the HPCC ns-3 attribute default),
     * W_AI as the HPCC ns-3 run.py rate 10 x bw/25 Mb/s (40 Mb/s at 100 Gb/s), T learnt from the RTT samples,
     * the ns-3 run.py minimum rate of 1 Gb/s, and the ns-3 INT header (room for 5 hops, 42 bytes).
     */
    public static HpccParameters defaults(long lineRateBps) {
        long ai = Math.max(1, Math.round(lineRateBps / 1e9 * 10 / 25 * MBPS));
        return new HpccParameters(0.95, 5, ai, 0, Math.min(1000 * MBPS, lineRateBps), lineRateBps, NS3_INT_HOPS);
    }

    /** The defaults with a scenario's overrides (base units) applied; min-rate is capped at the line rate. */
    public static HpccParameters resolve(Map<String, Double> overrides, long lineRateBps) {
        for (String key : overrides.keySet()) {
            Overrides.require(KEYS.containsKey(key), "unknown HPCC parameter '" + key + "'; expected one of "
                    + new TreeSet<>(KEYS.keySet()));
        }
        HpccParameters d = defaults(lineRateBps);
        return new HpccParameters(
                Overrides.value(overrides, "eta", d.eta()),
                (int) Math.round(Overrides.value(overrides, "max-stage", d.maxStage())),
                Math.round(Overrides.value(overrides, "ai-rate", d.aiRateBps())),
                Math.round(Overrides.value(overrides, "base-rtt", d.baseRttPs())),
                Math.min(lineRateBps, Math.round(Overrides.value(overrides, "min-rate", d.minRateBps()))),
                lineRateBps,
                intHops(overrides));
    }


}
