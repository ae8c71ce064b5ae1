package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioReader;

/** Link failures reroute traffic; a cyclic buffer dependency under PFC is found, reported, and ends the run. */
class LinkEventsAndDeadlockTest {
    @Test
    void shouldRerouteAroundAFailedLinkAndBackWhenItRecovers() {
        RunResult r = Scenarios.assemble("""
                name: failover
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 8}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 30us}
                  - {kind: link-down, a: leaf0, b: spine1, at: 60us}
                  - {kind: link-up, a: leaf0, b: spine1, at: 200us}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 4MB}
                  - {kind: flow, src: 1, dst: 3, size: 4MB}
                """).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().linkLosses()).as("frames on the links when they failed").isPositive();
        assertThat(r.totals().deliveredBytes()).isEqualTo(8_000_000);
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat(last).as("nothing could cross between 60 and 200 us").isGreaterThan(200_000_000L);
        var leaf0 = r.network().switchAt(0);
        long viaSpine1 = leaf0.port(3).counter(rocelab.fabric.probe.PortCounter.TX_DATA_PACKETS);
        assertThat(viaSpine1).as("after the failure and the recovery, data took spine1").isPositive();
    }

    @Test
    void shouldReportTheCycleAndEndTheRunWhenPfcDeadlocks() throws Exception {
        Path file = Path.of("..", "scenarios", "examples", "pfc-deadlock-ring.yaml");
        assertThat(Files.exists(file)).isTrue();
        RunResult r = Simulation.assemble(new ScenarioReader().read(file)).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        assertThat(r.finished()).isFalse();
        assertThat(r.deadlockCycle()).hasSize(5).allMatch(q -> q.endsWith("prio 3"));
        assertThat(r.simulatedPs()).as("found soon after data stopped, not after the retries").isLessThan(
                10_000_000_000L);
        assertThat(rocelab.observe.output.SummaryText.render(r, null)).contains("DEADLOCK", "s0/p1->s1 prio 3");
    }
}
