package rocelab.bench;

import java.nio.file.Path;
import java.util.Locale;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.StreamedRun;
import rocelab.scenario.read.ScenarioReader;

/**
 * Runs a scenario as a streamed flow-level run ({@link StreamedRun}) and prints its figures: the scale benchmark of
 * the 32,768-GPU AllReduce (BENCHMARKS.md). {@code java -cp rocelab.jar rocelab.bench.StreamedScale SCENARIO.yaml}
 */
public final class StreamedScale {
    private StreamedScale() {}

    public static void main(String[] args) throws Exception {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        ScenarioConfig config = new ScenarioReader().read(Path.of(args[0]));
        StreamedRun run = StreamedRun.assemble(config);
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        run.run();
        long t2 = System.nanoTime();
        long c2 = threads.getCurrentThreadCpuTime();
        System.out.printf(Locale.ROOT, "main thread CPU: assembly %.1f s, run %.1f s%n", (c1 - c0) / 1e9, (c2 - c1) / 1e9);
        var f = run.flows();
        Runtime rt = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "assembly %.1f s, run %.1f s, events %,d (%,.0f per run-second), tasks %,d,"
                + " flows %,d completed %,d, bytes %,d%n", (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                run.simulator().eventsProcessed(), run.simulator().eventsProcessed() / ((t2 - t1) / 1e9),
                run.driver().tasksAdded(), f.count(), f.completedCount(), f.bytesCompleted());
        System.out.printf(Locale.ROOT, "collective: first transfer %.6f us, end %.6f us, ideal end %.6f us; finished %s%n",
                run.driver().firstTransferStartPs() / 1e6, run.collectiveEndPs() / 1e6,
                run.idealCollectiveEndPs() / 1e6, run.driver().allFinished());
        System.out.printf(Locale.ROOT, "fct us: min %.5f mean %.5f p50 %.5f p99 %.5f max %.5f; slowdown p50 %.3f p99 %.3f"
                + " max %.3f; heap used %,d MiB%n", f.fctMinPs() / 1e6, f.fctMeanPs() / 1e6,
                f.fctQuantilePs(0.5) / 1e6, f.fctQuantilePs(0.99) / 1e6, f.fctMaxPs() / 1e6, f.slowdownQuantile(0.5),
                f.slowdownQuantile(0.99), f.slowdownMax(), (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
}
