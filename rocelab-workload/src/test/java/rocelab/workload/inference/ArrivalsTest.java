package rocelab.workload.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArrivalsTest {
    @Test
    void shouldDrawAboutRateTimesDurationPoissonArrivalsWithExponentialGaps() {
        // 2000 requests expected: the count of a Poisson process has standard deviation sqrt(2000) ~ 45.
        Arrivals.Poisson p = new Arrivals.Poisson(1000, 5_000_000L, 2_000_000_000_000L, 0);
        for (long seed = 1; seed <= 5; seed++) {
            List<Arrivals.Arrival> a = p.draw(new SplittableRandom(seed));
            assertThat(a.size()).isBetween(2000 - 4 * 45, 2000 + 4 * 45);
            assertThat(a.get(0).atPs()).isGreaterThanOrEqualTo(5_000_000L);
            assertThat(a.get(a.size() - 1).atPs()).isLessThan(5_000_000L + 2_000_000_000_000L);
            double meanGap = (a.get(a.size() - 1).atPs() - a.get(0).atPs()) / (double) (a.size() - 1);
            assertThat(meanGap).isBetween(0.9e9, 1.1e9);
            // Exponential gaps: the share of gaps under the mean is 1 - 1/e ~ 0.632.
            long shortGaps = 0;
            for (int i = 1; i < a.size(); i++) {
                assertThat(a.get(i).atPs()).isGreaterThanOrEqualTo(a.get(i - 1).atPs());
                shortGaps += a.get(i).atPs() - a.get(i - 1).atPs() < 1e9 ? 1 : 0;
            }
            assertThat(shortGaps / (double) (a.size() - 1)).isBetween(0.58, 0.68);
        }
    }

    @Test
    void shouldStopAtTheCountAndRepeatForTheSameRandomStream() {
        Arrivals.Poisson p = new Arrivals.Poisson(5, 0, 0, 17);
        assertThat(p.draw(new SplittableRandom(3))).hasSize(17).isEqualTo(p.draw(new SplittableRandom(3)))
                .isNotEqualTo(p.draw(new SplittableRandom(4)));
        assertThatThrownBy(() -> new Arrivals.Poisson(5, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSortATraceByArrivalKeepingFileOrderForTies() {
        Arrivals.Trace t = new Arrivals.Trace("t.csv", List.of(new Arrivals.Arrival(30, 1, 1),
                new Arrivals.Arrival(10, 2, 1), new Arrivals.Arrival(30, 3, 1)));
        assertThat(t.draw(null)).extracting(Arrivals.Arrival::promptTokens).containsExactly(2L, 1L, 3L);
    }

    @Test
    void shouldSizeTheKvCacheAndActivationsAsTheReferenceDoes() {
        // Llama-3 70B: 320 KiB per token; Llama-3 8B: 128 KiB; a 4K-token prefill AllReduce of 64 MiB.
        assertThat(new ModelShape(80, 8192, 64, 8, 128, 2).kvBytesPerToken()).isEqualTo(320 * 1024);
        assertThat(new ModelShape(32, 4096, 32, 8, 128, 2).kvBytesPerToken()).isEqualTo(128 * 1024);
        assertThat(new ModelShape(80, 8192, 64, 8, 128, 2).activationBytes(4096)).isEqualTo(64L << 20);
        // Decode at batch 32: 512 KiB per AllReduce.
        assertThat(new ModelShape(80, 8192, 64, 8, 128, 2).activationBytes(32)).isEqualTo(512 * 1024);
    }
}
