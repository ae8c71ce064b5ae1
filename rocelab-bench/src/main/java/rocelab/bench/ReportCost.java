package rocelab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;
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
 * {@code rocelab report OUTDIR} does), and prints the wall time and this thread's CPU time of each step (CPU time does
 * not depend on what else the machine runs; the simulation is single-threaded). One JVM, so the report's first build
 * pays its own class loading and compilation, as it does in a run.
 *
 * <pre>java -cp rocelab-bench/target/benchmarks.jar rocelab.bench.ReportCost scenarios/bench/bench-B2.yaml OUTDIR</pre>
 */
public final class ReportCost {
    private ReportCost() {}

    private static void mark(long[] wall, long[] used, int i, ThreadMXBean cpu) {
        wall[i] = System.nanoTime();
        used[i] = cpu.getCurrentThreadCpuTime();
    }

    /** Seconds of step i. */
    private static double d(long[] t, int i) {
        return (t[i] - t[i - 1]) / 1e9;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ReportCost SCENARIO OUTDIR");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        ScenarioConfig config = new ScenarioReader().read(file);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long[] wall = new long[6];
        long[] used = new long[6];
        wall[0] = System.nanoTime();
        used[0] = cpu.getCurrentThreadCpuTime();
        Simulation simulation = Simulation.assemble(config);
        RunResult result = simulation.run(ProgressListener.NONE);
        mark(wall, used, 1, cpu);
        new RunWriter().write(dir, result, Map.of());
        mark(wall, used, 2, cpu);
        ReportWriter.write(dir, result, Map.of());
        mark(wall, used, 3, cpu);
        ReportWriter.write(dir);
        mark(wall, used, 4, cpu);
        // As rocelab run writes a folder: the files and the report side by side (the report's code is warm now).
        ReportWriter.writeRun(dir, result, Map.of());
        mark(wall, used, 5, cpu);
        System.out.printf(Locale.ROOT, "%s: wall s (cpu s): assemble+simulate %.2f (%.2f), write files %.2f"
                + " (%.2f), report from memory %.2f (%.2f), report from files %.2f (%.2f), files and report side by"
                + " side %.2f%n", config.name(), d(wall, 1), d(used, 1), d(wall, 2), d(used, 2), d(wall, 3),
                d(used, 3), d(wall, 4), d(used, 4), d(wall, 5));
        System.out.printf(Locale.ROOT, "report from memory against the run (assemble+simulate+files+report):"
                + " %.1f %% of its wall time, %.1f %% of its CPU time%n", 100.0 * (wall[3] - wall[2])
                / (wall[3] - wall[0]), 100.0 * (used[3] - used[2]) / (used[3] - used[0]));
    }
}
