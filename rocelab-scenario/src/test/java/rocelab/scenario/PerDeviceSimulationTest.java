package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;

/** The simulator does what each device's own settings say, not only the uniform ones. */
class PerDeviceSimulationTest {
    private static final String INCAST = """
            name: t
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 1MB, ecn: {marking: none}}
            nic: {cc: none, timeout: 8}
            traffic: [{kind: incast, senders: 4-7, receiver: 0, size: 1MB}]
            """;

    private static long count(Network n, String switchName, PortCounter counter) {
        long sum = 0;
        for (int s = 0; s < n.switchCount(); s++) {
            Switch sw = n.switchAt(s);
            if (sw.name().equals(switchName)) {
                for (int p = 0; p < sw.portCount(); p++) {
                    sum += sw.port(p).counter(counter);
                }
            }
        }
        return sum;
    }

    @Test
    void shouldTailDropOnlyOnTheSwitchThatMapsRoceToALossyClassWhileTheOthersPause() {
        Simulation sim = Scenarios.assemble(INCAST + "switches: [{name: leaf0, dscp-to-tc: {26: 0}}]\n");
        sim.run(ProgressListener.NONE);
        Network n = sim.network();
        assertThat(count(n, "leaf0", PortCounter.DROPPED_BUFFER_FULL)).isPositive();
        assertThat(count(n, "leaf0", PortCounter.PAUSE_SENT)).isZero();
        for (String other : new String[] {"leaf1", "spine0", "spine1"}) {
            assertThat(count(n, other, PortCounter.DROPPED_PACKETS)).as(other).isZero();
        }
        assertThat(count(n, "leaf1", PortCounter.PAUSE_SENT)).isPositive();
    }

    @Test
    void shouldMarkOnlyWherePortMarkingIsOn() {
        String yaml = INCAST.replace("ecn: {marking: none}", "ecn: {marking: step, k: 20KB}").replace("cc: none",
                "cc: dcqcn") + "switches: [{name: leaf0, ports: [{to: h0, ecn: {marking: none}}]}]\n";
        Simulation sim = Scenarios.assemble(yaml);
        sim.run(ProgressListener.NONE);
        Switch leaf0 = sim.network().switchAt(0);
        assertThat(leaf0.name()).isEqualTo("leaf0");
        assertThat(leaf0.port(0).counter(PortCounter.ECN_MARKED)).isZero();
        long elsewhere = 0;
        for (int s = 0; s < sim.network().switchCount(); s++) {
            elsewhere += count(sim.network(), sim.network().switchAt(s).name(), PortCounter.ECN_MARKED);
        }
        assertThat(elsewhere).isPositive();
    }

    @Test
    void shouldLeaveTheRateOfAHostWithoutReactionPointAlone() {
        String yaml = INCAST.replace("ecn: {marking: none}", "ecn: {kmin: 20KB, kmax: 100KB}").replace("cc: none",
                "cc: dcqcn") + "nics: [{hosts: 4, rp: false}]\n";
        RunResult r = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        Network n = r.network();
        for (int q = 0; q < n.queuePairs().size(); q++) {
            var qp = n.queuePairs().get(q);
            if (qp.sourceHost() == 4) {
                assertThat(qp.congestionControl().rateCuts()).isZero();
            } else {
                assertThat(qp.congestionControl().rateCuts()).as("qp from h" + qp.sourceHost()).isPositive();
            }
        }
    }
}
