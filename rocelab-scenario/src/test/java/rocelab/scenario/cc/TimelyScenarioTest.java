package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static rocelab.scenario.cc.CcScenarios.incast;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.scenario.cc.CcScenarios.Outcome;

/**
 * TIMELY on an incast. With the reference thresholds (T_low 50 us, T_high 500 us) and one update per RTT, a
 * line-rate start reacts only once the RTT has grown: the rates fall to the floor at about 350 us, with 28 MB
 * queued, and that queue takes until about 2.9 ms to drain (one update per 2 ms RTT meanwhile). From then on the
 * senders cycle between the floor and about 19 Gb/s with the queue between 0 and about 1 MB, far below T_high x C
 * (6.25 MB), while the queue without control keeps growing.
 */
class TimelyScenarioTest {
    @Test
    void shouldCutRatesAndKeepQueueBelowHighThresholdWhenEightLongSendersConverge() {
        Outcome none = CcScenarios.run(incast(8, "8MB", "cc: none", ""), Time.ms(3));
        Outcome timely = CcScenarios.run(incast(8, "8MB", "cc: timely", ""), Time.ms(3));
        assertThat(timely.allCompleted()).isTrue();
        assertThat(timely.result().totals().packetsDropped()).isZero();
        assertThat(timely.result().totals().rateCuts()).isPositive();
        long noneQueue = none.result().totals().maxQueueBytes();
        assertThat(timely.result().totals().maxQueueBytes()).as("vs %d B without control", noneQueue)
                .isLessThan(noneQueue / 2);
        assertThat(timely.queue().meanBytes()).as("time-averaged queue vs %.0f B", none.queue().meanBytes())
                .isLessThan(none.queue().meanBytes() / 3);
        assertThat(timely.queue().peakAfterSettleBytes()).as("after the first drain (3 ms)").isLessThan(2_000_000L);
        assertThat(none.queue().peakAfterSettleBytes()).isGreaterThan(20_000_000L);
    }
}
