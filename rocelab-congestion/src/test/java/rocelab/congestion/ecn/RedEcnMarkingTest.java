package rocelab.congestion.ecn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The marked fraction follows the RED curve; nothing is marked at or below Kmin, everything above Kmax. */
class RedEcnMarkingTest {
    private final RedEcnMarking red = new RedEcnMarking(400_000, 1_600_000, 0.2, new SplittableRandom(5));

    private double markedFraction(long queueBytes, int samples) {
        int marked = 0;
        for (int i = 0; i < samples; i++) {
            if (red.shouldMark(0, queueBytes, null)) {
                marked++;
            }
        }
        return marked / (double) samples;
    }

    @Test
    void shouldMatchRedCurveWhenQueueIsBetweenThresholds() {
        int n = 200_000;
        for (long q : new long[] {500_000, 1_000_000, 1_500_000}) {
            double p = 0.2 * (q - 400_000) / 1_200_000.0;
            double sigma = Math.sqrt(p * (1 - p) / n);
            assertThat(markedFraction(q, n)).as("q = %d", q).isCloseTo(p, within(5 * sigma));
        }
    }

    @Test
    void shouldNeverMarkAtOrBelowKminAndAlwaysAboveKmax() {
        assertThat(markedFraction(0, 10_000)).isZero();
        assertThat(markedFraction(400_000, 10_000)).isZero();
        assertThat(markedFraction(1_600_001, 10_000)).isEqualTo(1.0);
    }

    @Test
    void shouldMarkEveryPacketAboveKWhenStep() {
        StepEcnMarking step = new StepEcnMarking(100_000);
        assertThat(step.shouldMark(0, 100_000, null)).isFalse();
        assertThat(step.shouldMark(0, 100_001, null)).isTrue();
    }

    @Test
    void shouldScaleDefaultThresholdsWithPortRate() {
        EcnParameters d = EcnParameters.defaults();
        assertThat(d.kminFor(100_000_000_000L)).isEqualTo(400_000);
        assertThat(d.kmaxFor(100_000_000_000L)).isEqualTo(1_600_000);
        assertThat(d.kminFor(400_000_000_000L)).isEqualTo(1_600_000);
        assertThat(d.kFor(100_000_000_000L)).isEqualTo(300_000);
    }
}
