package rocelab.bench;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Several rocelab versions in one JVM, one class loader each (a classpath per version, ':'-separated), the same
 * scenario assembled in each; their event loops run in turns of STEP us of simulated time from FROM to TO us, each
 * turn timed by this thread's CPU time. Load on the machine that changes slower than a turn hits all alike.
 * Usage: {@code java -cp rocelab-bench/target/classes rocelab.bench.VersionPair SCENARIO FROM_US TO_US STEP_US
 * LABEL=CLASSPATH...} (each CLASSPATH a jar such as {@code rocelab-cli/target/rocelab.jar} built at some commit,
 * or a folder of classes before it that replace some of the jar's). Prints, per version, the CPU seconds of its
 * turns, events, CPU per event and bytes allocated. It relies only on {@code ScenarioReader.read(Path)},
 * {@code Simulation.assemble(ScenarioConfig)}, {@code simulator()}, {@code runUntil(long)} and
 * {@code eventsProcessed()}, which every version since November 2026 has.
 */
public final class VersionPair {
    private VersionPair() {}

    public static void main(String[] args) throws Exception {
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Path scenario = Path.of(args[0]);
        long from = (long) (Double.parseDouble(args[1]) * 1e6);
        long to = (long) (Double.parseDouble(args[2]) * 1e6);
        long step = (long) (Double.parseDouble(args[3]) * 1e6);
        int n = args.length - 4;
        String[] label = new String[n];
        Object[] sims = new Object[n];
        Method[] runUntil = new Method[n], events = new Method[n];
        for (int i = 0; i < n; i++) {
            String spec = args[4 + i];
            label[i] = spec.substring(0, spec.indexOf('='));
            List<URL> urls = new ArrayList<>();
            for (String p : spec.substring(spec.indexOf('=') + 1).split(":")) {
                urls.add(Path.of(p).toUri().toURL());
            }
            ClassLoader cl = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
            Thread.currentThread().setContextClassLoader(cl);
            Object reader = Class.forName("rocelab.scenario.read.ScenarioReader", true, cl).getConstructor()
                    .newInstance();
            Object config = reader.getClass().getMethod("read", Path.class).invoke(reader, scenario);
            Class<?> simClass = Class.forName("rocelab.scenario.Simulation", true, cl);
            Class<?> configClass = Class.forName("rocelab.scenario.ScenarioConfig", true, cl);
            Object simulation = simClass.getMethod("assemble", configClass).invoke(null, config);
            sims[i] = simClass.getMethod("simulator").invoke(simulation);
            runUntil[i] = sims[i].getClass().getMethod("runUntil", long.class);
            events[i] = sims[i].getClass().getMethod("eventsProcessed");
            runUntil[i].invoke(sims[i], from);
        }
        long[] cpu = new long[n], alloc = new long[n], ev0 = new long[n];
        for (int i = 0; i < n; i++) {
            ev0[i] = (long) events[i].invoke(sims[i]);
        }
        int turns = 0;
        for (long at = from + step; at <= to; at += step) {
            for (int k = 0; k < n; k++) {
                int i = (k + turns) % n; // who goes first rotates
                long c0 = t.getCurrentThreadCpuTime(), a0 = t.getCurrentThreadAllocatedBytes();
                runUntil[i].invoke(sims[i], at);
                cpu[i] += t.getCurrentThreadCpuTime() - c0;
                alloc[i] += t.getCurrentThreadAllocatedBytes() - a0;
            }
            turns++;
        }
        for (int i = 0; i < n; i++) {
            long ev = (long) events[i].invoke(sims[i]) - ev0[i];
            System.out.printf(Locale.ROOT, "%s cpu=%.3f events=%d ns/event=%.1f alloc=%d turns=%d%n", label[i],
                    cpu[i] / 1e9, ev, cpu[i] / (double) ev, alloc[i], turns);
        }
    }
}
