package rocelab.congestion;

import java.util.Map;

/** Shared helpers of the parameter records: read a scenario override or keep the default; check a value. */
public final class Overrides {
    private Overrides() {}

    /** The override of {@code key} in base units, or {@code fallback} when the scenario does not set it. */
    public static double value(Map<String, Double> overrides, String key, double fallback) {
        Double v = overrides.get(key);
        return v == null ? fallback : v;
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code ok}. */
    public static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
