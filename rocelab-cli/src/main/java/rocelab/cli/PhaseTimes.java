package rocelab.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a command's whole process spends its time, phase by phase ({@code rocelab run --timing}, on stderr): the
 * wall time of each phase and the process's CPU time (every thread: the JIT compilers, the collector and the
 * lint's and report's threads too) during it, from main to the end of the command. What comes before main (the
 * JVM's start) and after (its exit) is seen only from outside: the last line gives the wall-clock instants to
 * compare with.
 * Off by default, and then it records nothing: a null check per phase is all a normal run pays.
 */
final class PhaseTimes {
    /** When main was entered (wall clock, and the monotonic clock for the phases). */
    private static Instant mainEntered;
    private static long mainNanos;

    private final PrintWriter out;
    private final List<String> names = new ArrayList<>();
    private final List<long[]> marks = new ArrayList<>(); // {nanoTime, process CPU nanos}

    private PhaseTimes(PrintWriter out) {
        this.out = out;
    }

    /** Called first thing in main: the end of the JVM's start-up. */
    static void mainEntered() {
        mainNanos = System.nanoTime();
        mainEntered = Instant.now();
    }

    /** A recorder that prints to {@code err}, or one that does nothing when {@code on} is false. */
    static PhaseTimes of(boolean on, PrintWriter err) {
        PhaseTimes t = new PhaseTimes(on ? err : null);
        if (on) {
            if (mainEntered == null) { // run in-process (tests): the phases start here
                mainEntered();
            }
            t.names.add("start");
            t.marks.add(new long[] {mainNanos, 0L});
        }
        return t;
    }

    /** Ends the phase called {@code name} now (its start: the end of the previous one, or main). */
    void end(String name) {
        if (out == null) {
            return;
        }
        names.add(name);
        marks.add(new long[] {System.nanoTime(), processCpuNanos()});
    }

    /** Prints the phases; the first phase's CPU includes the JVM's start-up (the process's CPU before main). */
    void print() {
        if (out == null) {
            return;
        }
        out.println("timing    phase                 wall ms   CPU ms (all threads)");
        long cpuBefore = 0;
        for (int i = 1; i < marks.size(); i++) {
            long[] a = marks.get(i - 1);
            long[] b = marks.get(i);
            long cpu = b[1] - (i == 1 ? 0 : cpuBefore);
            cpuBefore = b[1];
            out.printf(Locale.ROOT, "timing    %-20s %8.1f   %8.1f%s%n", names.get(i), (b[0] - a[0]) / 1e6, cpu / 1e6,
                    i == 1 ? " (JVM start-up included)" : "");
        }
        long[] last = marks.get(marks.size() - 1);
        out.printf(Locale.ROOT, "timing    %-20s %8.1f   %8.1f%n", "main to here", (last[0] - marks.get(0)[0]) / 1e6,
                last[1] / 1e6);
        // The JVM's start before main and its exit after this line are seen from outside, against these instants.
        out.println("timing    main entered at " + mainEntered + ", ended at " + Instant.now());
        out.flush();
    }

    private static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
