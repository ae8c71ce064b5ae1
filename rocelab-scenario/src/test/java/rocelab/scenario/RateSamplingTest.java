package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * The sampler visits only the queue pairs that changed since its previous sample; its rates are those of the
 * definition, which visits every queue pair every sample. Each congestion control, flows that start later and QPs
 * that carry several messages (a ring AllReduce's connections).
 */
class RateSamplingTest {
    private static final long INTERVAL_PS = 2_000_000L;

    @ParameterizedTest
    @ValueSource(strings = {
        "fabric: {mode: roce-lossless, mtu: 1000}\nswitch: {buffer: 4MB, ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}, pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}}\nnic: {cc: dcqcn, dcqcn: {profile: hpcc-ns3}}",
        "fabric: {mode: roce-lossy, mtu: 1000}\nswitch: {buffer: 4MB, ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}}\nnic: {cc: dcqcn, dcqcn: {profile: nvidia}}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: hpcc, hpcc: {eta: 0.95, max-stage: 5, base-rtt: 10us}}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nswitch: {ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}}\nnic: {cc: dctcp}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: timely}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: swift}",
        "fabric: {mode: infiniband, mtu: 4096, infiniband: {fecn: {threshold: 32KiB, marking-rate: 0, victim-mask: false}}}\nnic: {cc: ib-cc, ib-cc: {ccti-increase: 1, ccti-limit: 127, ccti-timer: 10us, cct-step: 100ns}}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: none}"})
    void shouldSampleTheSameRatesAsVisitingEveryQueuePair(String fabric) {
        String tracked = rates(fabric, Sampling.CHANGED);
        String every = rates(fabric, Sampling.EVERY);
        assertThat(tracked.lines().count()).as("rows sampled: at least one per QP").isGreaterThan(15);
        assertThat(tracked).isEqualTo(every);
        assertThat(throughput(fabric, Sampling.CHANGED)).isEqualTo(throughput(fabric, Sampling.EVERY));
    }

    /**
     * throughput.csv: a QP's rows add up to every byte posted on it (the run completes), a ring AllReduce's QPs of
     * several messages included, and each row's gbps is its bytes over the interval (the run's end: since the grid point before it).
     */
    @Test
    void shouldAddEachQueuePairsThroughputRowsUpToItsBytes() {
        String fabric = "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: swift}";
        Simulation simulation = assembled(fabric);
        TimeSeriesSampler sampler = new TimeSeriesSampler(simulation.network(), INTERVAL_PS);
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);
        sampler.finish(simulation.simulator().nowPs());
        var table = simulation.network().queuePairs();
        long[] sum = new long[table.size()];
        boolean[] windowed = new boolean[table.size()];
        String[] lines = sampler.throughputCsv().split("\n");
        assertThat(lines[0]).isEqualTo("time_us,qp,src,dst,delivered_bytes,gbps,window_bytes");
        assertThat(lines).hasSize(sampler.deliveredRows() + 1).hasSizeGreaterThan(table.size());
        for (int i = 1; i < lines.length; i++) {
            String[] c = lines[i].split(",", -1);
            long bytes = Long.parseLong(c[4]);
            sum[Integer.parseInt(c[1])] += bytes;
            assertThat(bytes).isPositive();
            assertThat(Double.parseDouble(c[5])).as(lines[i]).isCloseTo(bytes * 8.0 / sampler.spanEndingAt(Math.round(Double.parseDouble(c[0]) * 1e6)) * 1000,
                    within(1e-6));
            // Swift's window exists from the QP's first ACK on (before it, nothing limits the QP: empty).
            int q = Integer.parseInt(c[1]);
            if (windowed[q]) {
                assertThat(c[6]).as(lines[i]).isNotEmpty();
            }
            windowed[q] |= !c[6].isEmpty();
        }
        assertThat(windowed).contains(true);
        for (int q = 0; q < table.size(); q++) {
            assertThat(sum[q]).as("QP " + q).isEqualTo(table.get(q).postedBytes());
        }
    }

    /** Rows moved to the temporary file every few rows read back as the rows kept in memory. */
    @ParameterizedTest
    @ValueSource(strings = {
        "fabric: {mode: roce-lossless, mtu: 1000}\nswitch: {buffer: 4MB, ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}, pfc: {threshold: dynamic, alpha: 0.125, headroom: auto}}\nnic: {cc: dcqcn, dcqcn: {profile: hpcc-ns3}}",
        "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: hpcc, hpcc: {eta: 0.95, max-stage: 5, base-rtt: 10us}}"})
    void shouldReadRowsMovedToTheFileBackInOrder(String fabric) {
        assertThat(rates(fabric, Sampling.MOVED_TO_FILE)).isEqualTo(rates(fabric, Sampling.CHANGED));
        assertThat(throughput(fabric, Sampling.MOVED_TO_FILE)).isEqualTo(throughput(fabric, Sampling.CHANGED));
    }

    /**
     * Two threads reading the rows at once (rates.csv on its own thread and the report's busiest rates, in a large
     * run) each read every row in order, the last ones still in the file's buffer when they start included.
     */
    @Test
    void shouldGiveTwoReadersAtOnceEveryRowInOrder() throws Exception {
        String fabric = "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: dcqcn, dcqcn: {profile: hpcc-ns3}}";
        String expected = rates(fabric, Sampling.CHANGED);
        for (int round = 0; round < 8; round++) {
            TimeSeriesSampler sampler = sampler(fabric, Sampling.MOVED_TO_FILE);
            CyclicBarrier start = new CyclicBarrier(2);
            Callable<String> read = () -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                start.await();
                sampler.writeRatesCsv(out);
                return out.toString(StandardCharsets.UTF_8);
            };
            ExecutorService two = Executors.newFixedThreadPool(2);
            try {
                var a = two.submit(read);
                var b = two.submit(read);
                assertThat(a.get()).isEqualTo(expected);
                assertThat(b.get()).isEqualTo(expected);
            } finally {
                two.shutdown();
            }
        }
    }

    /**
     * Every row names its QP and that QP's two hosts, whether the writer reads them from the QP objects (fewer rows
     * than QPs) or from the array it makes of them (more rows).
     */
    @Test
    void shouldNameEachRowsQueuePairAndItsHosts() {
        String fabric = "fabric: {mode: roce-lossless, mtu: 1000}\nnic: {cc: dcqcn, dcqcn: {profile: hpcc-ns3}}";
        Simulation simulation = assembled(fabric);
        TimeSeriesSampler sampler = new TimeSeriesSampler(simulation.network(), INTERVAL_PS);
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);
        var table = simulation.network().queuePairs();
        assertThat(sampler.rateRows()).as("more rows than QPs: the array's way").isGreaterThan(table.size());
        Map<Integer, String> hosts = new HashMap<>();
        for (int q = 0; q < table.size(); q++) {
            hosts.put(table.get(q).id(), table.get(q).sourceHost() + "," + table.get(q).destinationHost());
        }
        String[] lines = sampler.ratesCsv().split("\n");
        assertThat(lines).hasSize(sampler.rateRows() + 1);
        for (int i = 1; i < lines.length; i++) {
            String[] c = lines[i].split(",");
            assertThat(c[2] + "," + c[3]).as(lines[i]).isEqualTo(hosts.get(Integer.parseInt(c[1])));
        }
        // Fewer rows than QPs: the objects' way, the same text.
        Simulation small = assembled(fabric);
        TimeSeriesSampler early = new TimeSeriesSampler(small.network(), INTERVAL_PS);
        small.simulator().run(INTERVAL_PS, Long.MAX_VALUE);
        assertThat(early.rateRows()).isPositive().isLessThan(small.network().queuePairs().size());
        assertThat(sampler.ratesCsv()).startsWith(early.ratesCsv());
    }

    private enum Sampling { CHANGED, EVERY, MOVED_TO_FILE }

    private static String rates(String fabric, Sampling sampling) {
        return sampler(fabric, sampling).ratesCsv();
    }

    private static String throughput(String fabric, Sampling sampling) {
        return sampler(fabric, sampling).throughputCsv();
    }

    private static Simulation assembled(String fabric) {
        return Scenarios.assemble("name: sampling\n" + fabric + "\n" + """
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-6, receiver: 0, size: 300KB}
                  - {kind: flow, src: 7, dst: 1, size: 200KB, start: 30us}
                  - {kind: allreduce, ranks: 0-7, size: 2MB, start: 10us}
                """);
    }

    private static TimeSeriesSampler sampler(String fabric, Sampling sampling) {
        Simulation simulation = assembled(fabric);
        var network = simulation.network();
        TimeSeriesSampler sampler = switch (sampling) {
            case CHANGED -> new TimeSeriesSampler(network, INTERVAL_PS);
            case EVERY -> TimeSeriesSampler.visitingEveryQueuePair(network, INTERVAL_PS);
            case MOVED_TO_FILE -> TimeSeriesSampler.movingRatesToFileEvery(network, INTERVAL_PS, 7);
        };
        simulation.simulator().run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(simulation.driver().allFinished()).isTrue();
        if (sampling == Sampling.MOVED_TO_FILE) {
            assertThat(sampler.rateRowsInFile()).as("rows moved to the file").isGreaterThan(sampler.rateRows() / 2);
        } else {
            assertThat(sampler.rateRowsInFile()).isZero();
        }
        return sampler;
    }
}
