package rocelab.bench;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

/**
 * How many events of each handler class and kind one packet-level run pops (one thread), to see where the events
 * per data packet go before changing what schedules them. Each registered handler is wrapped in a counting one
 * after assembly (through the simulator's private handler table: a measuring tool, not an API; the wrapper's
 * extra call makes the run slower, so it prints counts, never times).
 *
 * <p>Usage: {@code java -cp rocelab-bench/target/benchmarks.jar rocelab.bench.EventCensus SCENARIO.yaml [UNTIL_US]}
 * (to the end of the run without UNTIL_US).
 */
public final class EventCensus {
    private static final int KINDS = 16;

    private EventCensus() {}

    public static void main(String[] args) throws Exception {
        Simulation simulation = Simulation.assemble(new ScenarioReader().read(Path.of(args[0])));
        Simulator sim = simulation.simulator();
        Map<String, long[]> counts = wrapHandlers(sim);
        sim.runUntil(args.length > 1 ? (long) (Double.parseDouble(args[1]) * 1e6) : Long.MAX_VALUE);
        long total = sim.eventsProcessed();
        System.out.printf("%-28s %5s %12s %7s%n", "handler", "kind", "events", "share");
        counts.forEach((name, byKind) -> {
            for (int k = 0; k < KINDS; k++) {
                if (byKind[k] > 0) {
                    System.out.printf("%-28s %5s %12d %6.1f%%%n", name, k == KINDS - 1 ? ">=" + k : k, byKind[k],
                            100.0 * byKind[k] / total);
                }
            }
        });
        System.out.printf("%-28s %5s %12d%n", "all", "", total);
    }

    private static Map<String, long[]> wrapHandlers(Simulator sim) throws ReflectiveOperationException {
        Field table = Simulator.class.getDeclaredField("handlers");
        table.setAccessible(true);
        EventHandler[] handlers = (EventHandler[]) table.get(sim);
        Map<String, long[]> counts = new TreeMap<>();
        for (int i = 0; i < handlers.length; i++) {
            EventHandler counted = handlers[i];
            if (counted == null) {
                continue;
            }
            long[] byKind = counts.computeIfAbsent(counted.getClass().getSimpleName(), k -> new long[KINDS]);
            handlers[i] = (nowPs, kind, arg) -> {
                byKind[Math.min(kind, KINDS - 1)]++;
                counted.onEvent(nowPs, kind, arg);
            };
        }
        return counts;
    }
}
