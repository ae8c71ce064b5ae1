package rocelab.congestion.ibcc;

import java.util.Map;
import rocelab.congestion.CongestionAlgorithm.Unit;

/**
 * The source side of InfiniBand congestion control (IBA Annex A10), per QP: each BECN raises the index into the
 * congestion control table by {@code cctiIncrease} (up to {@code cctiLimit}); each expiry of the CCTI timer lowers
 * it by one (down to {@code cctiMin}). Entry i of the table is an injection delay of i x {@code cctStepPs} after
 * every packet (the table is linear here; the standard leaves its contents to the subnet manager, and OpenSM ships
 * none). Defaults are this simulator's, chosen for microsecond-scale fabrics: OpenSM configures none.
 */
public record IbCcParameters(int cctiIncrease, int cctiLimit, int cctiMin, long cctiTimerPs, long cctStepPs) {
    public static final Map<String, Unit> KEYS = Map.of(
            "ccti-increase", Unit.COUNT,
            "ccti-limit", Unit.COUNT,
            "ccti-min", Unit.COUNT,
            "ccti-timer", Unit.TIME,
            "cct-step", Unit.TIME);

    public IbCcParameters {
        if (cctiIncrease < 1) {
            throw new IllegalArgumentException("ccti-increase must be at least 1, got " + cctiIncrease);
        }
        if (cctiLimit < 0 || cctiLimit > 16_383) {
            throw new IllegalArgumentException("ccti-limit must be 0..16383 (a CCT has at most 16384 entries), got "
                    + cctiLimit);
        }
        if (cctiMin < 0 || cctiMin > cctiLimit) {
            throw new IllegalArgumentException("ccti-min must be 0..ccti-limit (" + cctiLimit + "), got " + cctiMin);
        }
        if (cctiTimerPs <= 0) {
            throw new IllegalArgumentException("ccti-timer must be positive");
        }
        if (cctStepPs <= 0) {
            throw new IllegalArgumentException("cct-step must be positive");
        }
    }

    /** Index +1 per BECN up to 127, -1 every 10 us, 100 ns of injection delay per index. */
    public static IbCcParameters defaults() {
        return new IbCcParameters(1, 127, 0, 10_000_000L, 100_000L);
    }

    static IbCcParameters resolve(Map<String, Double> o) {
        IbCcParameters d = defaults();
        return new IbCcParameters(
                (int) (double) o.getOrDefault("ccti-increase", (double) d.cctiIncrease()),
                (int) (double) o.getOrDefault("ccti-limit", (double) d.cctiLimit()),
                (int) (double) o.getOrDefault("ccti-min", (double) d.cctiMin()),
                (long) (double) o.getOrDefault("ccti-timer", (double) d.cctiTimerPs()),
                (long) (double) o.getOrDefault("cct-step", (double) d.cctStepPs()));
    }
}
