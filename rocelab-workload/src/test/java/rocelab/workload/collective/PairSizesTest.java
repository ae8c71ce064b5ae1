package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Zipf-skewed AlltoAllv sizes: exact row sums, the Zipf weights, one hot destination for all, seeded. */
class PairSizesTest {
    @Test
    void shouldSplitEveryRowExactlyWithZipfWeightsSharedByAllSenders() {
        int n = 8;
        long perRank = 1_000_003;
        double exponent = 1.2;
        PairSizes p = PairSizes.zipf(n, perRank, exponent, 7);
        double harmonic = 0;
        for (int k = 1; k <= n; k++) {
            harmonic += 1 / Math.pow(k, exponent);
        }
        long[] sorted = new long[n];
        for (int i = 0; i < n; i++) {
            assertThat(p.sent(i)).isEqualTo(perRank);
            for (int j = 0; j < n; j++) {
                assertThat(p.bytes(i, j)).isEqualTo(p.bytes(0, j));
                sorted[j] = p.bytes(i, j);
            }
        }
        Arrays.sort(sorted);
        for (int k = 1; k <= n; k++) {
            // The k-th most popular destination gets perRank / (k^s H(n, s)), to within the rounding byte.
            assertThat((double) sorted[n - k]).isCloseTo(perRank / Math.pow(k, exponent) / harmonic,
                    org.assertj.core.api.Assertions.within(1.0));
        }
        // The hottest rank receives from everyone: that is the nccl-tests size.
        assertThat(p.ncclSize()).isEqualTo(n * sorted[n - 1]);
    }

    @Test
    void shouldPlaceHotDestinationsBySeedOnly() {
        assertThat(PairSizes.zipf(16, 1 << 20, 1.0, 3)).isEqualTo(PairSizes.zipf(16, 1 << 20, 1.0, 3))
                .isNotEqualTo(PairSizes.zipf(16, 1 << 20, 1.0, 4));
        assertThat(PairSizes.zipf(4, 4000, 0, 3)).isEqualTo(PairSizes.uniform(4, 4000));
    }

    @Test
    void shouldRejectMatricesThatAreNotSquareOrEmpty() {
        assertThatThrownBy(() -> PairSizes.of(new long[][] {{1, 2}, {3}})).hasMessageContaining("row 1");
        assertThatThrownBy(() -> PairSizes.of(new long[][] {{0, 0}, {0, 0}})).hasMessageContaining("at least one");
        assertThatThrownBy(() -> PairSizes.of(new long[][] {{0, -1}, {0, 0}})).hasMessageContaining("negative");
    }
}
