package rocelab.bench;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What one dependent cache miss costs on this machine, by working-set size: a chase through one random cycle over
 * the cache lines of an array, each load's address coming from the one before, so that nothing overlaps. A packet
 * run's event is a chain of such loads (calendar node, handler, frame, route, port, queue pair), so this is the
 * floor under the cost of every load a large run's event cannot find in a cache (BENCHMARKS.md, third session of
 * 2026-12-06: what the 1,024-host all-to-all's growth per event is made of).
 *
 * <p>Usage: {@code java -XX:+UseTransparentHugePages -Xmx3g -cp rocelab-bench/target/benchmarks.jar
 * rocelab.bench.MemoryLatency [BYTES...]} (default: 256 KiB, 4 MiB, 32 MiB, 128 MiB, 1 GiB).
 */
public final class MemoryLatency {
    private static final int INTS_PER_LINE = 16;
    private static final long STEPS = 20_000_000L;

    private MemoryLatency() {}

    public static void main(String[] args) {
        String[] sizes = args.length > 0 ? args : new String[] {"262144", "4194304", "33554432", "134217728",
            "1073741824"};
        for (String size : sizes) {
            long bytes = Long.parseLong(size);
            int[] next = cycle((int) (bytes / Integer.BYTES));
            int at = 0;
            // The first pass brings the pages in and the code to C2; the second is the figure.
            for (int pass = 0; pass < 2; pass++) {
                long t0 = System.nanoTime();
                for (long k = 0; k < STEPS; k++) {
                    at = next[at];
                }
                double ns = (System.nanoTime() - t0) / (double) STEPS;
                if (pass == 1) {
                    System.out.printf(Locale.ROOT, "%,14d bytes: %6.1f ns per dependent load (ended at %d)%n", bytes,
                            ns, at);
                }
            }
        }
    }

    /** One random cycle (Sattolo's shuffle) through the first int of every cache line of an int[n]. */
    private static int[] cycle(int n) {
        int lines = n / INTS_PER_LINE;
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int i = lines - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] next = new int[n];
        for (int i = 0; i < lines; i++) {
            next[order[i] * INTS_PER_LINE] = order[(i + 1) % lines] * INTS_PER_LINE;
        }
        return next;
    }
}
