package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every pause's first XOFF is a dot of its own on the queue chart, those sent at the same picosecond by different
 * ports included (lossless-dcqcn's 286 pauses drew 280 dots: the chart holds one value per series at an instant).
 */
class XoffDotsTest {
    @Test
    void shouldKeepEveryDotOfXoffsSentAtTheSameInstant() {
        List<double[]> pts = List.of(new double[] {10, 500}, new double[] {10, 700}, new double[] {10, 900},
                new double[] {12, 600});
        TimeCharts.Trace t = TimeCharts.trace("XOFF", pts);
        Aligned a = Aligned.of(List.of(t.t()), List.of(t.v()), new boolean[] {true}, 0, 0, 20);
        long dots = java.util.Arrays.stream(a.y[0]).filter(y -> !Double.isNaN(y)).count();
        assertThat(dots).isEqualTo(4);
        assertThat(java.util.Arrays.stream(a.y[0]).filter(y -> !Double.isNaN(y)).boxed().toList())
                .containsExactly(500.0, 700.0, 900.0, 600.0);
        // Each within a picosecond of the instant it was sent at.
        assertThat(t.t()).containsExactly(10, 10 + 1e-6, 10 + 1e-6 + 1e-6, 12);
    }
}
