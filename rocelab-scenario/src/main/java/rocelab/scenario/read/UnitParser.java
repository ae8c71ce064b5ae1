package rocelab.scenario.read;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Converts sizes, rates and times written with units ({@code 4MiB}, {@code 400Gbps}, {@code 1.5us}) to integers. */
public final class UnitParser {
    /** What a size looks like, for error messages. */
    public static final String SIZE_FORMAT =
            "a number of bytes, optionally with a unit: B, KB, MB, GB, KiB, MiB, GiB (e.g. 4MiB)";
    /** What a rate looks like, for error messages. */
    public static final String RATE_FORMAT = "a number with a unit: bps, Kbps, Mbps, Gbps, Tbps, also written"
            + " Gb/s, Gbit/s or G (e.g. 100Gbps, 400G)";
    /** What a time looks like, for error messages. */
    public static final String TIME_FORMAT = "a number with a unit: ps, ns, us, ms, s (e.g. 1.5us), or 0";

    private static final Pattern QUANTITY = Pattern.compile("(-?)(\\d+(?:\\.\\d+)?)\\s*(\\S*)");

    private static final Map<String, Long> SIZE_UNITS = Map.of(
            "", 1L, "B", 1L, "KB", 1_000L, "MB", 1_000_000L, "GB", 1_000_000_000L,
            "KiB", 1L << 10, "MiB", 1L << 20, "GiB", 1L << 30);
    private static final Map<String, Long> RATE_UNITS = rateUnits();
    private static final Map<String, Long> TIME_UNITS = Map.of(
            "ps", 1L, "ns", 1_000L, "us", 1_000_000L, "µs", 1_000_000L, "ms", 1_000_000_000L,
            "s", 1_000_000_000_000L);

    private UnitParser() {}

    /** The forms engineers write a rate in: Gbps, Gb/s, Gbit/s, or the prefix alone (400G), with k or K for kilo. */
    private static Map<String, Long> rateUnits() {
        Map<String, Long> units = new HashMap<>();
        Map<String, Long> prefixes = Map.of("", 1L, "K", 1_000L, "k", 1_000L, "M", 1_000_000L, "G", 1_000_000_000L,
                "T", 1_000_000_000_000L);
        prefixes.forEach((prefix, factor) -> {
            for (String unit : new String[] {"bps", "b/s", "bit/s", "bits/s"}) {
                units.put(prefix + unit, factor);
            }
            if (!prefix.isEmpty()) {
                units.put(prefix, factor);
            }
        });
        return Map.copyOf(units);
    }

    /**
     * A size in bytes: a plain integer, or a number with B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of
     * 1024). Decimals are allowed when the result is a whole number of bytes. Zero is accepted; negatives are not.
     *
     * @throws IllegalArgumentException with a message "what is wrong; expected ..." when the text is not a size
     */
    public static long bytes(String text) {
        // One limit, however far past it: a size beyond a long was told 'at most 9223372036854775807 bytes'.
        return parse(text, "size", SIZE_FORMAT, SIZE_UNITS, "bytes", false, MAX_BYTES, "1 PiB");
    }

    /**
     * The largest size accepted: 1 PiB. A message's time on the wire is counted in picoseconds in a long, which holds
     * 106 days; 1 PiB at 1 Gb/s takes 104 days. Larger sizes overflowed silently (a flow of 2^63 - 1 bytes sent
     * nothing and had an ideal time of 4.68 us).
     */
    public static final long MAX_BYTES = 1L << 50;

    /**
     * A rate in bit/s: a number with bps, Kbps, Mbps, Gbps or Tbps (powers of 1000); the unit is required and the
     * rate must be above zero and come to a whole number of bit/s ({@code 25.78125Gbps} does).
     *
     * @throws IllegalArgumentException with a message "what is wrong; expected ..." when the text is not a rate
     */
    public static long rateBps(String text) {
        long bps = parse(text, "rate", RATE_FORMAT, RATE_UNITS, "bit/s", true, Long.MAX_VALUE, null);
        if (bps == 0) {
            throw new IllegalArgumentException(
                    quote(text) + " is zero; expected a rate above 0 bit/s (e.g. 100Gbps)");
        }
        return bps;
    }

    /**
     * A time in picoseconds: a number with ps, ns, us (or µs), ms or s; decimals are allowed when the result is a
     * whole number of picoseconds. A bare {@code 0} means zero; other bare numbers are rejected.
     *
     * @throws IllegalArgumentException with a message "what is wrong; expected ..." when the text is not a time
     */
    public static long timePs(String text) {
        if (text != null && text.trim().equals("0")) {
            return 0L;
        }
        return parse(text, "time", TIME_FORMAT, TIME_UNITS, "picoseconds", true, Long.MAX_VALUE, null);
    }

    /**
     * The quantity {@code text} gives, in {@code base} units, at most {@code max} ({@code maxName}, when it has one,
     * names it in words).
     */
    private static long parse(String text, String what, String format, Map<String, Long> units, String base,
                              boolean unitRequired, long max, String maxName) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no " + what + " given; expected " + format);
        }
        String t = text.trim();
        Matcher m = QUANTITY.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(quote(text) + " is not a " + what + "; expected " + format);
        }
        String unit = m.group(3);
        if (unit.isEmpty() && unitRequired) {
            throw new IllegalArgumentException(quote(text) + " has no unit; expected " + format);
        }
        Long factor = units.get(unit);
        if (factor == null) {
            throw new IllegalArgumentException(quote(text) + " is not a " + what + "; expected " + format);
        }
        if (!m.group(1).isEmpty()) {
            // No bound named: where a place needs more than 0 it says so, and 'at least 0' then read as a contradiction.
            throw new IllegalArgumentException(quote(text) + " is negative; expected a " + what + " (" + format + ")");
        }
        BigDecimal value = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(factor));
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(quote(text) + " is not a whole number of " + base + "; expected a "
                    + what + " that comes to an integer number of " + base);
        }
        if (value.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException(quote(text) + (maxName == null ? " is too large" : " is more than "
                    + maxName) + "; expected a " + what + " of at most " + String.format(Locale.ROOT, "%,d", max) + " "
                    + base);
        }
        return value.longValueExact();
    }

    private static String quote(String text) {
        return "'" + text + "'";
    }
}
