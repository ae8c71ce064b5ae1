package rocelab.engine;

import java.math.BigDecimal;

/** Conversions between picoseconds (the simulator's time unit) and human units. */
public final class Time {
    public static final long PS_PER_NS = 1_000L;
    public static final long PS_PER_US = 1_000_000L;
    public static final long PS_PER_MS = 1_000_000_000L;
    public static final long PS_PER_S = 1_000_000_000_000L;

    private Time() {}

    public static long ns(long ns) {
        return Math.multiplyExact(ns, PS_PER_NS);
    }

    public static long us(long us) {
        return Math.multiplyExact(us, PS_PER_US);
    }

    public static long ms(long ms) {
        return Math.multiplyExact(ms, PS_PER_MS);
    }

    public static double toMicros(long ps) {
        return ps / (double) PS_PER_US;
    }

    /** Picoseconds as microseconds in words' plain decimal ({@code 4}, {@code 0.5}, {@code 55}): no trailing zeros. */
    public static String microsText(long ps) {
        return BigDecimal.valueOf(ps, 6).stripTrailingZeros().toPlainString();
    }

    public static double toSeconds(long ps) {
        return ps / (double) PS_PER_S;
    }
}
