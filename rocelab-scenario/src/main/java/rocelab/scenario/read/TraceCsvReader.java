package rocelab.scenario.read;

import java.util.List;
import java.util.regex.Pattern;
import rocelab.workload.inference.Arrivals;

/**
 * Reads a request trace in CSV ({@code arrival_ns,prompt_tokens,output_tokens}: when a request arrives and its first
 * LLM call's sizes) with positioned errors, like the flow list.
 */
final class TraceCsvReader {
    static final String HEADER = "arrival_ns,prompt_tokens,output_tokens";

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern NEGATIVE = Pattern.compile("-\\d+");
    private static final String[] FIELDS = HEADER.split(",");
    private static final long MAX_TOKENS = 1L << 30;

    private TraceCsvReader() {}

    static List<Arrivals.Arrival> parse(String text, String shown) throws ScenarioException {
        return HeaderedCsv.rows(text, HEADER, shown, "the trace has no requests",
                (line, lineNo) -> row(line, lineNo, shown));
    }

    private static Arrivals.Arrival row(String line, int lineNo, String shown) throws ScenarioException {
        HeaderedCsv.Field[] fields = HeaderedCsv.fields(line, lineNo, shown, HEADER);
        long[] v = new long[FIELDS.length];
        for (int f = 0; f < FIELDS.length; f++) {
            String value = fields[f].value();
            int col = fields[f].column();
            String expected = f == 0 ? "a whole number of nanoseconds >= 0 (no unit)"
                    : "a whole number of tokens in 1.." + MAX_TOKENS;
            if (NEGATIVE.matcher(value).matches()) {
                // A whole number all the same: what is wrong is its sign.
                throw new ScenarioException(shown, lineNo, col, FIELDS[f] + " " + value
                        + (f == 0 ? " is negative" : " is too small") + "; expected " + expected);
            }
            if (!DIGITS.matcher(value).matches()) {
                String what = value.isEmpty() ? " is empty" : " '" + value + "' is not a whole number";
                throw new ScenarioException(shown, lineNo, col, FIELDS[f] + what + "; expected " + expected);
            }
            long max = f == 0 ? Long.MAX_VALUE / 1000 : MAX_TOKENS;
            long parsed;
            try {
                parsed = Long.parseLong(value);
            } catch (NumberFormatException e) {
                parsed = Long.MAX_VALUE;
            }
            if (parsed > max || (f > 0 && parsed < 1)) {
                throw new ScenarioException(shown, lineNo, col, FIELDS[f] + " " + value + " is out of range; expected "
                        + expected);
            }
            v[f] = parsed;
        }
        return new Arrivals.Arrival(v[0] * 1000, v[1], (int) v[2]);
    }
}
