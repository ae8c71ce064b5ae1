package rocelab.congestion.dcqcn;

import java.util.Arrays;

/**
 * (1 - g)^n, the decay of DCQCN's alpha over n update periods without a CNP, for the small n that come up in every
 * period. {@link StrictMath#pow} gives the reproducible value but allocates on each call (the JDK's Java fdlibm), so
 * the powers up to {@link #TABLE} are computed with it once per g and looked up after; larger n (a long idle spell)
 * still call it. The same doubles either way, so results do not change.
 */
final class AlphaDecay {
    static final int TABLE = 4096;
    /** One table per g seen in this JVM (a scenario has one or a few; sweeps run points side by side). */
    private static AlphaDecay[] known = new AlphaDecay[0];

    private final double g;
    private final double[] powers = new double[TABLE + 1];

    private AlphaDecay(double g) {
        this.g = g;
        for (int n = 0; n <= TABLE; n++) {
            powers[n] = StrictMath.pow(1 - g, n);
        }
    }

    /** The table for {@code g} (shared, read only once built). */
    static synchronized AlphaDecay of(double g) {
        for (AlphaDecay d : known) {
            if (Double.compare(d.g, g) == 0) {
                return d;
            }
        }
        AlphaDecay d = new AlphaDecay(g);
        known = Arrays.copyOf(known, known.length + 1);
        known[known.length - 1] = d;
        return d;
    }

    /** (1 - g)^n, exactly as {@code StrictMath.pow(1 - g, n)}. */
    double factor(long n) {
        return n <= TABLE ? powers[(int) n] : StrictMath.pow(1 - g, n);
    }
}
