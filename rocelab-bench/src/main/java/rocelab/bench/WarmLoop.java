package rocelab.bench;

import java.nio.file.Path;
import java.util.Locale;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

/**
 * A packet-level run's event loop, again and again in one JVM: each round reads and assembles the scenario afresh
 * and times its loop to the end (one thread, no outputs). The later rounds show the loop with the JIT's work done,
 * which a whole run of a few seconds never does (BENCHMARKS.md, second session of 2026-12-06).
 *
 * <p>Usage: {@code java [the launcher's JVM options] -cp rocelab-bench/target/benchmarks.jar rocelab.bench.WarmLoop
 * SCENARIO.yaml [ROUNDS]} (3 rounds by default).
 */
public final class WarmLoop {
    private WarmLoop() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        for (int round = 1; round <= rounds; round++) {
            ScenarioConfig config = new ScenarioReader().read(Path.of(args[0]));
            Simulation simulation = Simulation.assemble(config, Simulation.Model.PACKET, 1);
            System.gc();
            long t0 = System.nanoTime();
            simulation.runLoopUntil(Long.MAX_VALUE / 2);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long events = simulation.eventsProcessed();
            System.out.printf(Locale.ROOT, "round %d: loop %.3f s, %d events, %.1f ns per event%n", round, seconds,
                    events, seconds * 1e9 / events);
        }
    }
}
