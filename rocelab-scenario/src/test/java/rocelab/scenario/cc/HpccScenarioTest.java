package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static rocelab.scenario.cc.CcScenarios.closedFormSeconds;
import static rocelab.scenario.cc.CcScenarios.incast;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.scenario.cc.CcScenarios.Outcome;

/** HPCC on an incast: the INT-driven window keeps the bottleneck queue near empty while the link stays busy. */
class HpccScenarioTest {
    @Test
    void shouldKeepQueueFarBelowNoControlAndFinishNearLineRateWhenEightSendersConverge() {
        Outcome none = CcScenarios.run(incast(8, "2MB", "cc: none", ""), Time.us(100));
        Outcome hpcc = CcScenarios.run(incast(8, "2MB", "cc: hpcc", ""), Time.us(100));
        assertThat(hpcc.allCompleted()).isTrue();
        assertThat(hpcc.result().totals().packetsDropped()).isZero();
        long noneQueue = none.result().totals().maxQueueBytes();
        long hpccQueue = hpcc.result().totals().maxQueueBytes();
        assertThat(noneQueue).as("line-rate senders pile up 7/8 of 16 MB").isGreaterThan(12_000_000L);
        // The peak is the first RTT, when every sender puts one BDP (about 52 KB) on the wire before any feedback.
        assertThat(hpccQueue).as("HPCC peak queue vs %d B without control", noneQueue).isLessThan(noneQueue / 20);
        assertThat(hpcc.queue().peakAfterSettleBytes()).as("queue after the first 100 us").isLessThan(50_000);
        // Every HPCC frame carries the 42-byte INT header (HPCC ns-3's IntHeader with room for 5 hops).
        double ideal = closedFormSeconds(8, 2_000_000, 42);
        assertThat(hpcc.lastFinishPs() / 1e12).as("completion vs %.1f us at line rate", ideal * 1e6)
                .isBetween(ideal, ideal * 1.10);
        assertThat(hpcc.result().totals().rateCuts()).isPositive();
    }

    @Test
    void shouldBoundQueuesOnEveryHopWhenTheIncastCrossesASpine() {
        String yaml = """
                name: hpcc-two-tier
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB}
                nic: {cc: %s}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 2MB}
                """;
        Outcome none = CcScenarios.run(yaml.formatted("none"), Time.us(100));
        Outcome hpcc = CcScenarios.run(yaml.formatted("hpcc"), Time.us(100));
        assertThat(hpcc.allCompleted()).isTrue();
        // Senders 4..7 first share their leaf's uplink, then all seven share host 0's port: up to three hops of INT.
        assertThat(hpcc.result().totals().maxQueueBytes()).as("vs %d B without control",
                none.result().totals().maxQueueBytes()).isLessThan(none.result().totals().maxQueueBytes() / 8);
        assertThat(hpcc.queue().peakAfterSettleBytes()).isLessThan(100_000);
        double ideal = closedFormSeconds(7, 2_000_000, 42);
        assertThat(hpcc.lastFinishPs() / 1e12).isBetween(ideal, ideal * 1.15);
    }
}
