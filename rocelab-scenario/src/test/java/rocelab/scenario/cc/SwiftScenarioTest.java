package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static rocelab.scenario.cc.CcScenarios.closedFormSeconds;
import static rocelab.scenario.cc.CcScenarios.incast;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.scenario.cc.CcScenarios.Outcome;

/** Swift on an incast: the delay target bounds the queue without any switch support but the hop count. */
class SwiftScenarioTest {
    @Test
    void shouldHoldQueueingDelayBelowTargetWhenEightSendersConverge() {
        Outcome none = CcScenarios.run(incast(8, "2MB", "cc: none", ""), Time.us(100));
        Outcome swift = CcScenarios.run(incast(8, "2MB", "cc: swift", ""), Time.us(100));
        assertThat(swift.allCompleted()).isTrue();
        assertThat(swift.result().totals().packetsDropped()).isZero();
        assertThat(swift.result().totals().rateCuts()).isPositive();
        long noneQueue = none.result().totals().maxQueueBytes();
        assertThat(swift.result().totals().maxQueueBytes()).as("vs %d B without control", noneQueue)
                .isLessThan(noneQueue / 20);
        // Target: 20 us base + 1 hop x 3.05 us + flow scaling (about 8 us at 8 packets per flow), RTT about 4 us
        // without queueing: roughly 27 us of queue, 340 KB at 100 Gb/s; never more than the 100 us scaling range.
        long settled = swift.queue().peakAfterSettleBytes();
        assertThat(settled).isBetween(100_000L, 500_000L);
        double ideal = closedFormSeconds(8, 2_000_000);
        assertThat(swift.lastFinishPs() / 1e12).as("a standing queue keeps the link busy").isBetween(ideal,
                ideal * 1.02);
    }
}
