package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NiceTicksTest {
    @Test
    void shouldStepByOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
        assertThat(NiceTicks.step(0.0007473, 5)).isEqualTo(0.0002);
        assertThat(NiceTicks.step(12171, 5)).isEqualTo(2500);
        assertThat(NiceTicks.step(1, 5)).isEqualTo(0.2);
        assertThat(NiceTicks.step(1.2, 5)).isEqualTo(0.25);
        assertThat(NiceTicks.step(3, 5)).isEqualTo(1);
        assertThat(NiceTicks.step(40, 5)).isEqualTo(10);
        assertThat(NiceTicks.step(5_000_000, 5)).isEqualTo(1_000_000);
        assertThat(NiceTicks.step(0, 5)).isEqualTo(1);
    }

    @Test
    void shouldCoverTheRangeWithWholeStepsFromZero() {
        // The sweep chart that read 0, 0.0001868, 0.0003737, 0.0005605, 0.0007473.
        assertThat(NiceTicks.ticks(0, 0.0007473, 5)).containsExactly(0, 0.0002, 0.0004, 0.0006, 0.0008);
        assertThat(NiceTicks.ticks(0, 12171, 5)).containsExactly(0, 2500, 5000, 7500, 10000, 12500);
        assertThat(NiceTicks.ticks(0, 0.3, 5)).containsExactly(0, 0.1, 0.2, 0.3);
        assertThat(NiceTicks.ticks(-3.2, 7.5, 5)).containsExactly(-5, -2.5, 0, 2.5, 5, 7.5);
        assertThat(NiceTicks.ticks(0, 0, 5)).containsExactly(0, 0.2);
        for (double hi : new double[] {0.37, 0.74, 1.7, 716.8, 1.829e6, 9.99e9}) {
            double[] t = NiceTicks.ticks(0, hi, 5);
            assertThat(t[0]).isZero();
            assertThat(t[t.length - 1]).isGreaterThanOrEqualTo(hi);
            assertThat(t.length - 1).isBetween(2, 5);
            double mantissa = (t[1] - t[0]) / Math.pow(10, Math.floor(Math.log10(t[1] - t[0])));
            assertThat(mantissa).as("step %s", t[1] - t[0]).isIn(1.0, 2.0, 2.5, 5.0);
        }
    }

    @Test
    void shouldLabelWithTheDecimalsTheStepNeeds() {
        assertThat(NiceTicks.labels(NiceTicks.ticks(0, 0.0007473, 5)))
                .containsExactly("0", "0.0002", "0.0004", "0.0006", "0.0008");
        assertThat(NiceTicks.labels(new double[] {0, 0.25, 0.5, 0.75, 1}))
                .containsExactly("0", "0.25", "0.5", "0.75", "1");
        assertThat(NiceTicks.labels(NiceTicks.ticks(0, 12171, 5)))
                .containsExactly("0", "2.5k", "5k", "7.5k", "10k", "12.5k");
        assertThat(NiceTicks.labels(NiceTicks.ticks(0, 716.8, 5))).containsExactly("0", "200", "400", "600", "800");
        assertThat(NiceTicks.labels(NiceTicks.ticks(0, 1_829_520, 5)))
                .containsExactly("0", "0.5M", "1M", "1.5M", "2M");
        assertThat(NiceTicks.labels(NiceTicks.ticks(-1, 1, 5))).containsExactly("-1", "-0.5", "0", "0.5", "1");
        assertThat(NiceTicks.decimals(0.25)).isEqualTo(2);
        assertThat(NiceTicks.decimals(2.5)).isEqualTo(1);
        assertThat(NiceTicks.decimals(500)).isZero();
    }
}
