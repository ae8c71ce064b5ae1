package rocelab.congestion.dcqcn;

import java.util.Map;
import java.util.TreeMap;
import rocelab.congestion.Overrides;

/**
 * Every DCQCN parameter, resolved for one line rate. Times in picoseconds, rates in bit/s, bytes in bytes.
 *
 * @param profile the algorithm variant
 * @param g alpha EWMA gain
 * @param initialAlpha alpha set by the first CNP of a flow
 * @param alphaPeriodPs alpha update period (paper: after the last CNP; others: periodic from the first CNP)
 * @param decreasePeriodPs rate cuts happen at most once per period (0: immediately on each CNP, the paper)
 * @param increaseTimerPs rate-increase timer T
 * @param byteCounterBytes rate-increase byte counter B (0: no byte counter)
 * @param fastRecoverySteps F, increase events before leaving fast recovery
 * @param aiRateBps additive increase step
 * @param haiRateBps hyper increase step
 * @param minRateBps lowest rate a cut may reach
 * @param maxRateBps highest rate (the line rate)
 * @param maxCutFraction largest fraction of the rate one cut removes (NVIDIA rpg_min_dec_fac 50 %: 0.5)
 * @param clampTargetRate always remember the current rate as target on a cut
 * @param clampAfterTimerIncrease remember it if a timer increase happened since the last cut (NVIDIA)
 * @param firstCnpRateBps rate set by the first CNP of a flow instead of a cut (0: off)
 * @param cnpIntervalPs the notification point sends at most one CNP per QP per interval
 * @param cnpOnAck notifications ride on ACKs instead of CNP frames (the HPCC ns-3 model)
 * @param cnpIntervalPerPort the CNP interval holds for the receiving port across its QPs (ConnectX
 *     min_time_between_cnps), not per QP
 */
public record DcqcnParameters(
        DcqcnProfile profile,
        double g,
        double initialAlpha,
        long alphaPeriodPs,
        long decreasePeriodPs,
        long increaseTimerPs,
        long byteCounterBytes,
        int fastRecoverySteps,
        long aiRateBps,
        long haiRateBps,
        long minRateBps,
        long maxRateBps,
        double maxCutFraction,
        boolean clampTargetRate,
        boolean clampAfterTimerIncrease,
        long firstCnpRateBps,
        long cnpIntervalPs,
        boolean cnpOnAck,
        boolean cnpIntervalPerPort) {

    private static final long US = 1_000_000L;
    private static final long MBPS = 1_000_000L;

    public DcqcnParameters {
        Overrides.require(g > 0 && g < 1, "g must be in (0, 1), 0 and 1 excluded");
        Overrides.require(initialAlpha >= 0 && initialAlpha <= 1, "initial alpha must be in [0, 1]");
        Overrides.require(alphaPeriodPs > 0, "alpha period must be positive");
        Overrides.require(decreasePeriodPs >= 0, "decrease period must not be negative");
        Overrides.require(increaseTimerPs > 0, "increase timer must be positive");
        Overrides.require(byteCounterBytes >= 0, "byte counter must not be negative");
        Overrides.require(fastRecoverySteps >= 0, "fast recovery steps must not be negative");
        Overrides.require(minRateBps > 0 && minRateBps <= maxRateBps, "min rate must be positive and at most the line rate");
        Overrides.require(maxCutFraction > 0 && maxCutFraction <= 1, "max cut must be in (0, 1]");
        Overrides.require(cnpIntervalPs >= 0, "CNP interval must not be negative");
    }

    /** With the CNP interval per QP. */
    public DcqcnParameters(DcqcnProfile profile, double g, double initialAlpha, long alphaPeriodPs,
            long decreasePeriodPs, long increaseTimerPs, long byteCounterBytes, int fastRecoverySteps, long aiRateBps,
            long haiRateBps, long minRateBps, long maxRateBps, double maxCutFraction, boolean clampTargetRate,
            boolean clampAfterTimerIncrease, long firstCnpRateBps, long cnpIntervalPs, boolean cnpOnAck) {
        this(profile, g, initialAlpha, alphaPeriodPs, decreasePeriodPs, increaseTimerPs, byteCounterBytes,
                fastRecoverySteps, aiRateBps, haiRateBps, minRateBps, maxRateBps, maxCutFraction, clampTargetRate,
                clampAfterTimerIncrease, firstCnpRateBps, cnpIntervalPs, cnpOnAck, false);
    }


    /** The profile's defaults at a line rate. */
    public static DcqcnParameters of(DcqcnProfile profile, long lineRateBps) {
        switch (profile) {
            case PAPER:
                // Fluid model and original ns-3 (40 Gb/s testbed): g 1/256, K = T = 55 us, B = 10 MB, F = 5,
                // R_AI 40 Mb/s, R_HAI 200 Mb/s (ns3-rdma sample config), R_min 100 Mb/s, CNP every 50 us.
                return new DcqcnParameters(profile, 1.0 / 256, 1.0, 55 * US, 0, 55 * US, 10_000_000L, 5,
                        40 * MBPS, 200 * MBPS, 100 * MBPS, lineRateBps, 1.0, true, false, 0, 50 * US, false);
            case NVIDIA:
                // ConnectX firmware defaults (sources per value in docs/congestion-control.md): dce_tcp_g 1019/1024
                // (gain 5/1024), dce_tcp_rtt 1 us, rate_reduce_monitor_period 4 us, rpg_time_reset 300 us,
                // rpg_byte_reset 32767 x 64 B, rpg_threshold 1, rpg_ai_rate 5 Mb/s, rpg_hai_rate 50 Mb/s,
                // rpg_min_rate 1 Mb/s, rpg_min_dec_fac 50 %, clamp_tgt_rate 0, clamp_tgt_rate_after_time_inc 1,
                // initial alpha 1023/1024, min_time_between_cnps 4 us "between sending CNPs from the port".
                return new DcqcnParameters(profile, 5.0 / 1024, 1023.0 / 1024, US, 4 * US, 300 * US, 32767L * 64, 1,
                        5 * MBPS, 50 * MBPS, Math.min(MBPS, lineRateBps), lineRateBps, 0.5, false, true, 0, 4 * US,
                        false, true);
            default:
                // HPCC ns-3 run.py (the HPCC paper runs, and the benchmark reference): alpha every 1 us, g 1/256,
                // cut at most every 4 us, RP timer 300 us, F = 1, AI 5 x bw/25 Mb/s, HAI 50 x bw/25 Mb/s (20 and
                // 200 Mb/s at 100 Gb/s), min rate 1 Gb/s, no byte counter, CNP flag on every ACK of a marked packet.
                double gbps = lineRateBps / 1e9;
                return new DcqcnParameters(profile, 1.0 / 256, 1.0, US, 4 * US, 300 * US, 0, 1,
                        Math.round(5 * gbps / 25 * MBPS), Math.round(50 * gbps / 25 * MBPS),
                        Math.min(1000 * MBPS, lineRateBps), lineRateBps, 1.0, false, false, 0, 0, true);
        }
    }

    /** The parameter names a scenario may override, with this record's values (for docs and the manifest). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new TreeMap<>();
        m.put("profile", profile.key());
        m.put("g", g);
        m.put("initial-alpha", initialAlpha);
        m.put("alpha-period-ps", alphaPeriodPs);
        m.put("decrease-period-ps", decreasePeriodPs);
        m.put("increase-timer-ps", increaseTimerPs);
        m.put("byte-counter-bytes", byteCounterBytes);
        m.put("fast-recovery-steps", fastRecoverySteps);
        m.put("ai-rate-bps", aiRateBps);
        m.put("hai-rate-bps", haiRateBps);
        m.put("min-rate-bps", minRateBps);
        m.put("max-cut", maxCutFraction);
        m.put("clamp-target-rate", clampTargetRate);
        m.put("clamp-after-timer-increase", clampAfterTimerIncrease);
        m.put("first-cnp-rate-bps", firstCnpRateBps);
        m.put("cnp-interval-ps", cnpIntervalPs);
        m.put("cnp-on-ack", cnpOnAck);
        m.put("cnp-per-port", cnpIntervalPerPort);
        return m;
    }
}
