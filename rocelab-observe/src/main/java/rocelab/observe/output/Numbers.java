package rocelab.observe.output;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Stable number formatting for outputs: fixed decimals, no exponent, no locale. */
public final class Numbers {
    private Numbers() {}

    /**
     * Ascending integers written as runs: {@code 0-3,6,8-9} for {@code 0 1 2 3 6 8 9}, each with {@code prefix}
     * ({@code h0-h3} for hosts).
     */
    public static String ranges(int[] sorted, String prefix) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.length; i++) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
                j++;
            }
            b.append(b.length() == 0 ? "" : ",").append(prefix).append(sorted[i])
                    .append(j > i ? "-" + prefix + sorted[j] : "");
            i = j;
        }
        return b.toString();
    }

    /**
     * {@code n} and the noun for it: {@code count(1, "switch", "switches")} is "1 switch", {@code count(6662, "flow",
     * "flows")} "6,662 flows", with the thousands separators of every other count the outputs print.
     */
    public static String count(long n, String one, String many) {
        return String.format(Locale.ROOT, "%,d", n) + " " + (n == 1 ? one : many);
    }

    /**
     * How many of {@code n} items a list shows that shows {@code max} and counts the rest ({@code and 2 more}): all of
     * them when at most one would be left, which is named rather than counted as {@code 1 more}.
     */
    public static int shown(int n, int max) {
        return n <= max + 1 ? n : max;
    }

    /** Up to 6 decimals (half to even), trailing zeros dropped; NaN and infinities become empty. */
    public static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "";
        }
        return BigDecimal.valueOf(v).setScale(6, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** Picoseconds as microseconds with picosecond precision, as a JSON/CSV number. */
    public static BigDecimal micros(long ps) {
        return BigDecimal.valueOf(ps, 6).stripTrailingZeros();
    }

    public static BigDecimal round(double v, int decimals) {
        return BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
