/**
 * JMH micro-benchmarks of rocelab: {@link rocelab.bench.EventCalendarBenchmark} (the future event set under a hold
 * load of ~1000 pending entries), {@link rocelab.bench.EgressPortBenchmark} (frames through loaded switch output
 * ports on a real simulator) and {@link rocelab.bench.EndToEndBenchmark} (whole simulations, events per second).
 *
 * <p>The build compiles them and packages {@code rocelab-bench/target/benchmarks.jar}; nothing runs during
 * {@code mvn verify}. Run them with {@code bench/run-jmh.sh [regex] [JMH options]}, or directly:
 *
 * <pre>
 * java -jar rocelab-bench/target/benchmarks.jar -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 *
 * <p>{@code -prof gc} adds {@code gc.alloc.rate.norm}, the bytes allocated per operation. It must be ~0 B/op for
 * the calendar and port benchmarks: the per-event path allocates nothing (pooled packets, primitive calendar). A
 * figure of even a few bytes per op there means something on the hot path allocates (boxing, a lambda, an
 * iterator, a growing array). The end-to-end benchmark allocates per run, and its figure includes the untimed
 * assembly of each run (JMH's GC profiler counts the whole iteration).
 *
 * <p>Whole-process figures for the reference scenarios (wall time with JVM start, peak RSS) come from
 * {@code bench/run-scenarios.sh}, not from JMH.
 */
package rocelab.bench;
