package rocelab.congestion.dcqcn;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A scenario's DCQCN choice: a profile plus explicit overrides, resolved per RNIC line rate when a QP is created.
 * Override values are in base units: picoseconds for periods, bit/s for rates, bytes for the byte counter,
 * 0 or 1 for flags.
 */
public record DcqcnSettings(DcqcnProfile profile, Map<String, Double> overrides) {
    /** Override keys and what unit their value has. */
    public static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry("g", "fraction"),
            Map.entry("initial-alpha", "fraction"),
            Map.entry("alpha-period", "time"),
            Map.entry("decrease-period", "time"),
            Map.entry("increase-timer", "time"),
            Map.entry("byte-counter", "size"),
            Map.entry("fast-recovery", "count"),
            Map.entry("ai-rate", "rate"),
            Map.entry("hai-rate", "rate"),
            Map.entry("min-rate", "rate"),
            Map.entry("max-cut", "fraction"),
            Map.entry("clamp-target-rate", "flag"),
            Map.entry("clamp-after-timer-increase", "flag"),
            Map.entry("first-cnp-rate", "rate"),
            Map.entry("cnp-interval", "time"),
            Map.entry("cnp-on-ack", "flag"),
            Map.entry("cnp-per-port", "flag"));

    /** The default profile: the firmware of the NICs people deploy. */
    public static final DcqcnProfile DEFAULT_PROFILE = DcqcnProfile.NVIDIA;

    public DcqcnSettings {
        // Sorted, not Map.copyOf: its iteration order changes from one JVM to the next, and toString() is hashed
        // into the manifest.
        overrides = Collections.unmodifiableSortedMap(new TreeMap<>(overrides));
        Set<String> unknown = new TreeSet<>(overrides.keySet());
        unknown.removeAll(KEYS.keySet());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown DCQCN parameters " + unknown);
        }
    }

    public static DcqcnSettings of(DcqcnProfile profile) {
        return new DcqcnSettings(profile, Map.of());
    }

    public DcqcnParameters resolve(long lineRateBps) {
        DcqcnParameters d = DcqcnParameters.of(profile, lineRateBps);
        return new DcqcnParameters(profile,
                dbl("g", d.g()),
                dbl("initial-alpha", d.initialAlpha()),
                lng("alpha-period", d.alphaPeriodPs()),
                lng("decrease-period", d.decreasePeriodPs()),
                lng("increase-timer", d.increaseTimerPs()),
                lng("byte-counter", d.byteCounterBytes()),
                (int) lng("fast-recovery", d.fastRecoverySteps()),
                lng("ai-rate", d.aiRateBps()),
                lng("hai-rate", d.haiRateBps()),
                lng("min-rate", d.minRateBps()),
                d.maxRateBps(),
                dbl("max-cut", d.maxCutFraction()),
                flag("clamp-target-rate", d.clampTargetRate()),
                flag("clamp-after-timer-increase", d.clampAfterTimerIncrease()),
                lng("first-cnp-rate", d.firstCnpRateBps()),
                lng("cnp-interval", d.cnpIntervalPs()),
                flag("cnp-on-ack", d.cnpOnAck()),
                flag("cnp-per-port", d.cnpIntervalPerPort()));
    }

    private double dbl(String key, double fallback) {
        Double v = overrides.get(key);
        return v == null ? fallback : v;
    }

    private long lng(String key, long fallback) {
        Double v = overrides.get(key);
        return v == null ? fallback : Math.round(v);
    }

    private boolean flag(String key, boolean fallback) {
        Double v = overrides.get(key);
        return v == null ? fallback : v != 0;
    }
}
