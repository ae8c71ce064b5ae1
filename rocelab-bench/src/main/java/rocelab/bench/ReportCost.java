package rocelab.bench;

import java.nio.file.Path;
import java.util.Map;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

/**
 * What building report.html costs against the run it reports on: simulates a scenario once, writes its folder, then
 * builds the report from the run in memory (as {@code rocelab run} does) and again from the folder's files (as
 * {@code rocelab report OUTDIR} does), and prints the wall time of each step. One JVM, so the report's first build
 * pays its own class loading and compilation, as it does in a run.
 *
 * <pre>java -cp rocelab-bench/target/benchmarks.jar rocelab.bench.ReportCost scenarios/bench/bench-B2.yaml OUTDIR</pre>
 */
public final class ReportCost {
    private ReportCost() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ReportCost SCENARIO OUTDIR");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        ScenarioConfig config = new ScenarioReader().read(file);
        long t0 = System.nanoTime();
        Simulation simulation = Simulation.assemble(config);
        RunResult result = simulation.run(ProgressListener.NONE);
        long t1 = System.nanoTime();
        new RunWriter().write(dir, result, Map.of());
        long t2 = System.nanoTime();
        ReportWriter.write(dir, result, Map.of());
        long t3 = System.nanoTime();
        ReportWriter.write(dir);
        long t4 = System.nanoTime();
        // As rocelab run writes a folder: the files and the report side by side (the report's code is warm now,
        // so this figure is a lower bound; the serial first build above is the upper one).
        ReportWriter.writeRun(dir, result, Map.of());
        long t5 = System.nanoTime();
        System.out.printf(java.util.Locale.ROOT, "scenario %s: assemble+simulate %.2f s, write files %.2f s,"
                + " report from memory %.2f s (first build, %.1f %% of assemble+simulate+files+report),"
                + " report from files %.2f s, files and report side by side %.2f s%n", config.name(),
                (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, 100.0 * (t3 - t2) / (t3 - t0), (t4 - t3) / 1e9,
                (t5 - t4) / 1e9);
    }
}
