package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;

/** Packets acquired minus released equals packets queued, in service and in flight, at every moment sampled. */
class ConservationTest {
    private static final String LOSSY = """
            name: conservation
            seed: 3
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 300KB}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: incast, senders: 1-7, receiver: 0, size: 200KB}
              - {kind: permutation, size: 300KB, start: 3us}
            """;

    @Test
    void shouldAccountForEveryPacketWhenSampledThroughoutALossyRun() {
        check(Scenarios.assemble(LOSSY));
    }

    @Test
    void shouldAccountForEveryPacketWithSprayingAndSelectiveRepeat() {
        Simulation sim = Scenarios.assemble(LOSSY.replace("switch: {buffer: 300KB}",
                "switch: {buffer: 300KB, ecmp: {mode: spray}}").replace("timeout: 8", "timeout: 8, ooo: true, ooo-reorder: 16"));
        check(sim);
        assertThat(sim.network().queuePairs().get(0).selectiveRepeat()).isTrue();
        long selective = 0;
        for (int h = 0; h < sim.network().hostCount(); h++) {
            selective += sim.network().nic(h).counter(NicCounter.SELECTIVE_RETRANSMITTED);
        }
        assertThat(selective).as("the run exercised selective repeat").isPositive();
    }

    private static void check(Simulation sim) {
        Network n = sim.network();
        int samples = 0;
        while (!sim.driver().allFinished() && sim.simulator().nowPs() < Time.ms(50)) {
            sim.simulator().runUntil(sim.simulator().nowPs() + 137_000);
            assertThat(n.pool().outstanding()).isEqualTo(n.packetsHeld());
            samples++;
        }
        assertThat(sim.driver().allFinished()).isTrue();
        assertThat(samples).isGreaterThan(100);
        long dropped = 0;
        for (int s = 0; s < n.switchCount(); s++) {
            for (int p = 0; p < n.switchAt(s).portCount(); p++) {
                dropped += n.switchAt(s).port(p).counter(PortCounter.DROPPED_PACKETS);
            }
        }
        assertThat(dropped).as("the run exercised drops").isPositive();
    }
}
