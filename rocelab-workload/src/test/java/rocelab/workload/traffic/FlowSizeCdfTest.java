package rocelab.workload.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FlowSizeCdfTest {
    @Test
    void shouldHaveThePublishedMeansOfItsBuiltInDistributions() {
        // Each segment's midpoint times its share: the means the HPCC simulations' traffic generator computes.
        assertThat(FlowSizeCdf.WEBSEARCH.meanBytes()).isCloseTo(1_711_250, within(1e-6));
        assertThat(FlowSizeCdf.FB_HADOOP.meanBytes()).isCloseTo(120_420.75, within(1e-6));
        assertThat(FlowSizeCdf.ALI_STORAGE.meanBytes()).isCloseTo(40_869.8, within(1e-6));
        assertThat(FlowSizeCdf.named("websearch")).isSameAs(FlowSizeCdf.WEBSEARCH);
        assertThat(FlowSizeCdf.named("fb-hadoop")).isSameAs(FlowSizeCdf.FB_HADOOP);
        assertThat(FlowSizeCdf.named("nope")).isNull();
    }

    @Test
    void shouldInterpolateLinearlyBetweenItsPoints() {
        FlowSizeCdf c = FlowSizeCdf.WEBSEARCH;
        assertThat(c.sizeAt(0)).isEqualTo(0);
        assertThat(c.sizeAt(15)).isEqualTo(10_000);
        assertThat(c.sizeAt(7.5)).isEqualTo(5_000);
        assertThat(c.sizeAt(65)).isEqualTo(600_000);
        assertThat(c.sizeAt(100)).isEqualTo(30_000_000);
    }

    @Test
    void shouldDrawSizesWhoseMeanAndQuantilesAreTheDistributions() {
        SplittableRandom random = new SplittableRandom(7);
        int n = 400_000;
        long[] sizes = new long[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sizes[i] = FlowSizeCdf.FB_HADOOP.sample(random);
            sum += sizes[i];
        }
        // The mean of a heavy-tailed draw converges slowly: 400k draws of FB Hadoop are within 3 % of its mean.
        assertThat(sum / n).isCloseTo(FlowSizeCdf.FB_HADOOP.meanBytes(), within(0.03 * FlowSizeCdf.FB_HADOOP.meanBytes()));
        java.util.Arrays.sort(sizes);
        assertThat(sizes[n / 2]).isBetween(690L, 710L); // its 50 % point is 700 B
        assertThat(sizes[(int) (0.9 * n)]).isBetween(115_000L, 125_000L); // its 90 % point is 120 KB
        assertThat(sizes[0]).isGreaterThanOrEqualTo(1);
        assertThat(sizes[n - 1]).isLessThanOrEqualTo(10_000_000);
    }

    @Test
    void shouldRefusePointsThatAreNotACdf() {
        assertThat(FlowSizeCdf.problem(new double[] {0, 10}, new double[] {5, 100})).contains("expected 0");
        assertThat(FlowSizeCdf.problem(new double[] {0, 10}, new double[] {0, 90})).contains("expected 100");
        assertThat(FlowSizeCdf.problem(new double[] {0, 10, 10}, new double[] {0, 50, 100})).contains("increase");
        assertThat(FlowSizeCdf.problem(new double[] {0, 10, 20, 30}, new double[] {0, 50, 50, 100})).contains("increase");
        assertThat(FlowSizeCdf.problem(new double[] {5}, new double[] {100})).contains("at least two");
        assertThatThrownBy(() -> new FlowSizeCdf("x", new double[] {0, 1}, new double[] {0, 99}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
