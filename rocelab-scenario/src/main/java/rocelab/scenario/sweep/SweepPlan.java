package rocelab.scenario.sweep;

import java.util.List;

/**
 * A read and validated sweep: every point's scenario already resolved, so nothing can fail for bad input once the
 * first point runs.
 *
 * @param sweepFile the sweep file as the user named it
 * @param baseScenario the base scenario as shown in messages (a path, or an example's name)
 * @param keys the varied key paths, in the sweep file's order (the results' first columns)
 * @param values each key's values as written in the sweep file, in its order (whether or not a point has them: a
 *     random sample or a failed point can leave some out, and the charts still set them along x in this order)
 * @param combine how the values were combined: grid, zip or random
 * @param model the model every point runs: packet, flow or ideal
 * @param metrics the metric selectors (exact names or prefixes of the flattened summary.json); empty: every number
 * @param points the runs in result order: each combination of values (grid order: the last key varies fastest), and
 *     within it each seed
 */
public record SweepPlan(String sweepFile, String baseScenario, List<String> keys, List<List<String>> values,
        String combine, String model, List<String> metrics, List<SweepPoint> points) {
    public SweepPlan {
        keys = List.copyOf(keys);
        values = values.stream().map(List::copyOf).toList();
        if (values.size() != keys.size()) {
            throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " lists of values");
        }
        metrics = List.copyOf(metrics);
        points = List.copyOf(points);
    }
}
