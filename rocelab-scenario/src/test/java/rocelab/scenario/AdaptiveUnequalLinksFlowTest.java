package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import rocelab.observe.flow.FlowRecord;

/**
 * Adaptive routing over equal-cost links of different rates at flow level ({@code --model flow}). The flow level
 * split an adaptive switch's flow evenly, as spraying does: a lone 4 MB flow over a 25 and a 100 Gb/s uplink was held
 * at 50 Gb/s (twice the slow link) and took 664.1 us, where the packet level's adaptive switch moves packets off the
 * slow link's queue and the flow runs at its 100 Gb/s host link (337.4 us; its closed form alone 336.7 us).
 */
class AdaptiveUnequalLinksFlowTest {
    private static String scenario(String mode) {
        return """
                name: adaptive-unequal
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                links:
                  - {a: leaf0, b: spine0, rate: 25Gbps}
                switch: {load-balancing: {mode: %s}}
                nic: {ooo: true}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 4MB}
                """.formatted(mode);
    }

    private static FlowRecord lone(String mode, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(scenario(mode)), model).run(ProgressListener.NONE).flows().get(0);
    }

    @Test
    void shouldRunALoneAdaptiveFlowAtItsHostLinkOverAFastAndASlowUplink() {
        FlowRecord flow = lone("adaptive", Simulation.Model.FLOW);
        // Split 1:4 over the 25 and 100 Gb/s uplinks, each full at 125 Gb/s: the host link's 100 Gb/s caps it, and
        // timed over the fast uplink it ends when its closed form says (not 0.27 us before, as over the slow one).
        assertThat(flow.fctPs()).isEqualTo(flow.idealFctPs());
        FlowRecord packet = lone("adaptive", Simulation.Model.PACKET);
        assertThat((double) packet.fctPs() / flow.fctPs()).isCloseTo(1.0, within(0.01));
    }

    @Test
    void shouldKeepASprayedFlowEvenOverAFastAndASlowUplink() {
        FlowRecord flow = lone("spray", Simulation.Model.FLOW);
        // A uniformly random next hop sends half the packets over the slow uplink: 50 Gb/s, about twice its ideal.
        assertThat((double) flow.fctPs() / flow.idealFctPs()).isCloseTo(1.97, within(0.01));
    }
}
