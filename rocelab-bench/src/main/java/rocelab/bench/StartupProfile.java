package rocelab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;
import rocelab.scenario.Simulation;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.read.ScenarioReader;

/**
 * The way from a scenario file to its first event, timed step by step, for the scale benchmarks of BENCHMARKS.md:
 * read (YAML, validation, the footprint estimate, each job unrolled once to check it), lint (every path of every
 * transfer), assemble (fabric, routes, the whole task graph) and the first event. Prints, per step, the wall time
 * and the CPU time of the thread doing it (on a shared machine the CPU time is the steadier figure), the time spent
 * collecting garbage, and the peak heap. Not a JMH benchmark: each step runs once, in a fresh JVM per scenario
 * (bench/run-startup.sh).
 *
 * <p>Usage: {@code java -cp rocelab-bench/target/benchmarks.jar rocelab.bench.StartupProfile SCENARIO.yaml [--ideal]}
 */
public final class StartupProfile {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private StartupProfile() {}

    public static void main(String[] args) throws Exception {
        boolean ideal = args.length > 1 && args[1].equals("--ideal");
        long[] w = new long[5];
        long[] c = new long[5];
        mark(w, c, 0);
        ScenarioConfig config = new ScenarioReader().read(Path.of(args[0]));
        mark(w, c, 1);
        LintReport lint = Lint.check(config);
        mark(w, c, 2);
        Simulation simulation = Simulation.assemble(config, ideal);
        mark(w, c, 3);
        simulation.simulator().run(Long.MAX_VALUE, 1);
        mark(w, c, 4);
        long gc = 0;
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, collector.getCollectionTime());
        }
        System.out.printf(Locale.ROOT, "%s: %d hosts, %d switches, %d flows, %d tasks, %d lint paths%n"
                + "  wall s (CPU s): read %s, lint %s, assemble %s, first event %s, total %s; GC %.2f s;"
                + " peak heap %d MiB%n", config.name(), simulation.network().hostCount(),
                simulation.network().switchCount(), simulation.driver().flowCount(), simulation.driver().taskCount(),
                lint.paths(), step(w, c, 0, 1), step(w, c, 1, 2), step(w, c, 2, 3), step(w, c, 3, 4),
                step(w, c, 0, 4), gc / 1e3, peakHeapBytes() >> 20);
    }

    private static void mark(long[] wall, long[] cpu, int i) {
        wall[i] = System.nanoTime();
        cpu[i] = THREADS.getCurrentThreadCpuTime();
    }

    private static String step(long[] wall, long[] cpu, int from, int to) {
        return String.format(Locale.ROOT, "%.2f (%.2f)", (wall[to] - wall[from]) / 1e9, (cpu[to] - cpu[from]) / 1e9);
    }

    /** The sum of the heap pools' peaks (an upper bound of the peak heap: pools peak at different moments). */
    private static long peakHeapBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
