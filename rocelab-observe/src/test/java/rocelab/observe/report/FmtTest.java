package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FmtTest {

    private static void same(double v, int decimals) {
        assertThat(Fmt.fixed(v, decimals)).as("%s to %d decimals", v, decimals)
                .isEqualTo(String.format(Locale.ROOT, "%." + decimals + "f", v));
    }

    /** The formatter's own output, for values at every magnitude a report draws and the ties between decimals. */
    @Test
    void fixedIsWhatTheFormatterPrints() {
        Random r = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            double magnitude = Math.pow(10, r.nextInt(19) - 9);
            double v = (r.nextDouble() * 2 - 1) * magnitude;
            same(v, r.nextInt(7));
        }
        // Halves at the rounded digit (0.05, 0.15, ..., 2.675 ...): the shortest decimal decides, not the binary.
        for (int k = -20_000; k <= 20_000; k++) {
            same(k / 20.0, 1);
            same(k / 200.0, 2);
            same(k / 2000.0, 3);
            same(k * 0.05, 1);
            same(k * 0.1, 0);
            same(k * 0.1 + 0.05, 1);
        }
        for (double v : new double[] {0.0, -0.0, -0.04, 0.04, -0.05, 1e-320, -1e-320, Double.MIN_VALUE, 1e15, 1e17,
            123456789012.5, 2.675, 1.005, 0.125, -0.125, 9.95, 99.95, 999.95, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            for (int d = 0; d <= 6; d++) {
                same(v, d);
            }
        }
    }

    /** Measured bytes in SI units, like the charts' axes: one peak queue reads the same in a table and a legend. */
    @Test
    void shouldWriteMeasuredBytesInSiUnits() {
        assertThat(Fmt.bytes(1_829_520)).isEqualTo("1.83 MB");
        assertThat(Fmt.bytes(994_000)).isEqualTo("994 kB");
        assertThat(Fmt.bytes(4096)).isEqualTo("4.096 kB");
        assertThat(Fmt.bytes(512)).isEqualTo("512 B");
        assertThat(Fmt.bytes(6_400_000_000.0)).isEqualTo("6.4 GB");
        // Four digits that round up to a thousand go to the next unit: lossy-incast's spine0 peak read "1000 kB".
        assertThat(Fmt.bytes(999_966)).isEqualTo("1 MB");
        assertThat(Fmt.bytes(999_400)).isEqualTo("999.4 kB");
        assertThat(Fmt.bytes(999.6)).isEqualTo("0.9996 kB");
        assertThat(Fmt.bytes(-999_966)).isEqualTo("-1 MB");
        assertThat(Fmt.time(999.96)).isEqualTo("1 ms");
        assertThat(Fmt.time(0.99996)).isEqualTo("1 us");
        assertThat(Fmt.time(6089.863866)).isEqualTo("6.09 ms");
        assertThat(Fmt.time(0.5)).isEqualTo("500 ns");
        assertThat(Fmt.time(2e6)).isEqualTo("2 s");
    }

    /** A workload's size as it was most likely written: exactly, in the units that need fewer digits. */
    @Test
    void shouldWriteAWorkloadSizeExactlyInSiOrBinaryUnits() {
        assertThat(Fmt.size(8L << 20)).isEqualTo("8 MiB");
        assertThat(Fmt.size(2_000_000)).isEqualTo("2 MB");
        assertThat(Fmt.size(300_000)).isEqualTo("300 kB");
        assertThat(Fmt.size(160_000_000)).isEqualTo("160 MB");
        assertThat(Fmt.size(64 << 10)).isEqualTo("64 KiB");
        assertThat(Fmt.size(1024)).isEqualTo("1 KiB");
        assertThat(Fmt.size(1L << 30)).isEqualTo("1 GiB");
        assertThat(Fmt.size(1000)).isEqualTo("1 kB");
        assertThat(Fmt.size(999)).isEqualTo("999 B");
        // Exact whatever it takes, in the fewest digits: 1.235 MB and 144.3 MB were not these sizes.
        assertThat(Fmt.size(1_234_567)).isEqualTo("1.234567 MB");
        assertThat(Fmt.size(144_349_184)).isEqualTo("140966 KiB");
        for (long b : new long[] {1000, 1024, 4096, 65_536, 300_000, 1_000_000, 1_048_576, 8_388_608, 40_000_000}) {
            assertThat(Fmt.size(b)).as("%d", b).doesNotContain(" KB").matches("[0-9.]+ (B|kB|MB|GB|KiB|MiB|GiB)");
        }
    }
}
