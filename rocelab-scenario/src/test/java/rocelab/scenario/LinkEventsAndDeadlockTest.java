package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
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
        long viaSpine1 = leaf0.port(3).counter(PortCounter.TX_DATA_PACKETS);
        assertThat(viaSpine1).as("after the failure and the recovery, data took spine1").isPositive();
    }

    @Test
    void shouldCountEveryFrameLostOnADownLinkOnThePortOrRnicThatSentIt() {
        // Switch links and a host link go down with frames on them; each loss is a drop of the port (ports.csv
        // dropped_link_down) or the RNIC (nics.csv tx_lost_link_down) that sent it, and together they are the total.
        RunResult r = Scenarios.assemble("""
                name: lost-on-links
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 6}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 50us}
                  - {kind: link-down, a: leaf0, b: spine1, at: 60us}
                  - {kind: link-up, a: leaf0, b: spine1, at: 100us}
                  - {kind: link-down, a: h3, b: leaf1, at: 70us}
                  - {kind: link-up, a: h3, b: leaf1, at: 120us}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 2MB}
                  - {kind: flow, src: 1, dst: 3, size: 2MB}
                  - {kind: flow, src: 3, dst: 0, size: 2MB}
                """).run(ProgressListener.NONE);
        var net = r.network();
        long ports = 0;
        long portDrops = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            for (int p = 0; p < net.switchAt(s).portCount(); p++) {
                ports += net.switchAt(s).port(p).counter(PortCounter.DROPPED_LINK_DOWN);
                portDrops += net.switchAt(s).port(p).counter(PortCounter.DROPPED_PACKETS);
            }
        }
        long nics = 0;
        for (int h = 0; h < net.hostCount(); h++) {
            nics += net.nic(h).counter(NicCounter.TX_LOST_LINK_DOWN);
        }
        assertThat(ports).as("frames switch ports sent into down links").isPositive();
        assertThat(nics).as("frames h3's RNIC sent into its down link").isPositive()
                .isEqualTo(net.nic(3).counter(NicCounter.TX_LOST_LINK_DOWN));
        assertThat(ports + nics).isEqualTo(net.linkLosses()).isEqualTo(r.totals().linkLosses());
        assertThat(portDrops + nics + r.totals().nicOutOfBuffer()).as("every drop somewhere in ports.csv or nics.csv")
                .isEqualTo(r.totals().packetsDropped());
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
        assertThat(SummaryText.render(r, null)).contains("DEADLOCK", "s0/p1->s1 prio 3");
    }

    @Test
    void shouldRunOnThroughADeadlockThatAPfcWatchdogBreaks() throws Exception {
        // The same ring with the PFC watchdog on every switch (detection 2 ms): the deadlock still forms, and the
        // watchdog ends it by dropping the stuck queue's packets. Before, the run stopped 1 ms after data stopped, with
        // stop_reason deadlock, though the switches would have broken the cycle (a SONiC import audit).
        String ring = Files.readString(Path.of("..", "scenarios", "examples", "pfc-deadlock-ring.yaml"))
                .replace("switch: {buffer: 1MB, ecn: {marking: none}}", "switch: {buffer: 1MB, ecn: {marking: none},"
                        + " pfc: {watchdog: {poll: 1ms, detection: 2ms, restoration: 2ms}}}")
                .replace("size: 20MB", "size: 1MB");
        RunResult r = Scenarios.assemble(ring).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("completed");
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.deadlockCycle()).as("the cycle is still told").hasSize(5).allMatch(q -> q.endsWith("prio 3"));
        assertThat(r.deadlockSincePs()).isLessThan(r.flows().get(0).finishPs());
        assertThat(r.totals().pfcWatchdogStorms()).isPositive();
        assertThat(r.totals().droppedPfcWatchdog()).isPositive();
        assertThat(Summary.of(r)).containsKey("pfc_deadlock_cycle");
        assertThat(SummaryText.render(r, null)).contains("DEADLOCK", "s0/p1->s1 prio 3",
                "a PFC watchdog watches one of them, so the run went on: it declared "
                        + r.totals().pfcWatchdogStorms() + " pause storms");
    }

    @Test
    void shouldReportACreditLoopAsADeadlockOnInfiniband() throws Exception {
        // The same ring on InfiniBand: every lane of the ring waits for credits from the next, none drains. Before,
        // nothing looked for it: the run went on to the retries' end (134 ms), said "5 FAILED (retries exhausted)" and
        // stop_reason "completed", and named no cause.
        String ring = Files.readString(Path.of("..", "scenarios", "examples", "pfc-deadlock-ring.yaml"))
                .replace("fabric: {mode: roce-lossless, mtu: 1000}", "fabric: {mode: infiniband, mtu: 1024}")
                .replace("switch: {buffer: 1MB, ecn: {marking: none}}", "");
        RunResult r = Scenarios.assemble(ring).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        assertThat(r.flows()).noneMatch(FlowRecord::completed).noneMatch(FlowRecord::failed);
        assertThat(r.deadlockCycle()).hasSize(5).allMatch(q -> q.endsWith(" VL 3"));
        var json = Summary.of(r);
        assertThat(json).containsKey("credit_deadlock_cycle").doesNotContainKey("pfc_deadlock_cycle");
        assertThat(SummaryText.render(r, null)).contains("DEADLOCK",
                "held for credits (a credit loop)", "s0/p1->s1 VL 3");
    }
}
