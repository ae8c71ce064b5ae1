package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.Severity;

/** What lint and auto headroom promise about a lossless class is what the simulator does. */
class LosslessFidelityTest {
    private static String incast(String forwardingLatency, String pfc) {
        return """
                name: incast-15
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 16, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, forwarding-latency: %s, ecn: {marking: none}, pfc: {%s}}
                nic: {cc: none, timeout: 8}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 400KB}
                """.formatted(forwardingLatency, pfc);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2us", "5us"})
    void shouldDropNothingWithForwardingLatencyWhenHeadroomIsAutoAndLintShouldAgree(String latency) {
        ScenarioConfig c = Scenarios.parse(incast(latency, "headroom: auto"));
        assertThat(Lint.check(c).of("L3")).isEmpty();
        RunResult r = Simulation.assemble(c).run(ProgressListener.NONE);
        assertThat(r.totals().pfcPauseSent()).isPositive();
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.flows()).allMatch(FlowRecord::completed);
    }

    @Test
    void shouldDropAndBeFlaggedByLintWhenHeadroomCountsOnlyTheCable() {
        // The headroom auto gives without forwarding latency (the cable only) is short by 2 x 5 us at 100 Gb/s.
        ScenarioConfig cableOnly = Scenarios.parse(incast("0", "headroom: auto"));
        long headroom = cableOnly.devices().switches().get(0).headroom(1);
        ScenarioConfig c = Scenarios.parse(incast("5us", "headroom: " + headroom + "B"));
        assertThat(Lint.check(c).of("L3")).isNotEmpty().allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.what()).contains("5.000 us forwarding latency");
        });
        RunResult r = Simulation.assemble(c).run(ProgressListener.NONE);
        assertThat(r.totals().droppedHeadroom()).isPositive();
    }

    /**
     * The worst case the formula counts, made to happen: the receiver's port is paused (a pause storm), so nothing
     * drains a sender's priority group while its pause travels; every sender also receives a line-rate flow, so the
     * switch is mid-frame on that port when it decides XOFF; the senders start a little apart, so their frames
     * meet the pause at different phases; static thresholds put the frame that crosses XOFF in headroom.
     */
    private static String worstCase(String link, long headroom) {
        StringBuilder flows = new StringBuilder();
        for (int i = 1; i <= 15; i++) {
            flows.append("  - {kind: flow, src: ").append(15 + i).append(", dst: ").append(i).append(", size: 600KB}\n");
            flows.append("  - {kind: flow, src: ").append(i).append(", dst: 0, size: 300KB, start: ")
                    .append(i * 1237).append("ps}\n");
        }
        return """
                name: worst-case-pause
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 31, link: {%s}}
                switch: {buffer: 8MB, ecn: {marking: none}, pfc: {threshold: static, xoff: 100KB, xon: 80KB%s}}
                nic: {cc: none, timeout: 8, ack-every: 64}
                observe: {sample-interval: 0}
                faults:
                  - {kind: pause-storm, host: 0, start: 0, duration: 40us, priority: 3}
                traffic:
                %s""".formatted(link, headroom < 0 ? "" : ", headroom: " + headroom + "B", flows);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rate: 25Gbps, delay: 100ns", "rate: 100Gbps, delay: 1us", "rate: 400Gbps, delay: 500ns"})
    void shouldFindTheFirstDropFreeHeadroomWithinOneFrameBelowTheFormula(String link) {
        ScenarioConfig auto = Scenarios.parse(worstCase(link, -1));
        int frame = PauseLoop.largestFrame(new FrameFormat(false), 1000);
        long formula = auto.pauseLoop().headroomBytes(auto.topology().build(), 31, 1, new FrameFormat(false), 1000);
        assertThat(auto.devices().switches().get(0).headroom(1)).as("auto headroom is the formula").isEqualTo(formula);
        List<Long> dropFree = new ArrayList<>();
        List<Long> dropping = new ArrayList<>();
        for (long h = formula - 2 * frame; h <= formula; h += 256) {
            RunResult r = Scenarios.assemble(worstCase(link, h)).run(ProgressListener.NONE);
            (r.totals().droppedHeadroom() == 0 ? dropFree : dropping).add(h);
        }
        RunResult atFormula = Scenarios.assemble(worstCase(link, formula)).run(ProgressListener.NONE);
        assertThat(atFormula.totals().packetsDropped()).as("the formula's headroom never drops").isZero();
        assertThat(atFormula.flows()).allMatch(FlowRecord::completed);
        assertThat(dropping).as("two frames less drops").isNotEmpty();
        long firstDropFree = dropping.get(dropping.size() - 1) + 256;
        assertThat(dropFree).as("drop-free from the first drop-free value up").allMatch(h -> h >= firstDropFree);
        assertThat(formula - firstDropFree).as(link + ": formula " + formula + ", first drop-free " + firstDropFree)
                .isLessThan(frame);
    }
}
