package rocelab.observe.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Value-axis ticks at round numbers: steps of 1, 2, 2.5 or 5 x 10^k, the axis widened to whole steps, and labels
 * with the decimals the step needs (0.25 steps read 0.25, 0.5, 0.75, never 0.3 or 0.37), thousands and up as k, M,
 * G. sweep.html draws its charts with them; the functions are pure, so a test can check them.
 */
public final class NiceTicks {
    private static final double[] MANTISSAS = {1, 2, 2.5, 5, 10};

    private NiceTicks() {}

    /** The smallest round step that covers {@code span} in at most {@code maxSteps} steps. */
    public static double step(double span, int maxSteps) {
        if (!(span > 0) || !Double.isFinite(span) || maxSteps < 1) {
            return 1;
        }
        double raw = span / maxSteps;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : MANTISSAS) {
            // The tolerance keeps 0.2 / 0.1 (1.9999999...) from becoming 2.5.
            if (m * mag >= raw * (1 - 1e-9)) {
                return clean(m * mag);
            }
        }
        return clean(10 * mag);
    }

    /**
     * Ticks from the last whole step at or below {@code lo} to the first at or above {@code hi} (the axis is that
     * range): {@code ticks[0]} and {@code ticks[n - 1]} are its ends. {@code lo == hi} widens to one step above.
     */
    public static double[] ticks(double lo, double hi, int maxSteps) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
            return new double[] {0, 1};
        }
        if (hi < lo) {
            double t = lo;
            lo = hi;
            hi = t;
        }
        double s = step(hi > lo ? hi - lo : Math.max(Math.abs(hi), 1), maxSteps);
        long first = (long) Math.floor(lo / s + 1e-9);
        long last = Math.max(first + 1, (long) Math.ceil(hi / s - 1e-9));
        double[] out = new double[(int) (last - first + 1)];
        for (int i = 0; i < out.length; i++) {
            // i * step, not a running sum: 0.1 + 0.2 is 0.30000000000000004.
            out[i] = clean((first + i) * s);
        }
        return out;
    }

    /**
     * The labels of ticks {@code ticks} (as {@link #ticks} gives): a suffix k, M or G when the largest tick is 10,000
     * or more, and as many decimals as the step needs, trailing zeros dropped.
     */
    public static String[] labels(double[] ticks) {
        double step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
        double max = 0;
        for (double t : ticks) {
            max = Math.max(max, Math.abs(t));
        }
        double scale = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : max >= 1e4 ? 1e3 : 1;
        String suffix = scale == 1e9 ? "G" : scale == 1e6 ? "M" : scale == 1e3 ? "k" : "";
        int d = decimals(step / scale);
        String[] out = new String[ticks.length];
        for (int i = 0; i < ticks.length; i++) {
            String s = trim(BigDecimal.valueOf(ticks[i] / scale).setScale(d, RoundingMode.HALF_UP).toPlainString());
            out[i] = s.equals("0") || s.equals("-0") ? "0" : s + suffix;
        }
        return out;
    }

    /** Decimals that write multiples of {@code step} exactly (2 for 0.25, 1 for 2.5, 0 for 500). */
    static int decimals(double step) {
        if (!(step > 0) || !Double.isFinite(step)) {
            return 0;
        }
        int d = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        while (d < 12) {
            double scaled = step * Math.pow(10, d);
            if (Math.abs(scaled - Math.rint(scaled)) <= 1e-6 * Math.max(1, scaled)) {
                break;
            }
            d++;
        }
        return d;
    }

    /** The shortest double near {@code v} at 12 significant digits (drops binary noise like 0.30000000000000004). */
    private static double clean(double v) {
        return v == 0 ? 0 : new BigDecimal(v).round(new MathContext(12)).doubleValue();
    }

    private static String trim(String s) {
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
