package rocelab.observe.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Numbers as a reader wants them: sensible precision, units that fit the magnitude. */
final class Fmt {
    private Fmt() {}

    /** A simulated time given in microseconds, in ns, us, ms or s with three or four significant digits. */
    static String time(double us) {
        if (Double.isNaN(us)) {
            return "";
        }
        if (us == 0) {
            return "0 us";
        }
        return scaled(us * 1e3, TIME_NAMES);
    }

    private static final String[] TIME_NAMES = {" ns", " us", " ms", " s"};
    private static final String[] BYTE_NAMES = {" B", " kB", " MB", " GB"};

    /**
     * {@code v} (in the first unit of {@code names}, each the next a thousand times larger) in the largest unit it
     * reaches, with four significant digits, and in the next when they round up to a thousand: 999,966 B read
     * "1000 kB" (an audit), now "1 MB".
     */
    private static String scaled(double v, String[] names) {
        double a = Math.abs(v);
        int u = 0;
        double scale = 1;
        while (u < names.length - 1 && a >= scale * 1e3) {
            u++;
            scale *= 1e3;
        }
        String s = u == 0 && names == BYTE_NAMES ? fixed(v, 0) : sig(v / scale);
        if (u < names.length - 1 && Math.abs(Double.parseDouble(s)) >= 1e3) {
            u++;
            scale *= 1e3;
            s = sig(v / scale);
        }
        return s + names[u];
    }

    /** Microseconds with up to three decimals (nanoseconds), for tables with a "us" heading. */
    static String us(double us) {
        if (Double.isNaN(us)) {
            return "";
        }
        return num(us, Math.abs(us) >= 1000 ? 1 : 3);
    }

    static String num(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "";
        }
        return fixed(v, decimals);
    }

    /**
     * Exactly {@code String.format(Locale.ROOT, "%.<decimals>f", v)} (the shortest decimal that reads back as
     * {@code v}, rounded half up; a negative value that rounds to zero keeps its sign), several times cheaper: the
     * report's drawings write thousands of coordinates, and the formatter parsing its pattern for each was a fifth of
     * the report's time on a small run (FmtTest checks the two agree).
     */
    static String fixed(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
        BigDecimal r = BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP);
        String s = r.toPlainString();
        return r.signum() == 0 && (v < 0 || 1 / v < 0) ? "-" + s : s;
    }

    /** Four significant digits, no exponent, trailing zeros dropped. */
    static String sig(double v) {
        if (v == 0) {
            return "0";
        }
        int digits = Math.max(0, 3 - (int) Math.floor(Math.log10(Math.abs(v))));
        String s = fixed(v, Math.min(digits, 6));
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /*
     * Bytes in the report. Everything the run measured or configured (queue depths, buffer peaks, ECN and PFC
     * thresholds) is in SI units, B, kB, MB, GB (powers of 1000), like the charts' axes (2M = 2,000,000) and the
     * bandwidths (GB/s, Gb/s): a peak queue reads the same in the ports table as in the queue chart's legend. A size
     * the workload asked for (a flow's, a collective's) is written in whichever of SI or binary units (KiB, MiB, GiB:
     * powers of 1024, as the scenario format defines them) writes it exactly in fewer digits, SI when both or neither
     * do: 8MiB in a scenario reads 8 MiB (not 8.389 MB), 2MB reads 2 MB (not 1.907 MiB).
     */

    /** Bytes measured or configured, in B, kB, MB or GB (powers of 1000, as the charts' axes count them). */
    static String bytes(double b) {
        return scaled(b, BYTE_NAMES);
    }

    /**
     * A workload's size, exactly: in whichever of B, kB, MB, GB, KiB, MiB or GiB writes it in the fewest digits (SI on
     * a tie). 144,349,184 B is 140966 KiB (four significant digits of MB made it 144.3 MB, which it is not).
     */
    static String size(long b) {
        long a = Math.abs(b);
        if (a < 1000) {
            return b + " B";
        }
        String best = String.format(Locale.ROOT, "%,d B", b);
        int bestDigits = Long.toString(a).length() + 1; // a unit that needs as many digits reads better
        long[] units = {1_000_000_000L, 1_000_000L, 1_000L, 1L << 30, 1L << 20, 1L << 10};
        String[] names = {" GB", " MB", " kB", " GiB", " MiB", " KiB"};
        for (int i = 0; i < units.length; i++) {
            if (a < units[i]) {
                continue;
            }
            // Exact: a power of ten or of two divides into a terminating decimal.
            String q = new BigDecimal(b).divide(BigDecimal.valueOf(units[i])).stripTrailingZeros().toPlainString();
            if (digits(q) < bestDigits) {
                best = q + names[i];
                bestDigits = digits(q);
            }
        }
        return best;
    }

    private static int digits(String n) {
        return n.replace("-", "").replace(".", "").replaceFirst("^0+", "").length();
    }

    /** A count with thousands separators. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
