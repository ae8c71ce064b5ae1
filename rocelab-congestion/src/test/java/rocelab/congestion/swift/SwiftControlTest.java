package rocelab.congestion.swift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/** Swift's per-ACK rule against values worked out by hand from the reference (mechanisms section 8.4). */
class SwiftControlTest {
    private static final long G100 = 100_000_000_000L;
    /** fs_alpha = 100 us / (1/sqrt(0.1) - 1/sqrt(100)), in picoseconds. */
    private static final double FS_ALPHA = 1e8 / (1 / Math.sqrt(0.1) - 0.1);
    private static final double FS_BETA = -FS_ALPHA / 10;

    private final AckFeedback feedback = new AckFeedback();
    private long psn = -1;

    /** htsim defaults, MSS 1000 B, no per-hop scaling. */
    private static SwiftControl control() {
        return new SwiftControl(SwiftParameters.resolve(Map.of("hop-delay", 0.0, "mss", 1000.0), G100));
    }

    private void ack(SwiftControl cc, long nowUs, long rttUs, long newly) {
        psn += newly / 1000;
        cc.onAck(Time.us(nowUs), feedback.fill(newly, Time.us(rttUs), psn, 0, null));
    }

    @Test
    void shouldClampFlowScalingToItsRangeWhenWindowVaries() {
        SwiftControl cc = control();
        assertThat(cc.wantsTelemetry()).isFalse();
        assertThat(cc.targetDelayPs(10_000)).as("10 packets").isCloseTo(2e7 + FS_ALPHA / Math.sqrt(10) + FS_BETA,
                within(1e-3));
        assertThat(cc.targetDelayPs(10_000)).isCloseTo(2e7 + 7.0612e6, within(1e3));
        assertThat(cc.targetDelayPs(100_000)).as("fs_max_cwnd: no scaling").isCloseTo(2e7, within(1e-3));
        assertThat(cc.targetDelayPs(50)).as("0.05 packets: capped at fs_range").isCloseTo(2e7 + 1e8, within(1e-3));
    }

    @Test
    void shouldIncreaseBelowTargetAndCutAtMostOncePerRttWhenDelayCrossesTarget() {
        SwiftControl cc = control();
        assertThat(cc.windowBytes()).isEqualTo(Long.MAX_VALUE);
        // First ACK: cwnd = B x rtt = 125 000 B (125 packets, fs = 0, target 20 us); 10 < 20: + 1 x MSS x 1000/cwnd.
        ack(cc, 10, 10, 1000);
        assertThat(cc.congestionWindowBytes()).isCloseTo(125_008, within(1e-9));
        assertThat(cc.smoothedRttPs()).isEqualTo(1e7);
        // 50 us > 20 us: cwnd x max(1 - 0.8 x 30/50, 1 - 0.5) = x 0.52.
        ack(cc, 20, 50, 1000);
        double cwnd = 125_008 * 0.52;
        assertThat(cc.congestionWindowBytes()).isCloseTo(cwnd, within(1e-6));
        assertThat(cc.smoothedRttPs()).as("srtt = 10 + (50 - 10)/8").isEqualTo(1.5e7);
        // 5 us after the cut, less than srtt (15 us): no second cut.
        ack(cc, 25, 50, 1000);
        assertThat(cc.congestionWindowBytes()).isCloseTo(cwnd, within(1e-6));
        assertThat(cc.smoothedRttPs()).isEqualTo(1.9375e7);
        // 20 us after the cut >= srtt 19.375 us: delay 200 us, 1 - 0.8 x (200 - target)/200 < 0.5: max_mdf.
        ack(cc, 40, 200, 1000);
        cwnd *= 0.5;
        assertThat(cc.congestionWindowBytes()).isCloseTo(cwnd, within(1e-6));
        assertThat(cc.rateBps()).as("a window of packets: not paced").isEqualTo(G100);
        assertThat(cc.windowBytes()).isEqualTo((long) cwnd);
        assertThat(cc.rateCuts()).isEqualTo(2);
    }

    @Test
    void shouldResetToMinWindowAndPaceBelowOnePacketWhenLossesRepeat() {
        SwiftControl cc = control();
        ack(cc, 10, 10, 1000);
        ack(cc, 20, 50, 1000);
        ack(cc, 25, 50, 1000);
        ack(cc, 40, 200, 1000);
        double srtt = 1.9375e7 + (2e8 - 1.9375e7) / 8;
        assertThat(cc.smoothedRttPs()).isEqualTo(srtt);
        double cwnd = cc.congestionWindowBytes();
        for (int i = 1; i <= 4; i++) {
            cc.onLoss(Time.us(50));
            assertThat(cc.congestionWindowBytes()).as("loss %d, 10 us after the last cut", i).isEqualTo(cwnd);
        }
        cc.onLoss(Time.us(50)); // the 5th loss with no ACK in between: min_cwnd
        assertThat(cc.congestionWindowBytes()).isEqualTo(10);
        assertThat(cc.windowBytes()).isEqualTo(10);
        assertThat(cc.rateBps()).as("paced at cwnd / srtt").isEqualTo((long) (10 * 8e12 / srtt));
        // Target at 0.01 packet is base + fs_range = 120 us; below it a sub-packet window grows by ai x acked.
        ack(cc, 300, 30, 1000);
        assertThat(cc.congestionWindowBytes()).isEqualTo(1010);
        assertThat(cc.rateBps()).isEqualTo(G100);
    }

    @Test
    void shouldCutByMaxMdfOnLossWhenItMayDecrease() {
        SwiftControl cc = control();
        ack(cc, 10, 10, 1000);
        double cwnd = cc.congestionWindowBytes();
        cc.onLoss(Time.us(30));
        assertThat(cc.congestionWindowBytes()).isEqualTo(cwnd * 0.5);
    }

    @Test
    void shouldLearnMssFromAcksAndScaleTargetByHopsWhenHopDelayIsOn() {
        SwiftControl cc = new SwiftControl(SwiftParameters.defaults(G100));
        assertThat(cc.wantsTelemetry()).isTrue();
        PacketPool pool = new PacketPool(16);
        Packet p = pool.acquire().requestTelemetry();
        p.stampTelemetry(0, 0, 0, G100);
        p.stampTelemetry(0, 0, 0, G100);
        p.stampTelemetry(0, 0, 0, G100);
        cc.onAck(Time.us(5), feedback.fill(4096 * 3, Time.us(5), 2, 0, p));
        assertThat(cc.mssBytes()).isEqualTo(4096);
        cc.onAck(Time.us(6), feedback.fill(100, Time.us(5), 3, 0, p));
        assertThat(cc.mssBytes()).as("a short last packet does not shrink it").isEqualTo(4096);
        double h = 2e7 / 6.55;
        assertThat(cc.targetDelayPs(409_600)).as("3 hops, 100 packets").isCloseTo(2e7 + 3 * Math.round(h),
                within(1e-3));
    }

    @Test
    void shouldDeriveHopDelayAndRangeWhenBaseDelayIsOverridden() {
        SwiftParameters d = SwiftParameters.defaults(G100);
        assertThat(d.baseDelayPs()).isEqualTo(Time.us(20));
        assertThat(d.fsRangePs()).isEqualTo(Time.us(100));
        assertThat(d.beta()).isEqualTo(0.8);
        assertThat(d.maxMdf()).isEqualTo(0.5);
        assertThat(d.minCwndBytes()).isEqualTo(10);
        assertThat(d.maxCwndPackets()).isEqualTo(1000);
        SwiftParameters o = SwiftParameters.resolve(Map.of("base-delay", 1e7), G100);
        assertThat(o.hopDelayPs()).isEqualTo(Math.round(1e7 / 6.55));
        assertThat(o.fsRangePs()).isEqualTo(Time.us(50));
        assertThatThrownBy(() -> SwiftParameters.resolve(Map.of("max-mdf", 1.0), G100))
                .hasMessageContaining("max-mdf");
        assertThatThrownBy(() -> SwiftParameters.resolve(Map.of("target", 1.0), G100))
                .hasMessageContaining("target");
    }
}
