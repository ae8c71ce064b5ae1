package rocelab.scenario.read;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spellings of ns-3's {@code DataRate} ({@code 100Gbps}, {@code 25Gb/s}, {@code 1GBps} in bytes) and
 * {@code Time} ({@code 0.001ms}, {@code 1000ns}, a bare number in seconds), as ns-3's own parsers take them, converted
 * exactly to bit/s and picoseconds. ns-3 truncates a fractional bit/s and rounds a time to its resolution; here a
 * value that does not come to a whole number of the base unit is refused instead.
 */
final class Ns3Units {
    static final String RATE_FORMAT = "an ns-3 data rate: a number with bps, Kbps (or kbps), Mbps, Gbps, also"
            + " written b/s, Kb/s, Mb/s, Gb/s; Bps, KBps, MBps, GBps (bytes); Kib/s, Mib/s, Gib/s, KiB/s, MiB/s, GiB/s"
            + " (e.g. 100Gbps)";
    static final String TIME_FORMAT = "an ns-3 time: a number with s, ms, us, ns or ps, or a bare number of seconds"
            + " (e.g. 0.001ms, 1000ns)";

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(\\S*)");
    private static final Pattern TIME = Pattern.compile("([+-]?)(\\d+(?:\\.\\d*)?|\\.\\d+)(\\S*)");
    private static final Map<String, Long> RATE_UNITS = rateUnits();
    private static final Map<String, Long> TIME_UNITS = Map.of("", 1_000_000_000_000L, "s", 1_000_000_000_000L,
            "ms", 1_000_000_000L, "us", 1_000_000L, "ns", 1_000L, "ps", 1L);

    private Ns3Units() {}

    /** Bits per second of each of DataRate's units: both cases of k, bits and bytes, and the binary prefixes. */
    private static Map<String, Long> rateUnits() {
        Map<String, Long> units = new HashMap<>();
        units.put("", 1L);
        // ns-3 spells kilo both ways, mega and giga only in capitals; B is a byte.
        Map<String, Long> decimal = Map.of("", 1L, "k", 1_000L, "K", 1_000L, "M", 1_000_000L, "G", 1_000_000_000L);
        decimal.forEach((prefix, factor) -> {
            units.put(prefix + "bps", factor);
            units.put(prefix + "b/s", factor);
            units.put(prefix + "Bps", factor * 8);
            units.put(prefix + "B/s", factor * 8);
        });
        Map<String, Long> binary = Map.of("Ki", 1L << 10, "Mi", 1L << 20, "Gi", 1L << 30);
        binary.forEach((prefix, factor) -> {
            units.put(prefix + "b/s", factor);
            units.put(prefix + "B/s", factor * 8);
        });
        return Map.copyOf(units);
    }

    /**
     * A rate in bit/s, above zero and whole.
     *
     * @throws IllegalArgumentException "what is wrong; expected ..."
     */
    static long rateBps(String text) {
        Matcher m = RATE.matcher(text);
        Long factor = m.matches() ? RATE_UNITS.get(m.group(2)) : null;
        if (factor == null) {
            String what = text.startsWith("-") ? " is negative" : " is not a data rate";
            throw new IllegalArgumentException(Doc.quoted(text) + what + "; expected " + RATE_FORMAT);
        }
        BigDecimal bps = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(factor));
        if (bps.signum() == 0) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is zero; expected a rate above 0 bit/s");
        }
        return exact(text, bps, "bit/s", "rate");
    }

    /**
     * A time in picoseconds, at least zero and whole.
     *
     * @throws IllegalArgumentException "what is wrong; expected ..."
     */
    static long timePs(String text) {
        Matcher m = TIME.matcher(text);
        Long factor = m.matches() ? TIME_UNITS.get(m.group(3)) : null;
        if (factor == null) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is not a time; expected " + TIME_FORMAT);
        }
        BigDecimal ps = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(factor));
        if (m.group(1).equals("-") && ps.signum() != 0) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is negative; expected a delay of 0 or more");
        }
        return exact(text, ps, "picoseconds", "time");
    }

    /**
     * Seconds written as a decimal ({@code 2.000000005}, as the HPCC traffic generator prints them, or {@code 2e-3}),
     * in picoseconds, rounded to the nearest one: a double printed in full has more digits than a picosecond holds, and
     * ns-3 itself keeps only nanoseconds.
     *
     * @throws IllegalArgumentException "what is wrong; expected ..." (the value is known to be a number of seconds)
     */
    static long secondsToPs(BigDecimal seconds, String text) {
        BigDecimal ps = seconds.scaleByPowerOfTen(12).setScale(0, RoundingMode.HALF_EVEN);
        if (ps.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is too large; expected at most "
                    + BigDecimal.valueOf(Long.MAX_VALUE).scaleByPowerOfTen(-12).toPlainString() + " seconds");
        }
        return ps.longValueExact();
    }

    private static long exact(String text, BigDecimal value, String base, String what) {
        if (value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is not a whole number of " + base + "; expected a "
                    + what + " that comes to an integer number of " + base);
        }
        if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException(Doc.quoted(text) + " is too large; expected at most " + Long.MAX_VALUE
                    + " " + base);
        }
        return value.longValueExact();
    }

    /** Picoseconds as seconds, plainly ("1000", "0.5"). */
    static String seconds(long ps) {
        return BigDecimal.valueOf(ps, 12).stripTrailingZeros().toPlainString();
    }

    /** Whether an ns-3 time is written without a unit (so in seconds). */
    static boolean bare(String text) {
        return !text.isEmpty() && (Character.isDigit(text.charAt(text.length() - 1)) || text.endsWith("."));
    }
}
