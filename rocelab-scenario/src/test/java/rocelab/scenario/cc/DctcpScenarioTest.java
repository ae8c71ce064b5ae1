package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static rocelab.scenario.cc.CcScenarios.closedFormSeconds;
import static rocelab.scenario.cc.CcScenarios.incast;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.scenario.cc.CcScenarios.Outcome;

/** DCTCP-style control with a single-threshold (step) ECN marking: the queue settles around K. */
class DctcpScenarioTest {
    private static final String STEP_100KB = ", ecn: {marking: step, k: 100KB}";

    @Test
    void shouldHoldQueueNearMarkingThresholdWhenEightSendersConverge() {
        Outcome none = CcScenarios.run(incast(8, "2MB", "cc: none", STEP_100KB), Time.us(100));
        Outcome dctcp = CcScenarios.run(incast(8, "2MB", "cc: dctcp", STEP_100KB), Time.us(100));
        assertThat(dctcp.allCompleted()).isTrue();
        assertThat(dctcp.result().totals().packetsDropped()).isZero();
        assertThat(dctcp.result().totals().ecnMarked()).isPositive();
        assertThat(dctcp.result().totals().rateCuts()).isPositive();
        long noneQueue = none.result().totals().maxQueueBytes();
        assertThat(dctcp.result().totals().maxQueueBytes()).as("vs %d B without control", noneQueue)
                .isLessThan(noneQueue / 20);
        // After the first RTT's burst the queue oscillates around K = 100 KB.
        assertThat(dctcp.queue().peakAfterSettleBytes()).isBetween(50_000L, 200_000L);
        double ideal = closedFormSeconds(8, 2_000_000);
        assertThat(dctcp.lastFinishPs() / 1e12).isBetween(ideal, ideal * 1.05);
    }
}
