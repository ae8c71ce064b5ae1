package rocelab.observe.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The streaming CSV writer prints exactly what {@link CsvTable} prints for the same cells. */
class CsvStreamTest {
    @Test
    void shouldWriteTheSameBytesAsCsvTable() throws Exception {
        SplittableRandom random = new SplittableRandom(12);
        List<String> header = List.of("n", "us", "x", "s", "b", "e");
        CsvTable table = new CsvTable(header);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvStream stream = new CsvStream(bytes, header);
        long[] edges = {0, 1, -1, 999_999, 1_000_000, 10_000_000, -1_000_000, 123_000_000_000L, Long.MAX_VALUE,
            Long.MIN_VALUE, 1_500_000, 20};
        double[] doubles = {1.0, 0.5, 1.0000005, 1.0000015, 2.0 / 3, 1e-7, 123456.7890125, Double.NaN,
            Double.POSITIVE_INFINITY, -0.0, 7e20, 1.2345675};
        String[] texts = {"completed", "=SUM(A1)", "a,b", "say \"hi\"", "-3.5", "", "leaf0:3"};
        for (int i = 0; i < 4_000; i++) {
            long n = i < edges.length ? edges[i] : random.nextLong() >> random.nextInt(64);
            long ps = i < edges.length ? edges[edges.length - 1 - i] : random.nextLong() >> random.nextInt(64);
            double x = i < doubles.length ? doubles[i] : random.nextInt(4) == 0 ? doubles[random.nextInt(doubles.length)]
                    : (double) random.nextLong(1, 1L << 40) / random.nextLong(1, 1L << 40);
            String s = texts[random.nextInt(texts.length)];
            boolean b = random.nextBoolean();
            table.row(n, Numbers.micros(ps), x, s, b, null);
            stream.number(n).micros(ps).number(x).text(s).bool(b).empty().endRow();
        }
        stream.flush();

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(table.toString());
    }

    /**
     * Integers and picosecond times at every digit count's edges (10^k - 1, 10^k, 10^k + 1, both signs, the int
     * range's ends) and over random magnitudes, against {@link Long#toString} and {@link Numbers#micros}, across
     * many buffer refills.
     */
    @Test
    void shouldWriteIntegersAndTimesAsLongToStringAndNumbersMicrosDo() throws Exception {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, 9L, 10L, 99L, 100L, Long.MAX_VALUE,
                Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, (long) Integer.MAX_VALUE,
                Integer.MAX_VALUE + 1L, (long) Integer.MIN_VALUE, Integer.MIN_VALUE - 1L, 1_000_001L, 1_000_010L,
                1_100_000L, 999_999_999_999L));
        for (long p = 10; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            for (long v : new long[] {p - 1, p, p + 1, 10 * p - 1}) {
                values.add(v);
                values.add(-v);
            }
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            values.add(random.nextLong() >> random.nextInt(64));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvStream stream = new CsvStream(bytes, List.of("n", "us"));
        StringBuilder expected = new StringBuilder("n,us\n");
        for (long v : values) {
            stream.number(v).micros(v).endRow();
            expected.append(Long.toString(v)).append(',').append(Numbers.micros(v).toPlainString()).append('\n');
        }
        stream.flush();

        assertThat(bytes.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void shouldWriteDecimalsAsCsvTableDoes() throws Exception {
        SplittableRandom random = new SplittableRandom(5);
        List<String> header = List.of("d", "r");
        CsvTable table = new CsvTable(header);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvStream stream = new CsvStream(bytes, header);
        for (int i = 0; i < 5_000; i++) {
            double v = i == 0 ? 0 : i == 1 ? -0.0005 : i == 2 ? 1e21 : (random.nextDouble() - 0.3) * Math.pow(10,
                    random.nextInt(-8, 12));
            BigDecimal d = i == 3 ? null : Numbers.round(v, 3);
            table.row(d, Numbers.round(v, 2));
            stream.decimal(d).decimal(Numbers.round(v, 2)).endRow();
        }
        stream.flush();

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(table.toString());
    }

    /**
     * Rounded doubles remembered by value: the same text as {@code Numbers.round} through {@link CsvTable}, when
     * values repeat (half of them drawn from a few), when two decimal counts share a value, and when values collide
     * in the cache; NaN is refused as {@code Numbers.round} refuses it.
     */
    @Test
    void shouldWriteRoundedDoublesAsNumbersRoundDoesWhenTheyRepeat() throws Exception {
        SplittableRandom random = new SplittableRandom(9);
        double[] few = {479.957123, 419.9625, 1.0, 0.0005, -2.5e-4, 12345.6785, 7.0 / 3};
        List<String> header = List.of("a", "b", "c");
        CsvTable table = new CsvTable(header);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CsvStream stream = new CsvStream(bytes, header);
        for (int i = 0; i < 20_000; i++) {
            double v = random.nextBoolean() ? few[random.nextInt(few.length)]
                    : (random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(-8, 12));
            table.row(Numbers.round(v, 3), Numbers.round(v, 2), Numbers.round(-v, 3));
            stream.rounded(v, 3).rounded(v, 2).rounded(-v, 3).endRow();
        }
        stream.flush();

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(table.toString());
        assertThatThrownBy(() -> stream.rounded(Double.NaN, 3)).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void shouldRefuseARowOfTheWrongWidth() throws Exception {
        CsvStream stream = new CsvStream(new ByteArrayOutputStream(), List.of("a", "b"));

        assertThatThrownBy(() -> stream.number(1).endRow()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 2 cells, got 1");
    }

    /**
     * A rate in bits per second written as Gb/s from the integer prints what the double n / 1e9 prints: at the
     * rounding ties (n % 1000 == 500, half to even) and next to them, at whole gigabits, at zero, at the edges of the
     * fast path's range and over random rates of every magnitude up to terabits.
     */
    @Test
    void shouldWriteBillionthsAsTheDoubleQuotientPrints() throws Exception {
        List<Long> values = new ArrayList<>(List.of(0L, 1L, 499L, 500L, 501L, 999L, 1000L, 1500L, 2500L,
                100_000_000_000L, 99_999_999_500L, 99_999_999_499L, 99_999_999_501L, 37_500_000_000L, 12_345_678_901L,
                999_999_999_999_999L, 1_000_000_000_000_000L, 1_000_000_000_000_500L, -1L, -1500L, Long.MAX_VALUE,
                Long.MIN_VALUE));
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 500_000; i++) {
            long n = random.nextLong(1L << random.nextInt(1, 51));
            values.add(n);
            // The ties and their neighbours at this magnitude.
            long tie = n / 1000 * 1000 + 500;
            values.add(tie);
            values.add(tie + random.nextInt(-2, 3));
        }
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        ByteArrayOutputStream viaDouble = new ByteArrayOutputStream();
        CsvStream a = new CsvStream(fast, List.of("rate"));
        CsvStream b = new CsvStream(viaDouble, List.of("rate"));
        for (long n : values) {
            a.billionths(n).endRow();
            b.number(n / 1e9).endRow();
        }
        a.flush();
        b.flush();

        String[] got = fast.toString(StandardCharsets.US_ASCII).split("\n");
        String[] expected = viaDouble.toString(StandardCharsets.US_ASCII).split("\n");
        assertThat(got).hasSameSizeAs(expected);
        for (int i = 0; i < got.length; i++) {
            assertThat(got[i]).as("row %d (n = %d)", i, i == 0 ? 0 : values.get(i - 1)).isEqualTo(expected[i]);
        }
    }
}
