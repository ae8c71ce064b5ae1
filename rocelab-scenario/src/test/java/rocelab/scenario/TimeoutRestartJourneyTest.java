package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;

/**
 * An audit's flow lost its receiver's link for good: its QP's ACK timer fired four times, and the journey said "no
 * new ACK since 1101.397 us", then "since 2149.973 us": the times the timer restarted when it fired, when no ACK
 * came. The QP now reports both when the timer started and when anything but its own firing last started it.
 */
class TimeoutRestartJourneyTest {
    private static final String LOST_RECEIVER = """
            name: host1
            seed: 1
            fabric: {mode: roce-lossy, mtu: 4096, vlan: false}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 4MB, ecmp: {mode: ecmp, hash: crc32, seed: per-switch}}
            nic: {cc: none, timeout: 8, retry-count: 3}
            traffic:
              - {kind: flow, src: 0, dst: 2, size: 2MB, start: 0us}
              - {kind: flow, src: 1, dst: 3, size: 2MB, start: 0us}
            events:
              - {kind: link-down, a: h2, b: leaf1, at: 50us}
            run: {stop-at: 100ms}
            """;

    @Test
    void shouldSayTheLastAckTimeAndThatTheTimerRestartedWhenItFiredWhenNoAckCameBetweenTimeouts() {
        Simulation sim = Scenarios.assemble(LOST_RECEIVER);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(0).id(), PfcProbe.NONE);
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(0);
        List<JourneyEvent.Recovery> timeouts = rec.events().stream()
                .filter(e -> e.cause() instanceof JourneyEvent.Recovery x && x.timeout())
                .map(e -> (JourneyEvent.Recovery) e.cause()).toList();
        List<Long> firedAt = rec.events().stream()
                .filter(e -> e.cause() instanceof JourneyEvent.Recovery x && x.timeout()).map(JourneyEvent::timePs)
                .toList();
        assertThat(timeouts).hasSize(4);
        long lastAck = timeouts.get(0).noAckSincePs();
        assertThat(timeouts.get(0).restartedByFiring()).isFalse();
        assertThat(timeouts.get(0).timerStartPs()).isEqualTo(lastAck);
        for (int i = 1; i < 4; i++) {
            assertThat(timeouts.get(i).noAckSincePs()).as("no ACK came between the timeouts").isEqualTo(lastAck);
            assertThat(timeouts.get(i).timerStartPs()).isEqualTo(firedAt.get(i - 1));
            assertThat(timeouts.get(i).restartedByFiring()).isTrue();
        }
        String text = new JourneyText(sim.network()).render(f, rec.events(), -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(text).contains("2149.973 us  h0's local ACK timeout (1048.576 us) fired: no new ACK since 52.821 us"
                + " (the timer restarted at 1101.397 us, when it last fired); it goes back to PSN 66")
                .contains("1101.397 us  h0's local ACK timeout (1048.576 us) fired: no new ACK since 52.821 us; it goes")
                .doesNotContain("no new ACK since 1101.397 us").doesNotContain("no new ACK since 2149.973 us")
                .contains("fired 4 times: 4194.304 us with no new ACK before they fired");
    }
}
