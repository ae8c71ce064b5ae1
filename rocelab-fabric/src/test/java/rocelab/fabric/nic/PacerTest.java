package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.TestFabric;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.SingleSwitchSpec;

/** The RNIC's per-QP pacer follows its congestion control's rate, also when the rate rises during a long gap. */
class PacerTest {
    private static final long RATE = 100_000_000_000L;

    /** 10 Mb/s (a 1 KB packet's gap is about 0.87 ms) until {@code recoverPs}, line rate after. */
    private static CongestionControlFactory cutThenRecover(long recoverPs) {
        return TestFabric.paced("cut-then-recover", c -> c.sim().nowPs() < recoverPs ? 10_000_000L : c.lineRateBps());
    }

    private static long completion(long recoverPs) {
        TestFabric f = new TestFabric(new SingleSwitchSpec(2, new LinkParameters(RATE, Time.us(1))).build(),
                NicParameters.defaults(1000), SwitchParameters.defaults(), cutThenRecover(recoverPs));
        f.connect(0, 1).postWrite(0, 2000, 1);
        f.sim.runUntil(Time.ms(20));
        assertThat(f.completions).hasSize(1);
        return f.completions.get(0)[0];
    }

    @Test
    void shouldSendTheNextPacketSoonAfterTheRateRises() {
        // Two packets: the first leaves at 0 at 10 Mb/s; the rate is back at line rate at 20 us, and the second
        // packet leaves within one pacer recheck of that, not after the 0.87 ms gap of the old rate.
        long done = completion(Time.us(20));
        assertThat(done).isLessThan(Time.us(20) + QueuePairRotation.PACER_RECHECK_PS + Time.us(10));
    }

    @Test
    void shouldKeepTheGapWhileTheRateStaysLow() {
        long done = completion(Long.MAX_VALUE);
        assertThat(done).isGreaterThan(Time.us(860));
    }
}
