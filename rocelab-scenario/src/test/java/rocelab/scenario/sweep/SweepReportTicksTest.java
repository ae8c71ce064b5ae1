package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sweep charts' y axes: round ticks that cover the data, and labels short enough for the axis. */
class SweepReportTicksTest {
    @Test
    void shouldPutTicksOnRoundStepsThatCoverTheData() {
        // A quarter of 1,507 gave 376.7, 753.3, 1130, 1507.
        assertThat(SweepReport.ticks(0, 1507)).containsExactly(0, 500, 1000, 1500, 2000);
        assertThat(SweepReport.ticks(0, 8_000_000)).containsExactly(0, 2e6, 4e6, 6e6, 8e6);
        assertThat(SweepReport.ticks(0, 1)).containsExactly(0, 0.25, 0.5, 0.75, 1);
        assertThat(SweepReport.ticks(0, 0.37)).containsExactly(0, 0.1, 0.2, 0.3, 0.4);
        assertThat(SweepReport.ticks(-3, 7)).containsExactly(-5, -2.5, 0, 2.5, 5, 7.5);
        for (double hi : new double[] {1, 3, 7.7, 12, 99, 101, 1e3, 4321, 1.5e9}) {
            double[] t = SweepReport.ticks(0, hi);
            assertThat(t.length).as("ticks up to %s", hi).isBetween(4, 9);
            assertThat(t[0]).isZero();
            assertThat(t[t.length - 1]).isGreaterThanOrEqualTo(hi);
            double step = t[1] - t[0];
            double mantissa = step / Math.pow(10, Math.floor(Math.log10(step)));
            assertThat(mantissa).as("step %s", step).isIn(1.0, 2.0, 2.5, 5.0);
        }
    }

    @Test
    void shouldLabelTicksShortlyWithOneUnitPerAxis() {
        assertThat(SweepReport.tickLabel(8e6, 2e6, 8e6)).isEqualTo("8M");
        assertThat(SweepReport.tickLabel(5e5, 5e5, 2e6)).isEqualTo("0.5M");
        assertThat(SweepReport.tickLabel(0, 2e6, 8e6)).isEqualTo("0");
        assertThat(SweepReport.tickLabel(12_500, 2_500, 12_500)).isEqualTo("12.5k");
        assertThat(SweepReport.tickLabel(0.75, 0.25, 1)).isEqualTo("0.75");
        assertThat(SweepReport.tickLabel(1500, 500, 2000)).isEqualTo("1500");
    }
}
