package rocelab.congestion.ibcc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.engine.Time;

/** The source side of IB CC (Annex A10) step by step, against the table worked out by hand. */
class IbCongestionControlTest {
    private static final long G100 = 100_000_000_000L;

    /** ccti-increase 3, ccti-limit 7, ccti-min 1, timer 4 us, 200 ns per index; packets of 4,124 bytes on the wire. */
    private static IbCongestionControl control(Simulator sim) {
        IbCongestionControl cc = new IbCongestionControl(sim, G100,
                new IbCcParameters(3, 7, 1, Time.us(4), Time.ns(200)));
        cc.onSend(0, 4124);
        return cc;
    }

    /** line x T / (T + i x 200 ns), T = 4,124 B at 100 Gb/s = 329.92 ns. */
    private static long rate(int index) {
        return (long) ((double) G100 * 329_920 / (329_920 + index * 200_000L));
    }

    @Test
    void shouldRaiseTheIndexPerBecnUpToTheLimitAndLowerItOnTheTimer() {
        Simulator sim = new Simulator();
        IbCongestionControl cc = control(sim);
        assertThat(cc.ccti()).as("a QP starts at ccti-min").isEqualTo(1);
        assertThat(cc.rateBps()).isEqualTo(rate(1));
        cc.onCnp(Time.us(1));
        assertThat(cc.ccti()).isEqualTo(4);
        assertThat(cc.rateBps()).isEqualTo(rate(4));
        cc.onCnp(Time.us(2));
        assertThat(cc.ccti()).as("4 + 3 capped at the limit").isEqualTo(7);
        sim.runUntil(Time.us(5));
        assertThat(cc.ccti()).as("the timer started at the first BECN, 1 us").isEqualTo(6);
        assertThat(cc.rateBps()).isEqualTo(rate(6));
        sim.runUntil(Time.us(100));
        assertThat(cc.ccti()).as("down to ccti-min, not below").isEqualTo(1);
    }

    @Test
    void shouldCountOnlyTheBecnsThatRaiseTheIndex() {
        Simulator sim = new Simulator();
        IbCongestionControl cc = control(sim);
        cc.onCnp(Time.us(1)); // 1 -> 4
        cc.onCnp(Time.us(1)); // 4 -> 7, the limit
        cc.onCnp(Time.us(1)); // at the limit: nothing
        cc.onCnp(Time.us(1)); // at the limit: nothing
        assertThat(cc.ccti()).isEqualTo(7);
        // summary.json's rate_cuts and the printed "CCT index raises": a BECN at the limit raised nothing (an audit's
        // leaf-spine incast at ccti-limit 40 printed every BECN as a raise).
        assertThat(cc.rateCuts()).isEqualTo(2);
    }
}
