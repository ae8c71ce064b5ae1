package rocelab.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;
import javax.management.JMException;
import javax.management.ObjectName;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

/**
 * The event loop of one packet-level run and the heap it keeps alive, for the all-to-all scale points of issue 16
 * (bench/alltoall-scale.sh): reads and assembles the scenario (no lint), measures the live heap (after a full
 * collection) once assembled, runs it to the end as {@code rocelab run} does, and prints the loop's wall and CPU
 * time, events, data packets, events per data packet and data packets per loop-second. With
 * {@code --histogram-at-us T} the loop stops once at simulated time T (at the first progress check past it, about
 * every million events) to print the live heap and the {@code top} classes of the heap's class histogram;
 * {@code --assemble-only} prints them once assembled and stops; {@code --until-us T} runs the loop to simulated time
 * T only (the same window at every size) and prints its figures and the live heap there; with {@code --threads N}
 * as well, on N threads (the run's partitions, as {@code rocelab run --threads N}), timed by the process's CPU.
 * With {@code -Drocelab.bench.heapDump=FILE} the histogram also writes a heap dump of the live objects there, for
 * {@code bench/hprof-owners.py} to say which fields hold the heap's arrays.
 *
 * <p>Usage: {@code java -cp rocelab-bench/target/benchmarks.jar rocelab.bench.ScaleProfile SCENARIO.yaml
 * [--histogram-at-us T] [--top N] [--assemble-only] [--until-us T [--threads N]]}
 */
public final class ScaleProfile {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ScaleProfile() {}

    public static void main(String[] args) throws Exception {
        long histogramAtPs = -1;
        int top = 25;
        boolean assembleOnly = false;
        long untilPs = -1;
        int threads = 1;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--histogram-at-us" -> histogramAtPs = (long) (Double.parseDouble(args[++i]) * 1e6);
                case "--top" -> top = Integer.parseInt(args[++i]);
                case "--assemble-only" -> assembleOnly = true;
                case "--until-us" -> untilPs = (long) (Double.parseDouble(args[++i]) * 1e6);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        long t0 = System.nanoTime();
        ScenarioConfig config = new ScenarioReader().read(Path.of(args[0]));
        if (threads > 1 && (untilPs < 0 || histogramAtPs >= 0)) {
            throw new IllegalArgumentException("--threads is for a window (--until-us) without a histogram");
        }
        Simulation simulation = Simulation.assemble(config, Simulation.Model.PACKET, threads);
        long t1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%s: %d hosts, %d flows; read and assembled in %.2f s, live heap %d MiB%n",
                config.name(), simulation.network().hostCount(), simulation.driver().flowCount(), (t1 - t0) / 1e9,
                liveHeapBytes() >> 20);
        if (assembleOnly) {
            System.out.print(histogram(top));
            return;
        }
        long[] histogramAt = {histogramAtPs};
        long[] pausedNanos = {0};
        int topClasses = top;
        // A run on several threads is timed by the process's CPU; one that fell back to one thread by its thread's.
        boolean wholeProcess = simulation.threads() > 1;
        long cpu0 = cpuNanos(wholeProcess);
        long gc0 = gcMillis();
        long w0 = System.nanoTime();
        if (untilPs >= 0) {
            // A fixed window of simulated time: the same work at every size, whatever the tail of the run.
            long histogramPs = histogramAtPs;
            if (histogramPs >= 0 && histogramPs < untilPs) {
                simulation.simulator().runUntil(histogramPs);
                long p0 = System.nanoTime();
                System.out.printf(Locale.ROOT, "at %.1f us (%d events): live heap %d MiB%n", histogramPs / 1e6,
                        simulation.simulator().eventsProcessed(), liveHeapBytes() >> 20);
                System.out.print(histogram(top));
                pausedNanos[0] += System.nanoTime() - p0;
            }
            simulation.runLoopUntil(untilPs);
            double wall = (System.nanoTime() - w0 - pausedNanos[0]) / 1e9;
            double cpu = (cpuNanos(wholeProcess) - cpu0) / 1e9;
            long packets = 0;
            for (int h = 0; h < simulation.network().hostCount(); h++) {
                packets += simulation.network().nic(h).counter(NicCounter.TX_DATA_PACKETS);
            }
            long events = simulation.eventsProcessed();
            System.out.printf(Locale.ROOT, "loop to %.1f us on %d thread(s), %d partition(s): %.2f s wall (%.2f s CPU"
                    + " of the %s, GC %.2f s); %d events, %d data packets, %.2f events per data packet, %.0f data"
                    + " packets per loop-second (%.0f per CPU-second), %.1f ns of CPU per event; live heap %d MiB,"
                    + " peak heap %d MiB%n", untilPs / 1e6, simulation.threads(), simulation.partitions(), wall, cpu,
                    wholeProcess ? "process" : "thread", (gcMillis() - gc0) / 1e3, events, packets,
                    (double) events / packets,
                    packets / wall, packets / cpu, cpu * 1e9 / events, liveHeapBytes() >> 20, peakHeapBytes() >> 20);
            var partitioned = simulation.partitionedSimulator();
            if (partitioned != null) {
                // Where two threads' time goes besides events: the windows' barriers (waiting for the busiest
                // partition, or for the one thread that works alone between windows), as `rocelab run` prints it.
                long windows = Math.max(1, partitioned.windows());
                System.out.printf(Locale.ROOT, "parallel: %d windows, %.0f events per window, busiest partition %.2fx"
                        + " its share, %d frames crossed; waited %.1f %% of the threads' time at the barriers (%.1f %%"
                        + " while one thread worked alone)%n", partitioned.windows(),
                        (double) partitioned.eventsProcessed() / windows,
                        partitioned.busiestPartitionEvents() * (double) partitioned.partitions()
                                / Math.max(1, partitioned.eventsProcessed()),
                        simulation.network().crossings(), 100 * partitioned.waitShare(),
                        100 * partitioned.serialShare() * (simulation.threads() - 1));
                double[] byThread = partitioned.waitSharesByThread();
                StringBuilder line = new StringBuilder("waited by thread:");
                for (int w = 0; w < byThread.length; w++) {
                    line.append(String.format(Locale.ROOT, " %d: %.1f %%", w, 100 * byThread[w]));
                }
                line.append("; events by partition:");
                for (int q = 0; q < partitioned.partitions(); q++) {
                    line.append(' ').append(partitioned.partition(q).eventsProcessed());
                }
                System.out.println(line);
            }
            return;
        }
        RunResult result = simulation.run(progress -> {
            if (histogramAt[0] >= 0 && progress.simulatedPs() >= histogramAt[0]) {
                histogramAt[0] = -1;
                long p0 = System.nanoTime();
                System.out.printf(Locale.ROOT, "at %.1f us (%d events): live heap %d MiB%n",
                        progress.simulatedPs() / 1e6, progress.events(), liveHeapBytes() >> 20);
                System.out.print(histogram(topClasses));
                pausedNanos[0] += System.nanoTime() - p0;
            }
        });
        double loopWall = (System.nanoTime() - w0 - pausedNanos[0]) / 1e9;
        double loopCpu = (cpuNanos(wholeProcess) - cpu0) / 1e9;
        long packets = result.totals().dataPacketsSent();
        System.out.printf(Locale.ROOT, "loop %.2f s wall (%.2f s CPU of the thread, GC %.2f s, histogram pauses"
                + " excluded from wall only); %s; simulated %.3f us; %d events, %d data packets, %.2f events per"
                + " data packet, %.0f data packets per loop-second; peak heap %d MiB%n", loopWall, loopCpu,
                (gcMillis() - gc0) / 1e3, result.stopReason(), result.simulatedPs() / 1e6, result.events(), packets,
                (double) result.events() / packets, packets / loopWall, peakHeapBytes() >> 20);
    }

    /** CPU time of this thread, or of the whole process (every partition's thread, the JIT and the collector too). */
    private static long cpuNanos(boolean wholeProcess) {
        return wholeProcess ? ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() : THREADS.getCurrentThreadCpuTime();
    }

    /** Heap in use after a full collection (the serial collector's System.gc() is one): the live set. */
    private static long liveHeapBytes() {
        System.gc();
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }

    private static long gcMillis() {
        long gc = 0;
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, collector.getCollectionTime());
        }
        return gc;
    }

    /** The first {@code top} rows of {@code jcmd PID GC.class_histogram}, asked of this JVM itself. */
    private static String histogram(int top) {
        String text;
        String dump = System.getProperty("rocelab.bench.heapDump");
        if (dump != null) {
            // The heap as the histogram sees it, for a look at who holds what (bench/hprof-owners.py): live objects
            // only.
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpHeap(dump, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try {
            text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {null}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IllegalStateException("no class histogram from this JVM", e);
        }
        String[] lines = text.split("\n");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(lines.length, top + 3); i++) {
            out.append(lines[i]).append('\n');
        }
        out.append(lines[lines.length - 1]).append('\n');
        return out.toString();
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
