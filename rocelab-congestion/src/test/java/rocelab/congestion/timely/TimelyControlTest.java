package rocelab.congestion.timely;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.congestion.AckFeedback;

/** TIMELY's per-RTT rule against values worked out by hand from the reference (mechanisms section 8.2). */
class TimelyControlTest {
    private static final long G100 = 100_000_000_000L;
    private static final double DELTA = 100e6;
    private static final double HAI = 500e6;

    private final AckFeedback feedback = new AckFeedback();
    private final TimelyControl cc = new TimelyControl(TimelyParameters.defaults(G100));
    private long acked;

    /** An ACK that acknowledges {@code newly} bytes and leaves {@code unacked} outstanding. */
    private void ack(long newly, long unacked, long rttUs) {
        acked += newly;
        cc.onAck(0, feedback.fill(newly, Time.us(rttUs), 0, unacked, null));
    }

    @Test
    void shouldUseReferenceDefaultsScaledToLineRateWhenNothingIsOverridden() {
        TimelyParameters p = TimelyParameters.defaults(G100);
        assertThat(p.tLowPs()).isEqualTo(Time.us(50));
        assertThat(p.tHighPs()).isEqualTo(Time.us(500));
        assertThat(p.minRttPs()).isEqualTo(Time.us(20));
        assertThat(p.alpha()).isEqualTo(0.875);
        assertThat(p.beta()).isEqualTo(0.8);
        assertThat(p.aiRateBps()).as("10 Mb/s per 10 Gb/s").isEqualTo(100_000_000L);
        assertThat(p.haiRateBps()).isEqualTo(500_000_000L);
        assertThat(p.haiAfter()).isEqualTo(5);
        assertThat(TimelyParameters.defaults(10_000_000_000L).aiRateBps()).isEqualTo(10_000_000L);
        assertThat(cc.rateBps()).isEqualTo(G100);
        assertThat(cc.windowBytes()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldCutByGradientThenIncreaseAndGoHyperAfterFiveIncreasesWhenRttFalls() {
        ack(1000, 9_000, 60); // first sample: 10 000 B sent marks the end of the first RTT
        ack(1000, 8_000, 300);
        assertThat(cc.rateBps()).as("at most one update per RTT").isEqualTo(G100);
        // 11 000 B acked > 10 000: update. rtt_diff = 0.875 x (70 - 60) = 8.75 us, g = 8.75/20 = 0.4375,
        // 50 < 70 < 500: R x (1 - 0.8 x 0.4375) = 65 Gb/s.
        ack(9_000, 5_000, 70);
        assertThat(cc.rttDiffPs()).isCloseTo(Time.ns(8750), within(1e-6));
        assertThat((double) cc.rateBps()).isCloseTo(65e9, within(1.0));
        assertThat(cc.rateCuts()).isEqualTo(1);
        // rtt_diff = 0.125 x 8.75 + 0.875 x (65 - 70) = -3.28125 us: gradient <= 0, R + delta.
        ack(6_000, 5_000, 65);
        assertThat(cc.rttDiffPs()).isCloseTo(-3_281_250.0, within(1e-6));
        double r = 65e9 + DELTA;
        assertThat((double) cc.rateBps()).isCloseTo(r, within(1.0));
        // Below T_low: four more delta steps (stages 1..4), then the hyper step at stage 5.
        for (int i = 0; i < 5; i++) {
            ack(6_000, 5_000, 40);
            r += i < 4 ? DELTA : HAI;
            assertThat((double) cc.rateBps()).as("increase %d", i + 2).isCloseTo(r, within(1.0));
        }
        assertThat(cc.incStage()).isEqualTo(6);
        // Above T_high: R x (1 - 0.8 x (1 - 500/600)).
        ack(6_000, 5_000, 600);
        r *= 1 - 0.8 * (1 - 500.0 / 600);
        assertThat((double) cc.rateBps()).isCloseTo(r, within(1.0));
        assertThat(cc.incStage()).isZero();
    }

    @Test
    void shouldStayWithinMinAndLineRateWhenSignalsAreExtreme() {
        ack(1000, 1_000, 10);
        for (int i = 0; i < 3; i++) {
            ack(2_000, 1_000, 10);
        }
        assertThat(cc.rateBps()).as("capped at line rate").isEqualTo(G100);
        // rtt jumps from 10 to 400 us: g = 0.875 x 390 / 20 = 17, 1 - 0.8 g < 0: the rate falls to the floor.
        ack(2_000, 1_000, 400);
        assertThat(cc.rateBps()).isEqualTo(1_000_000_000L);
    }

    @Test
    void shouldCountBytesButSkipTheRuleWhenAckHasNoRttSample() {
        ack(1000, 9_000, 60);
        cc.onAck(0, feedback.fill(20_000, -1, 0, 0, null));
        ack(1000, 0, 70);
        // The NAK-path ACK had no sample but its bytes count: this ACK closes the RTT and is the update.
        assertThat(cc.rateBps()).isLessThan(G100);
    }

    @Test
    void shouldApplyOverridesAndRejectUnknownKeysWhenScenarioGivesThem() {
        TimelyParameters p = TimelyParameters.resolve(Map.of("t-low", 1e7, "ai-rate", 2e7, "hai-after", 3.0), G100);
        assertThat(p.tLowPs()).isEqualTo(Time.us(10));
        assertThat(p.haiRateBps()).as("hai follows ai").isEqualTo(100_000_000L);
        assertThat(p.haiAfter()).isEqualTo(3);
        assertThatThrownBy(() -> TimelyParameters.resolve(Map.of("t-low", 6e8), G100)).hasMessageContaining("t-low");
        assertThatThrownBy(() -> TimelyParameters.resolve(Map.of("delta", 1.0), G100)).hasMessageContaining("delta");
    }
}
