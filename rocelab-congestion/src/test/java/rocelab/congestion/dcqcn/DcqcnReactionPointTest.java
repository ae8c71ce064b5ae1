package rocelab.congestion.dcqcn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.engine.Time;

/** One CNP and the recovery that follows, per profile, against values worked out by hand from the reference rules. */
class DcqcnReactionPointTest {
    private static final double G100 = 100e9;

    @Test
    void shouldCutAtFirstDecreaseBoundaryThenRecoverWhenHpccNs3() {
        Simulator sim = new Simulator();
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, DcqcnParameters.of(DcqcnProfile.HPCC_NS3, 100_000_000_000L));
        assertThat(rp.rateBps()).isEqualTo(100_000_000_000L);
        assertThat(rp.onCnp(0)).isTrue();
        sim.runUntil(Time.us(4) - 1);
        assertThat(rp.rateBps()).as("no cut before the 4 us boundary").isEqualTo(100_000_000_000L);
        sim.runUntil(Time.us(4));
        // Alpha ticks at 1..4 us. The first CNP set alpha to 1 and cleared its flag (HPCC's cnp_received_mlx), so it
        // does not count toward the first update: all four ticks decay, (255/256)^4.
        double g = 1.0 / 256;
        double alpha = Math.pow(1 - g, 4);
        double rc = G100 * (1 - alpha / 2);
        assertThat(rp.alpha()).isCloseTo(alpha, within(1e-12));
        assertThat((double) rp.rateBps()).isCloseTo(rc, within(1.0));
        assertThat(rp.targetRateBps()).as("timer stage 0: no clamp, Rt stays").isEqualTo(G100);
        sim.runUntil(Time.us(304));
        rc = (rc + G100) / 2; // stage 0 < F: fast recovery
        assertThat((double) rp.rateBps()).isCloseTo(rc, within(1.0));
        sim.runUntil(Time.us(604));
        rc = (rc + G100) / 2; // stage == F: additive increase, Rt capped at line rate
        assertThat((double) rp.rateBps()).isCloseTo(rc, within(1.0));
        assertThat(rp.cuts()).isEqualTo(1);
    }

    @Test
    void shouldClampTargetWhenHpccNs3CutsAfterATimerIncrease() {
        Simulator sim = new Simulator();
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, DcqcnParameters.of(DcqcnProfile.HPCC_NS3, 100_000_000_000L));
        rp.onCnp(0);
        sim.runUntil(Time.us(304));
        double before = rp.rateBps();
        sim.runUntil(Time.us(305));
        rp.onCnp(Time.us(305));
        sim.runUntil(Time.us(308));
        assertThat(rp.targetRateBps()).as("Rt <- Rc at the cut, since the timer stage is 1").isCloseTo(before,
                within(1.0));
        assertThat((double) rp.rateBps()).isLessThan(before);
    }

    @Test
    void shouldIncreaseThenCutWhenHpccNs3TimerExpiresAtADecreaseBoundary() {
        // The cut at 4 us starts the 300 us timer, which expires at 304 us: a decrease boundary (300 is 75 x 4). A CNP
        // at 302.5 us asks for a cut there. HPCC's ns-3 runs the timer first (it was scheduled at 4 us, the decrease
        // check only at 300 us): fast recovery, then the cut, which clamps Rt to the raised rate (timer stage 1).
        Simulator sim = new Simulator();
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, DcqcnParameters.of(DcqcnProfile.HPCC_NS3, 100_000_000_000L));
        rp.onCnp(0);
        sim.runUntil(Time.us(4));
        double g = 1.0 / 256;
        double alpha = Math.pow(1 - g, 4);
        double rc = G100 * (1 - alpha / 2);
        sim.runUntil(Time.ns(302_500));
        rp.onCnp(Time.ns(302_500));
        sim.runUntil(Time.us(304));
        double raised = (rc + G100) / 2;
        alpha *= Math.pow(1 - g, 298); // ticks at 5 .. 302 us
        alpha = (1 - g) * alpha + g; // 303 us: the CNP at 302.5 us
        alpha *= 1 - g; // 304 us, before the decrease at the same instant
        assertThat(rp.alpha()).isCloseTo(alpha, within(1e-12));
        assertThat(rp.targetRateBps()).as("Rt clamped to the rate the timer raised").isCloseTo(raised, within(1.0));
        rc = raised * (1 - alpha / 2);
        assertThat((double) rp.rateBps()).as("cut from the raised rate").isCloseTo(rc, within(1.0));
        assertThat(rp.cuts()).isEqualTo(2);
        // The cut restarted the timer: nothing until 604 us, then fast recovery (stage 0) half-way to Rt.
        sim.runUntil(Time.us(604) - 1);
        assertThat((double) rp.rateBps()).isCloseTo(rc, within(1.0));
        sim.runUntil(Time.us(604));
        assertThat((double) rp.rateBps()).isCloseTo((rc + raised) / 2, within(1.0));
    }

    @Test
    void shouldCutByAlphaHalfAtBoundaryWhenNvidiaFirmware() {
        Simulator sim = new Simulator();
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, DcqcnParameters.of(DcqcnProfile.NVIDIA, 100_000_000_000L));
        rp.onCnp(Time.ns(500));
        sim.runUntil(Time.us(4));
        // Alpha starts at 1023/1024; the first CNP does not count toward the first update (the firmware model clears
        // the flag), so the ticks at 1.5, 2.5, 3.5 us (the timers run from the first CNP at 0.5 us) decay with gain
        // 5/1024; the decrease check at 4.5 us.
        double gain = 5.0 / 1024;
        double a = 1023.0 / 1024;
        a *= Math.pow(1 - gain, 3);
        assertThat(rp.rateBps()).isEqualTo(100_000_000_000L);
        sim.runUntil(Time.ns(4500));
        a *= 1 - gain; // the tick at 4.5 us comes before the decrease at the same instant
        assertThat(rp.alpha()).isCloseTo(a, within(1e-12));
        assertThat((double) rp.rateBps()).isCloseTo(G100 * (1 - a / 2), within(1.0));
        // Timer increase at 4.5 + 300 us: both stages 0 < F = 1: fast recovery.
        double rc = G100 * (1 - a / 2);
        sim.runUntil(Time.ns(304_500));
        assertThat((double) rp.rateBps()).isCloseTo((rc + G100) / 2, within(1.0));
    }

    @Test
    void shouldCutImmediatelyAndDecayAlphaEveryKWhenPaperProfile() {
        Simulator sim = new Simulator();
        DcqcnParameters p = DcqcnParameters.of(DcqcnProfile.PAPER, 40_000_000_000L);
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, p);
        rp.onCnp(0);
        assertThat(rp.rateBps()).as("40G x (1 - 1/2)").isEqualTo(20_000_000_000L);
        sim.runUntil(Time.us(55));
        assertThat(rp.rateBps()).as("fast recovery: (20 + 40) / 2").isEqualTo(30_000_000_000L);
        sim.runUntil(Time.us(120));
        assertThat(rp.rateBps()).isEqualTo(35_000_000_000L);
        rp.onCnp(Time.us(120));
        double g = 1.0 / 256;
        // alpha after the first CNP: 1; two decays at 55 and 110 us; then the CNP update.
        double alpha = (1 - g) * Math.pow(1 - g, 2) + g;
        assertThat(rp.alpha()).isCloseTo(alpha, within(1e-12));
        assertThat((double) rp.rateBps()).isCloseTo(35e9 * (1 - alpha / 2), within(1.0));
        assertThat(rp.targetRateBps()).isEqualTo(35e9);
    }

    private static DcqcnParameters paper(int f, long decreasePeriodPs, long byteCounter, boolean clamp) {
        DcqcnParameters d = DcqcnParameters.of(DcqcnProfile.PAPER, 40_000_000_000L);
        return new DcqcnParameters(DcqcnProfile.PAPER, d.g(), d.initialAlpha(), d.alphaPeriodPs(), decreasePeriodPs,
                d.increaseTimerPs(), byteCounter, f, d.aiRateBps(), d.haiRateBps(), d.minRateBps(), d.maxRateBps(),
                d.maxCutFraction(), clamp, false, 0, d.cnpIntervalPs(), false);
    }

    @Test
    void shouldLeaveFastRecoveryWhenEitherCountReachesFWhenPaperProfile() {
        Simulator sim = new Simulator();
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, paper(2, 0, 1_000_000, true));
        rp.onCnp(0); // alpha 1: Rt 40, Rc 20 Gb/s
        rp.onCnp(Time.us(1)); // alpha still 1 (no tick yet): Rt 20, Rc 10 Gb/s
        sim.runUntil(Time.us(56)); // timer 1: both counts below F = 2, fast recovery
        assertThat(rp.rateBps()).isEqualTo(15_000_000_000L);
        sim.runUntil(Time.us(111)); // timer 2 reaches F: additive increase
        assertThat(rp.targetRateBps()).isEqualTo(20.04e9);
        assertThat(rp.rateBps()).isEqualTo(17_520_000_000L);
        // Byte counter 1 (of F = 2): the timer count already reached F, so additive increase, not fast recovery.
        rp.onSend(Time.us(112), 1_000_000);
        assertThat(rp.targetRateBps()).isEqualTo(20.08e9);
        assertThat(rp.rateBps()).isEqualTo(18_800_000_000L);
    }

    @Test
    void shouldBringTheTargetDownWithoutAlsoRaisingItInOneIncreaseWhenPaperProfile() {
        Simulator sim = new Simulator();
        // Cuts at 4 us boundaries without clamping Rt: four CNPs halve Rc (alpha 1) to 2.5 Gb/s, Rt stays 40 Gb/s.
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, paper(1, Time.us(4), 0, false));
        for (int i = 0; i < 4; i++) {
            sim.runUntil(Time.us(4 * i));
            rp.onCnp(Time.us(4 * i));
        }
        sim.runUntil(Time.us(16));
        assertThat(rp.rateBps()).isEqualTo(2_500_000_000L);
        assertThat(rp.targetRateBps()).isEqualTo(40e9);
        // First increase after the cut (timer, 55 us after it), with Rt > 10 Rc: Rt / 8 = 5 Gb/s and no additive
        // step on top, although the timer count reached F = 1; Rc = (2.5 + 5) / 2.
        sim.runUntil(Time.us(71));
        assertThat(rp.targetRateBps()).isEqualTo(5e9);
        assertThat(rp.rateBps()).isEqualTo(3_750_000_000L);
    }

    @Test
    void shouldNeverGoBelowMinimumRateWhenNotifiedContinuously() {
        Simulator sim = new Simulator();
        DcqcnParameters p = DcqcnParameters.of(DcqcnProfile.HPCC_NS3, 100_000_000_000L);
        DcqcnReactionPoint rp = new DcqcnReactionPoint(sim, p);
        for (long t = 0; t < Time.ms(1); t += Time.us(2)) {
            sim.runUntil(t);
            rp.onCnp(t);
        }
        sim.runUntil(Time.ms(1));
        assertThat(rp.rateBps()).isEqualTo(p.minRateBps());
    }
}
