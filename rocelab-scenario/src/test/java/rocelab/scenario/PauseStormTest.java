package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/** A stuck RNIC sending XOFF spreads the pause to flows that never go to it; the PFC watchdog detects and acts. */
class PauseStormTest {
    private static String storm(String watchdog) {
        return """
                name: storm
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, ecn: {marking: none}%s}
                nic: {cc: none, timeout: 12}
                observe: {sample-interval: 0}
                faults:
                  - {kind: pause-storm, host: 0, start: 20us, duration: 5ms}
                traffic:
                  - {kind: flow, src: 4, dst: 0, size: 2MB}
                  - {kind: flow, src: 5, dst: 1, size: 2MB}
                  - {kind: flow, src: 1, dst: 7, size: 2MB}
                """.formatted(watchdog);
    }

    @Test
    void shouldSpreadThePauseToVictimFlowsWhenNoWatchdogRuns() {
        RunResult r = Scenarios.assemble(storm("")).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.flows().get(0).finishPs()).as("the flow to the stuck RNIC waits for the storm to end")
                .isGreaterThan(5_000_000_000L);
        assertThat(r.flows().get(1).finishPs()).as("h5 -> h1 never goes to h0 but is paused by the spreading")
                .isGreaterThan(4_000_000_000L);
        assertThat(r.flows().get(2).finishPs()).as("h1 -> h7 takes unpaused links").isLessThan(300_000_000L);
        assertThat(r.totals().pfcWatchdogStorms()).isZero();
    }

    @Test
    void shouldDetectTheStormAndDropItsQueueWhenTheWatchdogRuns() {
        RunResult r = Scenarios.assemble(storm(
                ", pfc: {watchdog: {poll: 200us, detection: 500us, restoration: 500us, action: drop}}"))
                .run(ProgressListener.NONE);
        assertThat(r.totals().pfcWatchdogStorms()).isPositive();
        assertThat(r.totals().droppedPfcWatchdog()).isPositive();
        assertThat(r.totals().droppedPfcWatchdog()).isEqualTo(r.totals().packetsDropped());
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        long restorations = 0;
        for (int s = 0; s < r.network().switchCount(); s++) {
            for (int p = 0; p < r.network().switchAt(s).portCount(); p++) {
                restorations += r.network().switchAt(s).port(p)
                        .counter(PortCounter.PFC_WATCHDOG_RESTORES);
            }
        }
        assertThat(restorations).as("queues honour PFC again after the storm").isPositive();
    }
}
