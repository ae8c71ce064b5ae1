package rocelab.scenario.perftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.PerftestTraffic;

/**
 * perftest over a simulated fabric: WRITEs posted by perftest's rules (TX depth, CQ moderation, ping-pong), and its
 * figures against closed forms on an idle fabric: the bandwidth a link's wire bytes leave for payload, the latency of
 * a frame over its hops.
 */
class PerftestTest {
    /** Two hosts on one switch, 100 Gb/s links of 1 us, MTU 1000 B, no VLAN tag. */
    private static ScenarioConfig twoHosts(String cc) {
        try {
            return new ScenarioReader().fabricOnly().read("""
                name: pair
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {forwarding-latency: 0ns}
                nic: {cc: %s}
                traffic: []
                """.formatted(cc), "pair.yaml", null);
        } catch (ScenarioException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Wire bytes of a RoCEv2 WRITE packet of {@code payload} bytes: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4,
     * FCS 4, preamble and inter-frame gap 20, and a RETH of 16 on a message's first packet. */
    private static long wire(long payload, boolean first) {
        return payload + 14 + 20 + 8 + 12 + 4 + 4 + 20 + (first ? 16 : 0);
    }

    @Test
    void shouldPostAWriteWhenTheSignalledCompletionBeforeItsDepthIsAcknowledged() {
        PerftestTraffic t = new PerftestTraffic(1, 0, 65536, 300, 1, 128, 100, false, false, -1);
        // WRITE 128 needs one completion known: the first signalled one is WRITE 99's; 228 needs 101: WRITE 199's.
        assertThat(t.completionNeeded(128)).isEqualTo(99);
        assertThat(t.completionNeeded(227)).isEqualTo(99);
        assertThat(t.completionNeeded(228)).isEqualTo(199);
        TaskGraph g = new TaskGraph();
        t.addTo(g, 2, null);
        assertThat(g.flowCount()).isEqualTo(300);
        assertThat(g.dependencyCount(g.flowTask(127))).isZero();
        assertThat(g.dependencyCount(g.flowTask(128))).isEqualTo(1);
        int d = g.dependency(g.flowTask(128), 0);
        assertThat(TaskGraph.isAck(d)).isTrue();
        assertThat(TaskGraph.target(d)).isEqualTo(g.flowTask(99));
        assertThat(g.flowSpec(0).dscp()).isEqualTo(-1);
        TaskGraph marked = new TaskGraph();
        new PerftestTraffic(1, 0, 2, 5, 1, 1, 1, true, false, 26).addTo(marked, 2, null);
        assertThat(marked.flowSpec(1).dscp()).isEqualTo(26);
        // With a moderation of 1 a WRITE waits for the one exactly the depth before it.
        PerftestTraffic every = new PerftestTraffic(1, 0, 2, 50, 1, 8, 1, false, false, -1);
        for (int m = 8; m < 50; m++) {
            assertThat(every.completionNeeded(m)).isEqualTo(m - 8);
        }
    }

    @Test
    void shouldPingPongEachWriteAfterTheAnswerAndItsOwnCompletion() {
        TaskGraph g = new TaskGraph();
        new PerftestTraffic(1, 0, 2, 5, 1, 1, 1, true, false, -1).addTo(g, 2, null);
        assertThat(g.flowCount()).isEqualTo(10);
        // Flow 2 (the client's second WRITE) waits for its first WRITE's ACK and the server's answer (flow 1).
        int ping = g.flowTask(2);
        assertThat(g.dependencyCount(ping)).isEqualTo(2);
        assertThat(List.of(g.dependency(ping, 0), g.dependency(ping, 1)))
                .containsExactlyInAnyOrder(TaskGraph.acked(g.flowTask(0)), g.flowTask(1));
        // Flow 3 (the server's second) waits for the client's WRITE to land and its own first WRITE's ACK.
        int pong = g.flowTask(3);
        assertThat(List.of(g.dependency(pong, 0), g.dependency(pong, 1)))
                .containsExactlyInAnyOrder(g.flowTask(2), TaskGraph.acked(g.flowTask(1)));
    }

    @Test
    void shouldGiveTheLinksPayloadRateOnAnIdleFabric() {
        // 64 KiB in 66 packets of 1000 B and one of 536: the link's payload share of 100 Gb/s.
        long payload = 65536;
        long wire = wire(1000, true) + 64 * wire(1000, false) + wire(536, false);
        double expected = 100e9 / 8 * payload / wire;
        Perftest.BandwidthRow r = Perftest.bandwidth(twoHosts("none"),
                new PerftestTraffic(1, 0, payload, 2000, 1, 128, 100, false, false, -1), true, ProgressListener.NONE);
        assertThat(r.completed()).isTrue();
        assertThat(r.iterations()).isEqualTo(2000);
        // The average includes one round trip of the first WRITE and the last ACK over 2000 messages: 0.05 %.
        assertThat(r.averageBytesPerSecond()).isCloseTo(expected, within(expected * 0.001));
        assertThat(r.averageBytesPerSecond()).isLessThan(expected);
        assertThat(r.peakBytesPerSecond()).isGreaterThanOrEqualTo(r.averageBytesPerSecond())
                .isLessThanOrEqualTo(expected * 1.0001);
        assertThat(r.messagesPerSecond()).isCloseTo(r.averageBytesPerSecond() / payload, within(1.0));
        // Four QPs share the link: the same rate in all.
        Perftest.BandwidthRow four = Perftest.bandwidth(twoHosts("dcqcn"),
                new PerftestTraffic(1, 0, payload, 500, 4, 128, 100, false, false, -1), false, ProgressListener.NONE);
        assertThat(four.iterations()).isEqualTo(2000);
        assertThat(four.peakBytesPerSecond()).isZero();
        assertThat(four.averageBytesPerSecond()).isCloseTo(expected, within(expected * 0.001));
    }

    @Test
    void shouldSumBothSidesWhenBidirectional() {
        // Each direction of a full-duplex link carries its own WRITEs (and the other's ACKs, 1 per packet of 1000 B:
        // ACK frames of 86 B on the wire, so each side's share is its payload over data and ACK bytes).
        long payload = 65536;
        long wire = wire(1000, true) + 64 * wire(1000, false) + wire(536, false);
        long acks = 66 * (14 + 20 + 8 + 12 + 4 + 4 + 4 + 20);
        double expected = 100e9 / 8 * payload / (wire + acks);
        Perftest.BandwidthRow r = Perftest.bandwidth(twoHosts("none"),
                new PerftestTraffic(1, 0, payload, 1000, 1, 128, 100, false, true, -1), true, ProgressListener.NONE);
        assertThat(r.iterations()).isEqualTo(1000);
        assertThat(r.averageBytesPerSecond()).isCloseTo(2 * expected, within(2 * expected * 0.002));
        TaskGraph g = new TaskGraph();
        new PerftestTraffic(1, 0, 2, 10, 2, 4, 2, false, true, -1).addTo(g, 2, null);
        assertThat(g.flowCount()).isEqualTo(40);
        assertThat(g.flowSpec(19).src()).isEqualTo(1);
        assertThat(g.flowSpec(20).src()).isZero();
    }

    @Test
    void shouldBeLimitedByTheDepthAndModerationForSmallWrites() {
        // 2-byte WRITEs: the link could carry 125 M frames a second, but a QP learns of completions 100 at a time, so
        // it sends about 100 WRITEs per round trip once the first 128 are out.
        Perftest.BandwidthRow r = Perftest.bandwidth(twoHosts("none"),
                new PerftestTraffic(1, 0, 2, 5000, 1, 128, 100, false, false, -1), true, ProgressListener.NONE);
        double rtt = 2 * (2 * (wire(2, true) * 8 / 100e9 + 1e-6));
        assertThat(r.messagesPerSecond()).isBetween(100 / (rtt * 1.3), 128 / rtt);
    }

    @Test
    void shouldGiveHalfTheRoundTripOfASmallWriteAsItsLatency() {
        // A 2-byte WRITE crosses two links: its frame's serialisation and 1 us on each, then the answer comes back.
        Perftest.LatencyRow r = Perftest.latency(twoHosts("dcqcn"),
                new PerftestTraffic(1, 0, 2, 100, 1, 1, 1, true, false, -1), ProgressListener.NONE);
        double oneWayUs = 2 * (wire(2, true) * 8 / 100e9 + 1e-6) * 1e6;
        assertThat(r.completed()).isTrue();
        assertThat(r.iterations()).isEqualTo(100);
        // The answer leaves the server behind the ACK its RNIC sends first: a few nanoseconds more.
        assertThat(r.typicalUs()).isCloseTo(oneWayUs, within(0.01));
        assertThat(r.minUs()).isEqualTo(r.maxUs()).isEqualTo(r.typicalUs());
        // A 1000-byte WRITE: its whole frame at each hop, store and forward.
        Perftest.LatencyRow big = Perftest.latency(twoHosts("dcqcn"),
                new PerftestTraffic(1, 0, 1000, 20, 1, 1, 1, true, false, -1), ProgressListener.NONE);
        double bigUs = 2 * (wire(1000, true) * 8 / 100e9 + 1e-6) * 1e6;
        assertThat(big.typicalUs()).isCloseTo(bigUs, within(0.02));
    }

    @Test
    void shouldComputeTheLatencyStatisticsAsPerftestDoes() {
        // Round trips (ps) of 10 iterations: 9 intervals; the two largest dropped; 7 remain, median the 4th.
        long[] rtt = {4_000_000, 4_200_000, 4_000_000, 9_000_000, 4_400_000, 4_000_000, 8_000_000, 4_600_000,
            4_800_000};
        long[] posted = new long[rtt.length + 1];
        for (int i = 0; i < rtt.length; i++) {
            posted[i + 1] = posted[i] + rtt[i];
        }
        Perftest.LatencyRow r = Perftest.latencyRow(2, posted);
        // Sorted halves (us): 2.0 2.0 2.0 2.1 2.2 2.3 2.4 | 4.0 4.5 dropped.
        assertThat(r.minUs()).isEqualTo(2.0);
        assertThat(r.typicalUs()).isEqualTo(2.1);
        assertThat(r.averageUs()).isCloseTo(15.0 / 7, within(1e-12));
        // perftest's index past the kept ones: the max column is the first dropped sample.
        assertThat(r.maxUs()).isEqualTo(4.0);
        // Every deviation under a microsecond: truncated to 0 before squaring, as perftest's int does.
        assertThat(r.stdevUs()).isZero();
        assertThat(r.p99Us()).isEqualTo(4.0);
        // An even count of kept samples: the median is the mean of the middle two (perftest's get_median).
        long[] six = {0, 2_000_000, 4_000_000, 8_000_000, 14_000_000, 24_000_000, 38_000_000, 56_000_000, 80_000_000};
        Perftest.LatencyRow e = Perftest.latencyRow(2, six);
        // Round trips 2 2 4 6 10 14 18 24 us, halved 1 1 2 3 5 7 9 12; kept 1 1 2 3 5 7: median (2 + 3) / 2.
        assertThat(e.typicalUs()).isEqualTo(2.5);
        assertThat(e.stdevUs()).isGreaterThan(0);
    }

    /** perftest's own peak loop (print_report_bw), every pair: the reference for {@link Perftest#peakInterval}. */
    private static double peakByEveryPair(long[] posted, long[] completed, int cqMod) {
        int n = posted.length;
        double best = Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            for (int j = (i + cqMod) / cqMod * cqMod - 1; j < n; j += cqMod) {
                if (completed[j] >= 0) {
                    best = Math.min(best, (double) (completed[j] - posted[i]) / (j - i + 1));
                }
            }
            if (n % cqMod != 0) {
                best = Math.min(best, (double) (completed[n - 1] - posted[i]) / (n - i));
            }
        }
        return best;
    }

    /**
     * The peak over the upper hull equals perftest's every-pair loop, on posts and completions of any shape (bursts,
     * stalls, moderation with and without a remainder), and takes well under a second for 80,000 WRITEs at a
     * moderation of 1 (-q 16 of the default 64 KiB ib_write_bw; every pair took 22 s).
     */
    @Test
    void shouldFindPerftestsPeakWithoutTryingEveryPair() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + random.nextInt(300);
            int cqMod = 1 + random.nextInt(Math.min(n, 40));
            long[] posted = new long[n];
            long[] completed = new long[n];
            Arrays.fill(completed, -1);
            long t = 0;
            for (int i = 0; i < n; i++) {
                t += random.nextInt(4) == 0 ? random.nextLong(50_000) : random.nextLong(50);
                posted[i] = t;
            }
            long c = posted[0];
            for (int j = 0; j < n; j++) {
                c = Math.max(c, posted[j]) + 1 + random.nextLong(random.nextInt(5) == 0 ? 100_000 : 1_000);
                if ((j + 1) % cqMod == 0 || j == n - 1) {
                    completed[j] = c;
                }
            }
            assertThat(Perftest.peakInterval(posted, completed, cqMod)).as("trial %d", trial)
                    .isCloseTo(peakByEveryPair(posted, completed, cqMod), within(1e-6));
        }
        int n = 80_000;
        long[] posted = new long[n];
        long[] completed = new long[n];
        for (int i = 0; i < n; i++) {
            posted[i] = i < 2048 ? 0 : (i - 2047) * 5_243_000L + 2_000_000;
            completed[i] = (i + 1) * 5_243_000L + 2_000_000;
        }
        // The default 64 KiB run on 16 QPs: 80,000 WRITEs at a moderation of 1 (no wall time asserted here: speed is
        // for benchmarks, never a unit test).
        assertThat(Perftest.peakInterval(posted, completed, 1)).isCloseTo(5_243_000 + 2_000_000.0 / n, within(1e-6));
    }
}
