package rocelab.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import rocelab.engine.EventCalendar;

/**
 * The "hold" model of a future event set, as a running simulation uses it: a steady number of pending wake-ups
 * (about one per port, link and queue pair), and each operation pops the earliest entry and schedules a new one a
 * little later. One operation = one {@code firstTimePs} + {@code removeFirst} + {@code add}.
 *
 * <p>Allocation check: run with {@code -prof gc}. {@code gc.alloc.rate.norm} must be ~0 B/op: the calendar stores
 * primitives in parallel arrays and never grows in this steady state (the size stays at {@code pending}).
 *
 * <pre>
 * java -jar rocelab-bench/target/benchmarks.jar EventCalendarBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EventCalendarBenchmark {
    /** Delays are drawn from a precomputed table (power of two) so the benchmark measures the heap, not the RNG. */
    private static final int DELAYS = 1 << 16;

    /** Pending entries, as in a simulation of a few hundred ports and queue pairs. */
    @Param({"1000"})
    int pending;

    private EventCalendar calendar;
    private long[] delaysPs;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        delaysPs = new long[DELAYS];
        for (int i = 0; i < DELAYS; i++) {
            // Serialisation times (tens of ns) mixed with propagation delays and timers (1 us .. 10 us), in ps;
            // a few zero delays exercise same-time ordering by sequence number.
            int r = random.nextInt(100);
            delaysPs[i] = r < 5 ? 0 : r < 70 ? 80_000 + random.nextLong(300_000) : 1_000_000 + random.nextLong(9_000_000);
        }
        calendar = new EventCalendar(pending * 2);
        for (int i = 0; i < pending; i++) {
            calendar.add(random.nextLong(10_000_000), i, 1, i);
        }
    }

    @Benchmark
    public long popAndSchedule() {
        EventCalendar c = calendar;
        long t = c.firstTimePs();
        int handler = c.firstHandlerId();
        int kind = c.firstKind();
        long arg = c.firstArg();
        c.removeFirst();
        int i = next;
        next = (i + 1) & (DELAYS - 1);
        c.add(t + delaysPs[i], handler, kind, arg + 1);
        return t;
    }
}
