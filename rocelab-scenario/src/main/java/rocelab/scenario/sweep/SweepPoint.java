package rocelab.scenario.sweep;

import java.io.Serializable;
import java.util.List;

/**
 * One run of a sweep: a combination of the varied values and one seed, resolved into a complete scenario. It is plain
 * data (serializable), so it can be shipped to another thread or to a Spark executor and run there alone.
 *
 * @param id the first 12 hex digits of the resolved scenario's SHA-256 with its seed (manifest.json's
 *     {@code scenario_sha256}); names the point's folder
 * @param values the varied keys' values as written in the sweep file, in the sweep's key order
 * @param seed the run's seed
 * @param scenarioYaml the resolved scenario as YAML text (the base scenario with the values and the seed set)
 * @param baseDir the folder relative file names in the scenario resolve against, or null (a built-in example)
 */
public record SweepPoint(String id, List<String> values, long seed, String scenarioYaml, String baseDir)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Length of a point id in hex digits. */
    public static final int ID_LENGTH = 12;

    public SweepPoint {
        values = List.copyOf(values);
    }
}
