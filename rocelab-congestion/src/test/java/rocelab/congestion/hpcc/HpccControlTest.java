package rocelab.congestion.hpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/** HPCC's per-ACK rule against values worked out by hand from the reference (mechanisms section 8.1). */
class HpccControlTest {
    private static final long G100 = 100_000_000_000L;
    private static final long AI = 40_000_000L;
    private static final long T = Time.us(10);
    private static final long T0 = Time.us(100);

    private final PacketPool pool = new PacketPool(16);
    private final AckFeedback feedback = new AckFeedback();

    /** The ACK the feedback reads: released only when the next is made (a released packet's telemetry is gone). */
    private Packet lastAck;

    /** An ACK whose data packet crossed one switch egress of 100 Gb/s. */
    private AckFeedback ack(long newly, long unacked, long hopTimePs, long txBytes, long queueBytes) {
        if (lastAck != null) {
            pool.release(lastAck);
        }
        Packet p = pool.acquire().requestTelemetry();
        p.stampTelemetry(hopTimePs, txBytes, queueBytes, G100);
        feedback.fill(newly, T, 0, unacked, p);
        lastAck = p;
        return feedback;
    }

    private static HpccControl control(int maxStage) {
        return new HpccControl(new HpccParameters(0.95, maxStage, AI, T, 1_000_000_000L, G100, 5));
    }

    @Test
    void shouldStartAtLineRateWithOneBdpWindowWhenBaseRttIsGiven() {
        HpccControl cc = control(5);
        assertThat(cc.wantsTelemetry()).isTrue();
        assertThat(cc.rateBps()).isEqualTo(G100);
        assertThat(cc.windowBytes()).as("B x T = 100 Gb/s x 10 us").isEqualTo(125_000);
    }

    @Test
    void shouldCommitOncePerRttWhenOtherAcksOnlyFastReact() {
        HpccControl cc = control(5);
        // First ACK: telemetry stored, 100 000 B sent so far marks the end of this RTT.
        cc.onAck(T0, ack(1000, 99_000, T0, 1_000_000, 0));
        assertThat(cc.rateBps()).isEqualTo(G100);
        // 1 us later the hop sent 12 500 B (100 Gb/s: txRate/B = 1) and holds 50 KB, but min(q, q_prev) = 0.
        // U = (1 - 0.1) x 1 + 0.1 x 1 = 1; W = Wc / (1/0.95) + W_AI -> R = 100 G x 0.95 + 40 M.
        cc.onAck(T0 + Time.us(1), ack(1000, 98_000, T0 + Time.us(1), 1_012_500, 50_000));
        assertThat(cc.utilisation()).isCloseTo(1.0, within(1e-12));
        assertThat((double) cc.rateBps()).isCloseTo(95.04e9, within(1.0));
        assertThat(cc.referenceRateBps()).as("fast react does not commit Wc").isEqualTo(1e11);
        // Next us: 6 250 B (0.5) and min(25 KB, 50 KB) = 25 KB = 0.2 of B x T: u = 0.7, U = 0.9 + 0.07 = 0.97.
        cc.onAck(T0 + Time.us(2), ack(1000, 97_000, T0 + Time.us(2), 1_018_750, 25_000));
        assertThat(cc.utilisation()).isCloseTo(0.97, within(1e-12));
        assertThat((double) cc.rateBps()).isCloseTo(1e11 / (0.97 / 0.95) + AI, within(1.0));
        assertThat(cc.incStage()).isZero();
        // 3 000 + 98 000 B acked passes the 100 000 B mark: full update. 12 500 B again (1.0) and min(50 KB, 25 KB)
        // = 0.2: u = 1.2. U = 0.9 x 0.97 + 0.1 x 1.2 = 0.993; committed: Rc = 100 G / (0.993/0.95) + 40 M.
        cc.onAck(T0 + Time.us(3), ack(98_000, 20_000, T0 + Time.us(3), 1_031_250, 50_000));
        double u = 0.9 * 0.97 + 0.1 * 1.2;
        double rc = 1e11 / (u / 0.95) + AI;
        assertThat(cc.utilisation()).isCloseTo(u, within(1e-12));
        assertThat(cc.referenceRateBps()).isCloseTo(rc, within(1.0));
        assertThat((double) cc.rateBps()).isCloseTo(rc, within(1.0));
        assertThat(cc.windowBytes()).as("W = R x T").isEqualTo((long) (cc.rateBps() * 1e-5 / 8));
        assertThat(cc.rateCuts()).isEqualTo(1);
    }

    @Test
    void shouldIncreaseAdditivelyThenMultiplicativelyWhenUtilisationStaysBelowEtaForMaxStageRounds() {
        HpccControl cc = control(1);
        long sent = 10_000;
        long acked = 1000;
        long tx = 1_000_000;
        cc.onAck(T0, ack(1000, sent - acked, T0, tx, 500_000));
        // Samples 10 us apart, so tau = T and U = u. First a full link with 500 KB queued on both samples:
        // u = 1 + 500 KB / 125 KB = 5, a cut to Rc = 100 G / (5/0.95) + 40 M.
        double expected = 1e11 / (5 / 0.95) + AI;
        long now = T0;
        for (int round = 0; round < 4; round++) {
            now += T;
            tx += round == 0 ? 125_000 : 62_500; // then 50 Gb/s and an empty queue: u = 0.5
            sent += 10_000;
            long newly = sent - 5_000 - acked;
            acked += newly;
            cc.onAck(now, ack(newly, sent - acked, now, tx, round == 0 ? 500_000 : 0));
            if (round == 0) {
                assertThat(cc.utilisation()).isCloseTo(5, within(1e-12));
                assertThat(cc.incStage()).isZero();
            } else if (round % 2 == 1) {
                expected += AI; // stage 0 < maxStage 1: W = Wc + W_AI
                assertThat(cc.utilisation()).isCloseTo(0.5, within(1e-12));
                assertThat(cc.incStage()).isEqualTo(1);
            } else {
                expected = expected / (0.5 / 0.95) + AI; // stage >= maxStage: W = Wc / (U/eta) + W_AI
                assertThat(cc.incStage()).as("the multiplicative step resets the stage").isZero();
            }
            assertThat(cc.referenceRateBps()).as("round %d", round).isCloseTo(expected, within(1.0));
        }
        assertThat(cc.rateCuts()).isEqualTo(1);
    }

    @Test
    void shouldNotGoBelowMinRateWhenTheQueueIsHuge() {
        HpccControl cc = control(5);
        cc.onAck(T0, ack(1000, 9_000, T0, 1_000_000, 10_000_000));
        cc.onAck(T0 + T, ack(20_000, 1_000, T0 + T, 1_125_000, 10_000_000));
        // u = 1 + 10 MB / 125 KB = 81: R = 100 G / (81/0.95) + 40 M, about 1.21 Gb/s; again: below 1 Gb/s.
        assertThat((double) cc.rateBps()).isCloseTo(1e11 / (81 / 0.95) + AI, within(1.0));
        cc.onAck(T0 + 2 * T, ack(20_000, 1_000, T0 + 2 * T, 1_250_000, 10_000_000));
        assertThat(cc.rateBps()).isEqualTo(1_000_000_000L);
        assertThat(cc.windowBytes()).isEqualTo(1_250);
    }

    @Test
    void shouldLearnBaseRttFromTheSmallestSampleWhenNoneIsGiven() {
        HpccControl cc = new HpccControl(HpccParameters.defaults(G100));
        assertThat(cc.windowBytes()).as("no T yet: no window").isEqualTo(Long.MAX_VALUE);
        Packet p = pool.acquire().requestTelemetry();
        p.stampTelemetry(T0, 0, 0, G100);
        cc.onAck(T0, feedback.fill(1000, Time.us(8), 0, 0, p));
        assertThat(cc.baseRttPs()).isEqualTo(Time.us(8));
        assertThat(cc.windowBytes()).isEqualTo(100_000);
        cc.onAck(T0, feedback.fill(0, Time.us(12), 0, 0, p));
        cc.onAck(T0, feedback.fill(0, Time.us(6), 0, 0, p));
        assertThat(cc.baseRttPs()).isEqualTo(Time.us(6));
    }

    @Test
    void shouldOnlyStoreTelemetryWhenTheHopCountChanges() {
        HpccControl cc = control(5);
        cc.onAck(T0, ack(1000, 99_000, T0, 1_000_000, 0));
        Packet two = pool.acquire().requestTelemetry();
        two.stampTelemetry(T0 + Time.us(1), 5_000_000, 100_000, G100);
        two.stampTelemetry(T0 + Time.us(1), 7_000_000, 100_000, G100);
        cc.onAck(T0 + Time.us(1), feedback.fill(1000, T, 1, 98_000, two));
        assertThat(cc.rateBps()).as("a new path: nothing to compare with").isEqualTo(G100);
        assertThat(cc.utilisation()).isEqualTo(1.0);
    }

    @Test
    void shouldResolveDefaultsAndOverridesWhenScenarioGivesSome() {
        HpccParameters d = HpccParameters.defaults(G100);
        assertThat(d).isEqualTo(new HpccParameters(0.95, 5, 40_000_000L, 0, 1_000_000_000L, G100, 5));
        assertThat(HpccParameters.defaults(400_000_000_000L).aiRateBps()).isEqualTo(160_000_000L);
        HpccParameters o = HpccParameters.resolve(Map.of("eta", 0.9, "max-stage", 0.0, "base-rtt", 1e7), G100);
        assertThat(o.eta()).isEqualTo(0.9);
        assertThat(o.maxStage()).isZero();
        assertThat(o.baseRttPs()).isEqualTo(Time.us(10));
        assertThatThrownBy(() -> HpccParameters.resolve(Map.of("etta", 0.9), G100))
                .hasMessageContaining("etta").hasMessageContaining("eta");
        assertThatThrownBy(() -> HpccParameters.resolve(Map.of("eta", 0.0), G100)).hasMessageContaining("eta");
    }

    @Test
    void shouldAllocateNothingPerAckWhenWarm() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        HpccControl cc = control(5);
        Packet p = pool.acquire().requestTelemetry();
        for (int i = 0; i < 20_000; i++) {
            drive(cc, p, i);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 20_000; i < 120_000; i++) {
            drive(cc, p, i);
        }
        assertThat(threads.getThreadAllocatedBytes(id) - before).isLessThan(1024);
    }

    private void drive(HpccControl cc, Packet p, int i) {
        p.requestTelemetry();
        p.stampTelemetry(T0 + i * 80_000L, i * 1_000L, (i % 50) * 1_000L, G100);
        p.stampTelemetry(T0 + i * 80_000L, i * 1_000L, (i % 70) * 1_000L, G100);
        cc.onAck(T0 + i * 80_000L, feedback.fill(1000, T + (i % 13) * 1000L, i, 20_000, p));
    }
}
