package rocelab.scenario.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import rocelab.observe.RunResult;
import rocelab.observe.output.IoProblem;
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

    /**
     * A one-line reason for a failure, without a stack trace: a scenario's message as it is; a file's problem in
     * words (the file and why); anything else is a fault of the simulator, named as such with Java's text.
     */
    public static String reason(Throwable e) {
        Throwable t = e instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : e;
        String m;
        if (t instanceof ScenarioException) {
            m = t.getMessage();
        } else if (t instanceof IOException io) {
            String file = io instanceof FileSystemException f ? f.getFile() : null;
            m = "cannot read or write " + (file == null ? "a file" : file) + ": " + IoProblem.cause(io);
        } else if (t instanceof OutOfMemoryError) {
            m = "the simulation ran out of memory (give the JVM more with ROCELAB_JAVA_OPTS=-Xmx..., or run fewer"
                    + " points at once with --jobs)";
        } else if (t instanceof StackOverflowError) {
            m = "internal error: the simulation overflowed its thread's stack";
        } else {
            m = "internal error: " + t;
        }
        return m == null ? t.getClass().getSimpleName() : m.replace('\n', ' ').replace('\r', ' ');
    }
}
