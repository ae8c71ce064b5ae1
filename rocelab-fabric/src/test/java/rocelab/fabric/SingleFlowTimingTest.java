package rocelab.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.SingleSwitchSpec;

/** One flow on an idle fabric completes exactly when the closed form says: serialisation, store-and-forward, propagation, ACK return. */
class SingleFlowTimingTest {
    private static final long RATE = 100_000_000_000L;
    private static final long PS_PER_BYTE = 80;
    private static final long DELAY = Time.us(1);

    /**
     * Closed form for a flow crossing {@code links} links (links - 1 store-and-forward switches) at equal rates:
     * a proportionate flow shop, so the last byte leaves the last switch after the sum of all frame times plus
     * one largest frame time per switch; then propagation on every link, and the ACK of the last packet back.
     */
    private static long closedFormFct(long size, int mtu, int links) {
        FrameFormat f = new FrameFormat(false);
        long packets = (size + mtu - 1) / mtu;
        long sendAll = 0;
        long maxWire = 0;
        for (long i = 0; i < packets; i++) {
            int payload = (int) Math.min(mtu, size - i * mtu);
            long wire = FrameFormat.wireBytes(f.dataFrameBytes(payload, i == 0));
            maxWire = Math.max(maxWire, wire);
            sendAll += wire * PS_PER_BYTE;
        }
        long ack = FrameFormat.wireBytes(f.ackFrameBytes()) * PS_PER_BYTE;
        return sendAll + (links - 1) * maxWire * PS_PER_BYTE + links * DELAY + links * ack + links * DELAY;
    }

    @Test
    void shouldMatchClosedFormWhenOneFlowCrossesOneSwitch() {
        TestFabric fabric = new TestFabric(new SingleSwitchSpec(2, new LinkParameters(RATE, DELAY)).build(),
                NicParameters.defaults(1000), SwitchParameters.defaults());
        fabric.connect(0, 1).postWrite(0, 10_000, 7);
        fabric.sim.runUntil(Time.ms(10));
        assertThat(fabric.completions).hasSize(1);
        assertThat(fabric.completions.get(0)[0]).isEqualTo(closedFormFct(10_000, 1000, 2));
        assertThat(fabric.completions.get(0)[2]).isEqualTo(7);
    }

    @Test
    void shouldMatchClosedFormWhenOneFlowCrossesThreeSwitches() {
        LinkParameters link = new LinkParameters(RATE, DELAY);
        TestFabric fabric = new TestFabric(new LeafSpineSpec(2, 1, 2, 1, link, link).build(),
                NicParameters.defaults(1000), SwitchParameters.defaults());
        fabric.connect(0, 3).postWrite(0, 123_457, 1);
        fabric.sim.runUntil(Time.ms(10));
        assertThat(fabric.completions).hasSize(1);
        assertThat(fabric.completions.get(0)[0]).isEqualTo(closedFormFct(123_457, 1000, 4));
    }
}
