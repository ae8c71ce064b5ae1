package rocelab.congestion;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scenario's congestion-control choice: the algorithm's name, its profile (null: the algorithm's default) and
 * explicit parameter overrides in base units (picoseconds, bit/s, bytes, plain numbers; flags as 0 or 1).
 */
public record CcSettings(String name, String profile, Map<String, Double> overrides) {
    public CcSettings {
        // Sorted, not Map.copyOf: its iteration order changes from one JVM to the next, and toString() is hashed
        // into the manifest.
        overrides = Collections.unmodifiableSortedMap(new TreeMap<>(overrides));
    }

    public static CcSettings of(String name) {
        return new CcSettings(name, null, Map.of());
    }

    /**
     * The text a record's generated toString() gives (name[component=value, ...], the scenario hash's input), written
     * out: the generated one is bootstrapped through method handles the first time it runs, tens of milliseconds of
     * a short run's start-up (RecordTextTest checks the two agree).
     */
    @Override
    public String toString() {
        return "CcSettings[" + "name=" + name + ", profile=" + profile + ", overrides=" + overrides + "]";
    }
}
