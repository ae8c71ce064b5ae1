package rocelab.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import rocelab.observe.RunResult;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Whole simulations in one JVM: the built-in demo (a long write, a 4-host incast that joins it and a PFC victim on a
 * lossless leaf-spine, about 150,000 events) or
 * an 8:1 incast of 1 MB per sender on one switch with a 32 MB buffer (8,000 data packets, no drops). The scenario
 * is parsed once; each operation assembles a fresh {@link Simulation} (in an untimed per-invocation setup) and runs
 * it to the last completion. The primary score is runs/s; the secondary scores {@code events} and
 * {@code dataPackets} are simulated events and data packets per wall-second of simulation.
 *
 * <p>Not allocation-free as a whole (results are collected at the end of each run); the per-event loop is checked
 * by {@code AllocationFreeTest} in rocelab-scenario. For whole-process figures use {@code bench/run-scenarios.sh}.
 *
 * <pre>
 * java -jar rocelab-bench/target/benchmarks.jar EndToEndBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EndToEndBenchmark {
    static final String INCAST = """
            name: bench-incast-8to1
            seed: 1
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 32MB, forwarding-latency: 0ns}
            nic: {cc: none}
            traffic:
              - {kind: incast, senders: 1-8, receiver: 0, size: 1000000B, start: 0us}
            """;

    /** {@code demo}: the built-in demo; {@code incast}: the 8:1 incast above. */
    @Param({"demo", "incast"})
    String scenario;

    private ScenarioConfig config;
    private Simulation simulation;

    /** Simulated events and data packets, reported by JMH per second of measured time. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Work {
        public long events;
        public long dataPackets;

        @Setup(Level.Iteration)
        public void reset() {
            events = 0;
            dataPackets = 0;
        }
    }

    @Setup(Level.Trial)
    public void read() throws ScenarioException {
        ScenarioReader reader = new ScenarioReader();
        config = switch (scenario) {
            case "demo" -> reader.readDemo();
            case "incast" -> reader.read(INCAST, "bench-incast-8to1.yaml", Path.of("."));
            default -> throw new IllegalArgumentException("unknown scenario " + scenario + "; expected demo or incast");
        };
    }

    @Setup(Level.Invocation)
    public void assemble() {
        simulation = Simulation.assemble(config);
    }

    @Benchmark
    public RunResult run(Work work) {
        RunResult result = simulation.run(ProgressListener.NONE);
        if (!result.finished()) {
            throw new IllegalStateException("the run did not finish: " + result.scenario());
        }
        work.events += result.events();
        work.dataPackets += result.totals().dataPacketsSent();
        return result;
    }
}
