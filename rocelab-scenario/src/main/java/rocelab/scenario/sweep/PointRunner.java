package rocelab.scenario.sweep;

import java.nio.file.Path;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Runs one sweep point on the calling thread: reads its resolved scenario and simulates it. Points share nothing
 * (each has its own simulator, network, random streams and packet pool), so any number run at once on different
 * threads or machines.
 */
public final class PointRunner {
    private PointRunner() {}

    /** The point's scenario, read as the sweep validated it. */
    public static ScenarioConfig config(SweepPoint point) throws ScenarioException {
        return new ScenarioReader().read(point.scenarioYaml(), "scenario.yaml",
                point.baseDir() == null ? null : Path.of(point.baseDir()));
    }

    /**
     * Simulates a point's scenario with the sweep's model, on one thread: a sweep already runs one point per core
     * ({@code --jobs}), so splitting each point as {@code run --threads auto} does would only oversubscribe them.
     */
    public static RunResult run(ScenarioConfig config, String model) {
        Simulation.Model m = Simulation.Model.byKey(model)
                .orElseThrow(() -> new IllegalArgumentException("unknown model " + model));
        return Simulation.assemble(config, m).run(ProgressListener.NONE);
    }

    /** Runs a point and keeps only its summary.json (what a remote task sends back), or its error. */
    public static PointOutcome outcome(SweepPoint point, String model) {
        try {
            return PointOutcome.completed(point.id(), RunWriter.summaryJson(
                    run(config(point), model)));
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return PointOutcome.failed(point.id(), reason(e));
        }
    }

    /** A one-line reason for a failure, without a stack trace. */
    public static String reason(Throwable e) {
        String m = e instanceof ScenarioException ? e.getMessage() : e.toString();
        return m == null ? e.getClass().getSimpleName() : m.replace('\n', ' ').replace('\r', ' ');
    }
}
