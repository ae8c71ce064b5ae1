package rocelab.fabric.nic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.TestFabric;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.SingleSwitchSpec;

/**
 * A QP's time held back by its rate ({@link QueuePair#rateHeldPs}, flows.csv rate_held_us) when it carries several
 * messages: a message posted while the QP's previous packet is still on the wire could not have gone before that
 * packet ends even at line rate, so only the rate's gap beyond that end is held; at line rate nothing is.
 */
class RateHeldTest {
    private static final long LINE = 100_000_000_000L;
    private static final long PS_PER_BYTE = 80;
    private static final int MTU = 1000;
    private static final FrameFormat FRAMES = new FrameFormat(false);

    /** A congestion control that holds the QP at {@code rateBps} (line rate when it is the line's). */
    private static CongestionControlFactory fixed(long rateBps) {
        return TestFabric.paced("fixed", c -> Math.min(rateBps, c.lineRateBps()));
    }

    /** Line-rate time on the wire of a data packet of {@code payload} bytes (the message's first carries a RETH). */
    private static long wirePs(int payload, boolean first) {
        return FrameFormat.wireBytes(FRAMES.dataFrameBytes(payload, first)) * PS_PER_BYTE;
    }

    private static TestFabric fabric(long rateBps) {
        return new TestFabric(new SingleSwitchSpec(2, new LinkParameters(LINE, Time.us(1))).build(),
                NicParameters.defaults(MTU), SwitchParameters.defaults(), fixed(rateBps));
    }

    @Test
    void shouldHoldNothingAtLineRateWhenMessagesFollowEachOtherOnOneQueuePair() {
        TestFabric f = fabric(LINE);
        QueuePair qp = f.connect(0, 1);
        // A: three packets back to back from 0; its last starts at a0 + a1 and is on the wire until a0 + a1 + a2.
        long a0 = wirePs(MTU, true);
        long a1 = wirePs(MTU, false);
        long a2 = wirePs(MTU, false);
        qp.postWrite(0, 3 * MTU, 1);
        // B, posted while A's last packet is on the wire (the QP has nothing else ready): it goes when that ends.
        long b = a0 + a1 + 1;
        f.sim.runUntil(b);
        qp.postWrite(b, 2 * MTU, 2);
        assertThat(qp.rateHeldPs(b + 1)).isZero();
        // C, posted while B is being sent (the QP in the rotation): back to back after B.
        long c = a0 + a1 + a2 + wirePs(MTU, true) / 2;
        f.sim.runUntil(c);
        qp.postWrite(c, 5 * MTU, 3);
        assertThat(qp.rateHeldPs(c)).isZero();
        // D, long after the others completed.
        f.sim.runUntil(Time.us(50));
        assertThat(f.completions).hasSize(3);
        qp.postWrite(Time.us(50), 4 * MTU, 4);
        f.sim.runUntil(Time.us(100));
        assertThat(f.completions).hasSize(4);
        // B's first packet left right when A's last ended: the QP was never slower than its line.
        assertThat(f.completions.get(1)[0] - f.completions.get(0)[0]).isEqualTo(wirePs(MTU, true) + wirePs(MTU, false));
        assertThat(qp.rateHeldPs(f.sim.nowPs())).isZero();
    }

    @Test
    void shouldHoldTheRatesGapBeyondTheLineRateOnesAlsoAcrossMessages() {
        // Half the line rate: every gap is twice its packet's time on the wire, of which one time is held.
        long rate = LINE / 2;
        TestFabric f = fabric(rate);
        QueuePair qp = f.connect(0, 1);
        long a0 = wirePs(MTU, true);
        long a1 = wirePs(MTU, false);
        qp.postWrite(0, 2 * MTU, 1);
        // After A's first packet its rate holds the QP from a0 (when it could go at line rate) to 2 a0.
        f.sim.runUntil(2 * a0 + a1 / 2);
        assertThat(qp.rateHeldPs(f.sim.nowPs())).isEqualTo(a0);
        // B, posted while A's last packet is on the wire: it could go at 2 a0 + a1 at line rate, its rate lets it at
        // 2 a0 + 2 a1. Held: a1 (not the gap counted from B's post).
        long b = 2 * a0 + a1 / 2;
        qp.postWrite(b, MTU, 2);
        f.sim.runUntil(2 * a0 + 2 * a1);
        assertThat(qp.rateHeldPs(f.sim.nowPs())).isEqualTo(a0 + a1);
        // C, posted after B's one packet (from 2 a0 + 2 a1, on the wire for b0) ended but before its gap is over:
        // held from its post to the gap's end, 2 a0 + 2 a1 + 2 b0.
        long b0 = wirePs(MTU, true);
        long c = 2 * a0 + 2 * a1 + b0 + b0 / 4;
        f.sim.runUntil(c);
        qp.postWrite(c, MTU, 3);
        // D, long after: nothing holds it.
        f.sim.runUntil(Time.us(50));
        assertThat(f.completions).hasSize(3);
        long heldBeforeD = a0 + a1 + (2 * a0 + 2 * a1 + 2 * b0 - c);
        assertThat(qp.rateHeldPs(f.sim.nowPs())).isEqualTo(heldBeforeD);
        qp.postWrite(Time.us(50), 3 * MTU, 4);
        f.sim.runUntil(Time.us(100));
        assertThat(f.completions).hasSize(4);
        assertThat(qp.rateHeldPs(f.sim.nowPs())).isEqualTo(heldBeforeD + wirePs(MTU, true) + wirePs(MTU, false));
    }
}
