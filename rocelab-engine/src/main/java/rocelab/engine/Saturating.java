package rocelab.engine;

/**
 * Arithmetic on derived quantities (headroom, ideal times) that pins at {@link Long#MAX_VALUE} instead of wrapping
 * to a negative number, so that a quantity too large to represent compares as too large in every range check.
 */
public final class Saturating {
    private Saturating() {}

    /** a + b for non-negative a and b, or {@link Long#MAX_VALUE} when the sum does not fit. */
    public static long add(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** a x b for non-negative a and b, or {@link Long#MAX_VALUE} when the product does not fit. */
    public static long multiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }
}
