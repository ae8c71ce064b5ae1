package rocelab.bench;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The CPU time of a run's ideal figures (the bound of every task and the group bounds the outputs report: what a
 * flow-level run makes on the thread "rocelab-ideal-bound" beside its event loop) for one rocelab version: reads and
 * assembles the scenario at the flow level with the version's own classes (one class loader, as
 * {@link VersionPair}), then makes the figures {@code REPEATS} times on this thread, each timed by this thread's CPU
 * time, and prints each and the figures' group bounds (which two versions must give alike). Versions are compared
 * by running this for each in turns (one process each: a large job's graph is held once per version).
 * Usage: {@code java -cp rocelab-bench/target/classes rocelab.bench.BoundCost SCENARIO REPEATS CLASSPATH}. It relies
 * on {@code MemoryBudget.ofJvm(boolean, boolean)}, {@code ScenarioReader(MemoryBudget).read(Path)}, {@code Simulation.assemble(ScenarioConfig, Simulation.Model, int)} and the
 * private {@code Simulation.idealFigures()}, which every version since 2026-12-01 has.
 */
public final class BoundCost {
    private BoundCost() {}

    public static void main(String[] args) throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Path scenario = Path.of(args[0]);
        int repeats = Integer.parseInt(args[1]);
        URL[] urls = Arrays.stream(args[2].split(":")).map(p -> {
            try {
                return Path.of(p).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(e);
            }
        }).toArray(URL[]::new);
        ClassLoader cl = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(cl);
        // Read as `rocelab run --model flow` reads: with the flow level's memory budget.
        Class<?> budgetClass = Class.forName("rocelab.scenario.MemoryBudget", true, cl);
        Object budget = budgetClass.getMethod("ofJvm", boolean.class, boolean.class).invoke(null, true, true);
        Object reader = Class.forName("rocelab.scenario.read.ScenarioReader", true, cl).getConstructor(budgetClass)
                .newInstance(budget);
        Object config = reader.getClass().getMethod("read", Path.class).invoke(reader, scenario);
        Class<?> simClass = Class.forName("rocelab.scenario.Simulation", true, cl);
        Class<?> configClass = Class.forName("rocelab.scenario.ScenarioConfig", true, cl);
        Class<?> modelClass = Class.forName("rocelab.scenario.Simulation$Model", true, cl);
        Object flow = modelClass.getMethod("valueOf", String.class).invoke(null, "FLOW");
        Object simulation = simClass.getMethod("assemble", configClass, modelClass, int.class)
                .invoke(null, config, flow, 1);
        Object graph = simClass.getMethod("driver").invoke(simulation);
        graph = graph.getClass().getMethod("graph").invoke(graph);
        System.out.printf(Locale.ROOT, "tasks %s flows %s connections %s%n", count(graph, "taskCount"),
                count(graph, "flowCount"), count(graph, "connectionCount"));
        Method figures = simClass.getDeclaredMethod("idealFigures");
        figures.setAccessible(true);
        for (int r = 0; r < repeats; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            Object made = figures.invoke(simulation);
            long cpu = threads.getCurrentThreadCpuTime() - c0;
            long wall = System.nanoTime() - w0;
            System.out.printf(Locale.ROOT, "repeat %d: cpu %.3f s wall %.3f s; %s%n", r, cpu / 1e9, wall / 1e9,
                    groupBounds(made));
        }
    }

    /** The figures' group bounds as text: the collectives' ends and the jobs' ends, iterations and calls. */
    private static String groupBounds(Object figures) throws Exception {
        StringBuilder s = new StringBuilder("collectives " + Arrays.toString((long[]) get(figures,
                "collectiveEndPs")));
        Object jobs = get(figures, "jobs");
        if (jobs != null) {
            s.append(" jobEndPs ").append(Arrays.toString((long[]) get(jobs, "jobEndPs")));
            s.append(" iterationSpanPs ").append(Arrays.deepToString((long[][]) get(jobs, "iterationSpanPs")));
            long[][] calls = (long[][]) get(jobs, "callEndPs");
            s.append(" calls ").append(Arrays.stream(calls).mapToInt(c -> c.length).sum())
                    .append(" hash ").append(Integer.toHexString(Arrays.deepHashCode(calls)));
        }
        return s.toString();
    }

    private static Object count(Object graph, String what) throws Exception {
        return graph.getClass().getMethod(what).invoke(graph);
    }

    /** A record component of a package-private record. */
    private static Object get(Object record, String component) throws Exception {
        Method m = record.getClass().getDeclaredMethod(component);
        m.setAccessible(true);
        return m.invoke(record);
    }
}
