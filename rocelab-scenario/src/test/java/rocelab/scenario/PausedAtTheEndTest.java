package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * A run that ends with pauses in force (a PFC deadlock, a pause storm, a stop time) counts them: the pause so far is
 * paused time of the port or RNIC it holds (ports.csv, nics.csv, pfc_counters.csv, the summary's total and its spread),
 * and the packets and QPs it holds have waited behind it (flows.csv paused_wait_us). Before, only pauses that had ended
 * counted: pfc-deadlock-ring's hosts, paused from about 35 us to the end at 2,039 us, showed 7.3 us each, and the flows
 * stuck behind the deadlock 7.3 us of waiting.
 */
class PausedAtTheEndTest {
    private static final long US = 1_000_000L;

    @Test
    void shouldCountAPauseStormStillInForceWhenTheRunStops() {
        // h0's RNIC storms from 20 us to 10 ms; the run stops at 2 ms. switch0's port to h0 is paused from about 20 us,
        // and once its queue fills switch0 pauses h1, whose write to h0 waits behind both to the end.
        RunResult r = Scenarios.assemble("""
                name: storm-to-the-end
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2MB, ecn: {marking: none}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                faults:
                  - {kind: pause-storm, host: 0, start: 20us, duration: 10ms}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 4MB}
                run: {stop-at: 2ms}
                """).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("stop-at");
        var net = r.network();
        long toH0 = net.switchAt(0).port(0).counter(PortCounter.PAUSED_PS);
        long h1 = net.nic(1).counter(NicCounter.RX_PAUSE_DURATION_PS);
        assertThat(toH0).as("switch0's port to h0, paused by the storm from about 20 us to the stop")
                .isGreaterThan(1_970 * US).isLessThanOrEqualTo(1_980 * US);
        assertThat(h1).as("h1's RNIC, paused by switch0 once its buffer filled, to the stop")
                .isGreaterThan(1_500 * US);
        long ports = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            for (int p = 0; p < net.switchAt(s).portCount(); p++) {
                ports += net.switchAt(s).port(p).counter(PortCounter.PAUSED_PS);
            }
        }
        long nics = 0;
        for (int h = 0; h < net.hostCount(); h++) {
            nics += net.nic(h).counter(NicCounter.RX_PAUSE_DURATION_PS);
        }
        assertThat(r.totals().pausedPs()).as("the total is the ports' and RNICs' counters").isEqualTo(ports + nics);
        var spread = r.pfcLog().propagation(net.simulator().nowPs());
        assertThat(spread).hasSize(2);
        assertThat(spread.stream().mapToLong(e -> e.pausedPs()).sum()).as("the spread's edges add up to the total")
                .isEqualTo(r.totals().pausedPs());
        assertThat(r.pfcLog().pausedWaitPs(0)).as("the write's packets wait in switch0's paused queue to the end")
                .isGreaterThan(1_970 * US);
        assertThat(SummaryText.render(r, null)).doesNotContain(" 0.000 us\n");
    }

    @Test
    void shouldCountTheDeadlockThePfcRingEndsIn() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().read(Path.of("..", "scenarios", "examples",
                "pfc-deadlock-ring.yaml"))).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        var net = r.network();
        long end = net.simulator().nowPs();
        for (int h = 0; h < net.hostCount(); h++) {
            assertThat(net.nic(h).counter(NicCounter.RX_PAUSE_DURATION_PS)).as("h%d paused to the end", h)
                    .isGreaterThan(end - 100 * US);
            assertThat(r.pfcLog().pausedWaitPs(h)).as("flow %d waited behind the deadlock at every hop", h)
                    .isGreaterThan(3 * (end - 100 * US));
        }
        long ringPorts = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            for (int p = 0; p < net.switchAt(s).portCount(); p++) {
                ringPorts += net.switchAt(s).port(p).counter(PortCounter.PAUSED_PS) > end - 100 * US ? 1 : 0;
            }
        }
        assertThat(ringPorts).as("the five paused ring ports of the cycle").isEqualTo(5);
    }

    @Test
    void shouldCountTheWaitsForCreditsOfTheCreditLoopTheRingEndsInOnInfiniband() throws Exception {
        // The same ring on InfiniBand ends in a credit loop: every lane of the ring waits for credits from the next
        // to the end. Those waits were told only when a packet left, so the packets held in the loop had waited
        // nothing by the run's account: each flow's credit waits stopped where the loop closed (about 35 us).
        String ring = Files.readString(Path.of("..", "scenarios", "examples", "pfc-deadlock-ring.yaml"))
                .replace("fabric: {mode: roce-lossless, mtu: 1000}", "fabric: {mode: infiniband, mtu: 1024}")
                .replace("switch: {buffer: 1MB, ecn: {marking: none}}", "");
        RunResult r = Scenarios.assemble(ring).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("deadlock");
        long end = r.network().simulator().nowPs();
        for (int f = 0; f < r.flows().size(); f++) {
            assertThat(r.creditLog().flowWaits().waitPs(f)).as("flow %d waited for credits to the end", f)
                    .isGreaterThan(end - 100 * US);
        }
    }
}
