package rocelab.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.port.StrictPriorityScheduler;

/**
 * Switch output ports at 100 Gb/s under steady load, driven by a real {@link Simulator}. Each of {@code ports}
 * ports has a source that, every {@value #BURST_PACKETS} frame times, admits a burst of {@value #BURST_PACKETS}
 * data frames to the shared buffer and queues them on the port (line rate on average, a queue of 0 to
 * {@value #BURST_PACKETS} frames); the port serialises them onto a 1 us link whose far end returns each frame to the
 * {@link PacketPool}. One operation = one frame through admission, enqueue, class scheduling, ECN check, buffer
 * release, transmission and link arrival, with the simulator's events around it (port wake-up, link arrival and a
 * share of the source's event). Each invocation runs the simulator until {@value #FRAMES_PER_INVOCATION} more
 * frames have arrived. The calendar is never empty and never peeked beyond, as in a running simulation.
 *
 * <p>{@code ports=16} keeps a few dozen wake-ups pending, as in a switch under load; {@code ports=1} leaves only a
 * handful pending.
 *
 * <p>Allocation check: run with {@code -prof gc}. {@code gc.alloc.rate.norm} must be ~0 B/op: frames come from
 * the pool and go back to it, the FIFOs are intrusive, and the calendar does not grow once warm.
 *
 * <pre>
 * java -jar rocelab-bench/target/benchmarks.jar EgressPortBenchmark -p ports=1,16 -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EgressPortBenchmark {
    static final int FRAMES_PER_INVOCATION = 256;
    static final int BURST_PACKETS = 4;
    private static final long RATE_BPS = 100_000_000_000L;
    private static final int CLASSES = 8;
    private static final int TRAFFIC_CLASS = 3;
    private static final int PAYLOAD = 1000;
    private static final int IN_PORT = 0;

    /** Loaded output ports of one switch. */
    @Param({"16"})
    int ports;

    private Simulator sim;
    private PacketPool pool;
    private SharedBuffer buffer;
    private int frameBytes;
    private long delivered;
    private long target;

    /** Puts a burst on its port every burst-time, so the port runs at line rate with a short queue. */
    private final class Source implements EventHandler {
        private final EgressPort port;
        private final int id;
        private final long periodPs;
        private long psn;

        Source(EgressPort port, long periodPs) {
            this.port = port;
            this.periodPs = periodPs;
            this.id = sim.register(this);
        }

        void start(long atPs) {
            sim.schedule(atPs, id, 1, 0L);
        }

        @Override
        public void onEvent(long nowPs, int kind, long arg) {
            for (int i = 0; i < BURST_PACKETS; i++) {
                Packet p = pool.acquire()
                        .initData(nowPs, 1, 0, 7, psn++, PAYLOAD, frameBytes, Opcodes.RDMA_WRITE_MIDDLE)
                        .qos(TRAFFIC_CLASS, 26, Ecn.ECT_0);
                p.ingressPort(IN_PORT);
                if (buffer.admit(nowPs, IN_PORT, port.portIndex(), TRAFFIC_CLASS, frameBytes) != null) {
                    throw new IllegalStateException("buffer full");
                }
                port.enqueue(nowPs, p);
            }
            sim.schedule(nowPs + periodPs, id, 1, 0L);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        sim = new Simulator();
        pool = new PacketPool(ports * 64);
        buffer = new SharedBuffer(32_000_000L, ports + 1, CLASSES);
        frameBytes = new FrameFormat(false).dataFrameBytes(PAYLOAD, false);
        long framePs = Rates.serializationPs(frameBytes + FrameFormat.PREAMBLE_AND_IFG, RATE_BPS);
        EcnMarking[] marking = new EcnMarking[CLASSES];
        Arrays.fill(marking, EcnMarking.NONE);
        PacketSink receiver = (nowPs, packet) -> {
            pool.release(packet);
            if (++delivered == target) {
                sim.stop();
            }
        };
        for (int i = 0; i < ports; i++) {
            EgressPort port = new EgressPort(sim, 1 + i, RATE_BPS, CLASSES, new StrictPriorityScheduler(), marking, false,
                    buffer);
            port.connect(new Link(sim, Time.us(1), receiver));
            // Spread the sources over one period, as uncorrelated inputs would be.
            new Source(port, BURST_PACKETS * framePs).start(i * BURST_PACKETS * framePs / ports);
        }
    }

    @TearDown(Level.Trial)
    public void check() {
        // Frames in queues and on links when the last invocation stopped: a bounded number, never a leak.
        long held = pool.outstanding();
        if (held < 0 || held > (long) ports * 64) {
            throw new IllegalStateException(held + " frames outstanding; the ports should hold a few each");
        }
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES_PER_INVOCATION)
    public long frameThroughPort() {
        target = delivered + FRAMES_PER_INVOCATION;
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        return sim.nowPs();
    }
}
