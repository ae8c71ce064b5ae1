package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * links.csv's bytes by each sample time count the frame on the wire for the part already sent, so no interval carries
 * more than the line rate: with whole frames counted as they started, a 25 Gb/s port sampled every microsecond showed
 * 167 % of its capacity in the report's utilisation chart, which is differences of those counts over the interval.
 */
class LinkUtilisationTest {
    private static final String MIXED = """
            name: mixed-rates
            seed: 3
            fabric: {mode: roce-lossless, mtu: 4096, vlan: false}
            topology:
              kind: leaf-spine
              leaves: 3
              spines: 2
              hosts-per-leaf: 6
              link: {rate: 25Gbps, delay: 1us}
              uplink: {rate: 100Gbps, delay: 2us}
            switch: {buffer: 4MB, ecn: {marking: red, kmin: 50KB, kmax: 200KB, pmax: 0.2}}
            nic: {cc: dcqcn, dcqcn: {profile: nvidia}}
            traffic:
              - {kind: incast, senders: 6-11, receiver: 0, size: 512KB}
              - {kind: incast, senders: 12-15, receiver: 1, size: 300KB, start: 50us}
              - {kind: flow, src: 2, dst: 17, size: 1MiB, start: 5us}
              - {kind: flow, src: 16, dst: 3, size: 2MB, start: 100us}
            observe: {sample-interval: 1us}
            """;

    @Test
    void shouldNeverPutMoreBytesOnALinkInASampleIntervalThanItsRateAllows() {
        RunResult r = Simulation.assemble(Scenarios.parse(MIXED)).run(ProgressListener.NONE);
        TimeSeriesSampler s = r.series();
        Topology topo = r.network().topology();
        Map<Long, long[]> last = new HashMap<>();
        double most = 0;
        for (int i = 0; i < s.linkRows(); i++) {
            long t = s.link(i, 0);
            int sw = (int) s.link(i, 1);
            int port = (int) s.link(i, 2);
            long tx = s.link(i, 3);
            long key = (long) sw << 32 | port;
            long[] before = last.getOrDefault(key, new long[] {0, 0});
            // The counter moved only in the interval that ends at its row (rows are kept when it changed); the last
            // rows, at the run's end, close a shorter one, from the grid's last sample.
            long rate = topo.edgeAt(sw + topo.hostCount(), port).parameters().rateBps();
            long from = t % s.intervalPs() == 0 ? t - s.intervalPs() : t / s.intervalPs() * s.intervalPs();
            double share = (tx - before[1]) * 8.0 / (rate * ((t - Math.max(from, before[0])) / 1e12));
            most = Math.max(most, share);
            last.put(key, new long[] {t, tx});
        }
        assertThat(most).as("the busiest interval's share of its port's line rate").isGreaterThan(0.95)
                .isLessThanOrEqualTo(1.0);
    }

    @Test
    void shouldReadASaturatedLinkAsFullWhenEachFramesPreambleAndGapCount() {
        RunResult r = Simulation.assemble(Scenarios.parse(MIXED)).run(ProgressListener.NONE);
        TimeSeriesSampler s = r.series();
        Topology topo = r.network().topology();
        Map<Long, long[]> last = new HashMap<>();
        double bytesOnly = 0;
        double onTheWire = 0;
        double slack = 0;
        for (int i = 0; i < s.linkRows(); i++) {
            long t = s.link(i, 0);
            long key = s.link(i, 1) << 32 | s.link(i, 2);
            long[] before = last.getOrDefault(key, new long[] {0, 0, 0});
            long rate = topo.edgeAt((int) s.link(i, 1) + topo.hostCount(), (int) s.link(i, 2)).parameters().rateBps();
            if (t % s.intervalPs() == 0 && t - before[0] <= s.intervalPs()) {
                double capacity = rate * (s.intervalPs() / 1e12) / 8;
                bytesOnly = Math.max(bytesOnly, (s.link(i, 3) - before[1]) / capacity);
                onTheWire = Math.max(onTheWire, (s.link(i, 3) - before[1] + 20 * (s.link(i, 6) - before[2])) / capacity);
                slack = Math.max(slack, 20 / capacity);
            }
            last.put(key, new long[] {t, s.link(i, 3), s.link(i, 6)});
        }
        // 4 KiB frames: their bytes alone fill a busy link to 99.5 %; with their 20 bytes of framing, to all of it
        // (up to the framing of the frame a sample cuts, counted whole as it starts).
        assertThat(bytesOnly).isLessThan(0.996);
        assertThat(onTheWire).isGreaterThan(0.9999).isLessThanOrEqualTo(1 + slack);
    }

    @Test
    void shouldEndEachPortsLinksRowsAtTheRunsEndWithPortsCsvsBytesWhenTheRunEndsBetweenSamples() {
        RunResult r = Simulation.assemble(Scenarios.parse(MIXED.replace("sample-interval: 1us", "sample-interval: 10us")))
                .run(ProgressListener.NONE);
        TimeSeriesSampler s = r.series();
        assertThat(r.simulatedPs() % s.intervalPs()).as("the run ends between two samples").isNotZero();
        Map<Long, long[]> last = new HashMap<>();
        for (int i = 0; i < s.linkRows(); i++) {
            last.put(s.link(i, 1) << 32 | s.link(i, 2), new long[] {s.link(i, 0), s.link(i, 3)});
        }
        int atTheEnd = 0;
        for (int sw = 0; sw < r.network().switchCount(); sw++) {
            var device = r.network().switchAt(sw);
            for (int p = 0; p < device.portCount(); p++) {
                long[] row = last.getOrDefault((long) sw << 32 | p, new long[] {0, 0});
                assertThat(row[1]).as(device.name() + " port " + p + ": its last links.csv bytes against ports.csv's")
                        .isEqualTo(device.port(p).counter(PortCounter.TX_BYTES));
                assertThat(row[0]).isLessThanOrEqualTo(r.simulatedPs());
                atTheEnd += row[0] == r.simulatedPs() ? 1 : 0;
            }
        }
        assertThat(atTheEnd).as("ports whose last row is at the run's end").isPositive();
    }
}
