package rocelab.fabric.switching;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.TestFabric;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.PortCounter;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;

/** A flow keeps its port within a flowlet and may change it only after an idle gap longer than the timeout. */
class FlowletTest {
    private static final LinkParameters LINK = new LinkParameters(100_000_000_000L, Time.us(1));
    /** 1 MB in 4096-byte packets. */
    private static final long PACKETS = (1_000_000 + 4095) / 4096;

    private static TestFabric fabric(long timeoutPs) {
        SwitchParameters d = SwitchParameters.defaults();
        AdaptiveParameters a = AdaptiveParameters.defaults();
        SwitchParameters flowlet = new SwitchParameters(d.bufferBytes(), d.forwardingLatencyPs(), d.dscpToTc(),
                d.scheduler(), d.dwrrWeights(), d.strictClasses(), LoadBalancing.FLOWLET, d.ecmpHash(), d.ecmpSeed(),
                new AdaptiveParameters(a.bits(), a.queueQuantumBytes(), 0, a.tieBreak(), timeoutPs,
                        a.flowletTableSize()));
        Topology t = new LeafSpineSpec(2, 4, 1, 1, LINK, LINK).build();
        return new TestFabric(t, NicParameters.defaults(4096), flowlet);
    }

    /**
     * Two 1 MB messages on one QP, the second posted at 150 us: the first (80 us on the wire) has left leaf0 about
     * 68 us earlier.
     */
    private static Switch twoMessagesWithAGap(TestFabric f) {
        QueuePair qp = f.connect(0, 1);
        qp.postWrite(0, 1_000_000, 1);
        f.sim.runUntil(Time.us(150));
        assertThat(f.completions).hasSize(1);
        qp.postWrite(f.sim.nowPs(), 1_000_000, 2);
        f.sim.runUntil(Time.ms(3));
        assertThat(f.completions).hasSize(2);
        return f.network.switchAt(0);
    }

    @Test
    void shouldBeginANewFlowletAfterAGapLongerThanTheTimeoutAndKeepThePortWithinOne() {
        TestFabric f = fabric(Time.us(20));
        Switch leaf0 = twoMessagesWithAGap(f);
        assertThat(leaf0.name()).isEqualTo("leaf0");
        assertThat(leaf0.flowletsStarted()).isEqualTo(2);
        // Within each flowlet every data packet left by one uplink: each uplink carried whole messages.
        long total = 0;
        for (int p = 0; p < leaf0.portCount(); p++) {
            long n = leaf0.port(p).counter(PortCounter.TX_DATA_PACKETS);
            if (f.network.topology().isHost(f.network.topology().peer(leaf0.nodeId(), p).node())) {
                continue;
            }
            assertThat(n % PACKETS).as("uplink " + p + " carried " + n + " data packets").isZero();
            total += n;
        }
        assertThat(total).as("no packet sent twice: nothing was reordered").isEqualTo(2 * PACKETS);
    }

    @Test
    void shouldKeepOneFlowletWhenTheGapIsShorterThanTheTimeout() {
        TestFabric f = fabric(Time.us(100));
        Switch leaf0 = twoMessagesWithAGap(f);
        assertThat(leaf0.flowletsStarted()).isEqualTo(1);
    }
}
