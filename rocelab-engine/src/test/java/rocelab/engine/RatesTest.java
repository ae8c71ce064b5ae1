package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RatesTest {
    /** ceil(bytes x 8e12 / rate) in 128 bits, saturated: the definition the long arithmetic must match. */
    private static long reference(long bytes, long rateBps) {
        BigInteger[] qr = BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(8L * Time.PS_PER_S))
                .divideAndRemainder(BigInteger.valueOf(rateBps));
        BigInteger ps = qr[0].add(qr[1].signum() > 0 ? BigInteger.ONE : BigInteger.ZERO);
        return ps.bitLength() < Long.SIZE ? ps.longValue() : Long.MAX_VALUE;
    }

    @Test
    void shouldGiveTheExactRoundedUpTimeForFramesPausesAndWholeMessages() {
        long[] rates = {1, 7, 1_000_000, 25_000_000_000L, 40_000_000_000L, 100_000_000_000L, 200_000_000_000L,
                400_000_000_000L, 800_000_000_000L, 1_600_000_000_000L, 3_600_000_000_000L, 7_200_000_000_000L,
                3_000_000_000_001L, 99_999_999_977L,
                Long.MAX_VALUE};
        long[] sizes = {0, 1, 64, 1_000, 9_216, 1_152_921, 1_152_922, 65_535 * 64L, 11_529_215, 11_529_216,
                100_663_296, 1L << 30, 1L << 40, 1L << 50, 562_949_953_421_311L, 562_949_953_421_312L,
                Long.MAX_VALUE / 2, Long.MAX_VALUE};
        for (long rate : rates) {
            for (long bytes : sizes) {
                assertThat(Rates.serializationPs(bytes, rate)).as("%d B at %d b/s", bytes, rate)
                        .isEqualTo(reference(bytes, rate));
            }
        }
        SplittableRandom random = new SplittableRandom(16);
        for (int i = 0; i < 20_000; i++) {
            long bytes = random.nextLong(1L << random.nextInt(1, 63));
            long rate = 1 + random.nextLong(1L << random.nextInt(1, 62));
            assertThat(Rates.serializationPs(bytes, rate)).as("%d B at %d b/s", bytes, rate)
                    .isEqualTo(reference(bytes, rate));
        }
    }

    /** The memo's multiplication gives the definition's time, at rates that divide 8e12 and others, near overflow. */
    @Test
    void shouldGiveTheSameTimeThroughTheMemoAsWithoutIt() {
        SplittableRandom random = new SplittableRandom(7);
        long[] rates = {400_000_000_000L, 3_600_000_000_000L, 100_000_000_000L, 800_000_000_000L, 1, 8_000_000_000_000L,
            25_000_000_000L, 7};
        Rates.Memo memo = new Rates.Memo();
        for (int i = 0; i < 40_000; i++) {
            long rate = i % 3 == 2 ? 1 + random.nextLong(1L << random.nextInt(1, 50))
                    : rates[random.nextInt(rates.length)];
            // Sizes near the largest the multiplication takes, and anything below.
            long nearOverflow = Long.MAX_VALUE / Math.max(1, 8_000_000_000_000L / rate) + random.nextInt(-2, 3);
            long bytes = Math.max(0, random.nextInt(4) == 0 ? nearOverflow
                    : random.nextLong(1L << random.nextInt(1, 63)));
            assertThat(memo.serializationPs(bytes, rate)).as("%d B at %d b/s", bytes, rate)
                    .isEqualTo(reference(bytes, rate));
        }
    }

    /**
     * At a rate that does not divide 8e12 the memo multiplies by the numerator of 8e12 / rate in lowest terms and
     * divides by its denominator: the definition's time too, near the largest size that multiplication takes (where
     * it must hand over to the general path) and below, with rates alternating so the memo is remade.
     */
    @Test
    void shouldGiveTheSameTimeThroughTheMemoAtRatesThatDoNotDivideTheSecond() {
        SplittableRandom random = new SplittableRandom(36);
        long[] rates = {3_600_000_000_000L, 900_000_000_000L, 1_800_000_000_000L, 7_000_000_000L, 3,
            999_999_999_989L, 300_000_000_000L, Long.MAX_VALUE};
        Rates.Memo memo = new Rates.Memo();
        for (int i = 0; i < 40_000; i++) {
            long rate = i % 2 == 0 ? rates[random.nextInt(rates.length)]
                    // products of small primes: fractions in lowest terms of every size of denominator
                    : (1L << random.nextInt(0, 13)) * pow(3, random.nextInt(0, 6)) * pow(5, random.nextInt(0, 14))
                            * pow(7, random.nextInt(0, 3));
            long gcd = BigInteger.valueOf(8_000_000_000_000L).gcd(BigInteger.valueOf(rate)).longValueExact();
            long numerator = 8_000_000_000_000L / gcd;
            long denominator = rate / gcd;
            long largest = Long.MAX_VALUE / numerator;
            long bytes = Math.max(0, random.nextInt(3) == 0 ? largest + random.nextInt(-2, 3)
                    : random.nextLong(1L << random.nextInt(1, 63)));
            // A multiple of the denominator is a whole number of picoseconds; one byte more is not.
            for (long b : new long[] {bytes, bytes - bytes % denominator, bytes + 1}) {
                assertThat(memo.serializationPs(b, rate)).as("%d B at %d b/s", b, rate).isEqualTo(reference(b, rate));
            }
        }
    }

    private static long pow(long base, int exponent) {
        long p = 1;
        for (int i = 0; i < exponent; i++) {
            p *= base;
        }
        return p;
    }

    @Test
    void shouldGiveTheExactTimeOfWholeMessagesAtRatesThatDoNotDivideTheSecond() {
        // The double estimate and its correction in 128 bits: sizes near multiples of the rate, where rounding bites.
        SplittableRandom random = new SplittableRandom(12);
        long[] rates = {3_600_000_000_000L, 900_000_000_000L, 7_000_000_000L, 3, 999_999_999_989L};
        for (int i = 0; i < 20_000; i++) {
            long rate = i % 2 == 0 ? rates[i / 2 % rates.length] : 1 + random.nextLong(1L << random.nextInt(1, 62));
            long bytes = random.nextLong(1L << random.nextInt(20, 63));
            for (long b : new long[] {bytes, Math.max(0, bytes - bytes % Math.max(1, rate / 1000)), bytes + 1}) {
                assertThat(Rates.serializationPs(b, rate)).as("%d B at %d b/s", b, rate).isEqualTo(reference(b, rate));
            }
        }
    }

    @Test
    void shouldNotAllocateForWholeMessagesOverNvlink() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long sum = 0;
        for (int i = 0; i < 20_000; i++) {
            sum += Rates.serializationPs(100_000_000L + i, 3_600_000_000_000L);
        }
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 10_000; i++) {
            sum += Rates.serializationPs(1_000_000_000L + 4097L * i, 3_600_000_000_000L);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertThat(sum).isPositive();
        assertThat(allocated).as("bytes allocated by 10,000 NVLink message times").isLessThan(1024);
    }

    @Test
    void shouldNotAllocateForAPauseOfMaximalQuanta() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long sum = 0;
        for (int i = 0; i < 20_000; i++) { // warm up (the interpreter allocates nothing either, but be sure)
            sum += Rates.serializationPs(65_535 * 64L, 100_000_000_000L + i);
        }
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 10_000; i++) {
            sum += Rates.serializationPs(65_535 * 64L, 25_000_000_000L + 7L * i);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertThat(sum).isPositive();
        assertThat(allocated).as("bytes allocated by 10,000 pause durations").isLessThan(1024);
    }
}
