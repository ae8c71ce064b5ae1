package rocelab.observe.report;

import java.util.Locale;

/** Numbers as a reader wants them: sensible precision, units that fit the magnitude. */
final class Fmt {
    private Fmt() {}

    /** A simulated time given in microseconds, in ns, us, ms or s with three or four significant digits. */
    static String time(double us) {
        if (Double.isNaN(us)) {
            return "";
        }
        double a = Math.abs(us);
        if (a == 0) {
            return "0 us";
        } else if (a < 1) {
            return sig(us * 1e3) + " ns";
        } else if (a < 1e3) {
            return sig(us) + " us";
        } else if (a < 1e6) {
            return sig(us / 1e3) + " ms";
        }
        return sig(us / 1e6) + " s";
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
        java.math.BigDecimal r = java.math.BigDecimal.valueOf(v).setScale(decimals, java.math.RoundingMode.HALF_UP);
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

    /**
     * A size as the scenario would have written it: in KiB, MiB or GiB when it is a whole number of the binary unit
     * (8 MiB, 64 KiB), otherwise decimal like every measured quantity ({@link #siBytes}: 1 MB, 1.83 MB). A report
     * then says 8 MiB for a message written 8MiB and 1 MB for one written 1MB, never 976.6 KiB.
     */
    static String bytes(double b) {
        double a = Math.abs(b);
        double unit = a >= 1L << 30 ? 1L << 30 : a >= 1 << 20 ? 1 << 20 : 1 << 10;
        double hundredths = a / unit * 100;
        if (a < 1 << 10 || hundredths != Math.rint(hundredths)) {
            return siBytes(b);
        }
        if (a >= 1L << 30) {
            return sig(b / (1L << 30)) + " GiB";
        } else if (a >= 1 << 20) {
            return sig(b / (1 << 20)) + " MiB";
        } else if (a >= 1 << 10) {
            return sig(b / (1 << 10)) + " KiB";
        }
        return String.format(Locale.ROOT, "%.0f B", b);
    }

    /** Bytes in B, kB, MB or GB (decimal, as the charts' axes count them). */
    static String siBytes(double b) {
        double a = Math.abs(b);
        if (a >= 1e9) {
            return sig(b / 1e9) + " GB";
        } else if (a >= 1e6) {
            return sig(b / 1e6) + " MB";
        } else if (a >= 1e3) {
            return sig(b / 1e3) + " kB";
        }
        return String.format(Locale.ROOT, "%.0f B", b);
    }

    /** A count with thousands separators. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
