package rocelab.scenario.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.workload.traffic.FlowListTraffic;
import rocelab.workload.traffic.FlowSpec;

/** Reads a flow list in CSV ({@code src_host,dst_host,size_bytes,start_ns}) with positioned errors. */
final class FlowsCsvReader {
    static final String HEADER = "src_host,dst_host,size_bytes,start_ns";

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern NEGATIVE = Pattern.compile("-\\d+");
    private static final String[] FIELDS = HEADER.split(",");

    private final Doc doc;
    private final int hostCount;

    FlowsCsvReader(Doc doc, int hostCount) {
        this.doc = doc;
        this.hostCount = hostCount;
    }

    /**
     * @param fileNode the YAML node naming the file (missing or unreadable files are reported there)
     * @param file the path as written in the scenario
     * @param resolved the absolute path
     * @param shown how the CSV file is named in messages about its content
     */
    FlowListTraffic read(Node fileNode, String file, Path resolved, String shown) throws ScenarioException {
        String text = load(doc, fileNode, resolved, "; expected a CSV file with the header " + HEADER);
        return new FlowListTraffic(file, parse(text, shown));
    }

    /** The text of a CSV file named at {@code fileNode}; a missing, unreadable or non-UTF-8 file is an error there. */
    static String load(Doc doc, Node fileNode, Path resolved, String expected) throws ScenarioException {
        if (!Files.exists(resolved)) {
            throw doc.at(fileNode, "file not found: " + resolved + expected);
        }
        if (!Files.isRegularFile(resolved)) {
            throw doc.at(fileNode, resolved + " is not a regular file" + expected);
        }
        String text;
        try {
            byte[] bytes = Files.readAllBytes(resolved);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw doc.at(fileNode, resolved + " is not UTF-8 text" + expected);
        } catch (IOException e) {
            throw doc.at(fileNode, "cannot read " + resolved + " (" + e.getClass().getSimpleName() + ")" + expected);
        }
        return text;
    }

    List<FlowSpec> parse(String text, String shown) throws ScenarioException {
        return HeaderedCsv.rows(text, HEADER, shown, "the file has no flows", (line, lineNo) -> row(line, lineNo, shown));
    }

    private FlowSpec row(String line, int lineNo, String shown) throws ScenarioException {
        HeaderedCsv.Field[] fields = HeaderedCsv.fields(line, lineNo, shown, HEADER);
        long[] v = new long[FIELDS.length];
        int[] col = new int[FIELDS.length];
        for (int f = 0; f < FIELDS.length; f++) {
            String value = fields[f].value();
            col[f] = fields[f].column();
            v[f] = number(value, f, lineNo, col[f], shown);
        }
        for (int f = 0; f < 2; f++) {
            if (v[f] >= hostCount) {
                throw new ScenarioException(shown, lineNo, col[f], TrafficReader.outOfRange(v[f], hostCount));
            }
        }
        if (v[0] == v[1]) {
            throw new ScenarioException(shown, lineNo, col[1], "the flow goes from host " + v[0] + " to itself;"
                    + " expected a dst_host different from src_host");
        }
        if (v[2] < 1) {
            throw new ScenarioException(shown, lineNo, col[2], "size_bytes 0 is too small; expected a whole number"
                    + " of bytes >= 1");
        }
        if (v[2] > UnitParser.MAX_BYTES) {
            throw new ScenarioException(shown, lineNo, col[2], "size_bytes " + v[2] + " is more than 1 PiB; expected at"
                    + " most " + UnitParser.MAX_BYTES + " bytes");
        }
        if (v[3] > Long.MAX_VALUE / 1000) {
            throw new ScenarioException(shown, lineNo, col[3], "start_ns " + v[3] + " is too large; expected at most "
                    + Long.MAX_VALUE / 1000 + " ns");
        }
        return new FlowSpec((int) v[0], (int) v[1], v[2], v[3] * 1000);
    }

    private long number(String value, int field, int lineNo, int col, String shown) throws ScenarioException {
        String expected = switch (field) {
            case 0, 1 -> "a host index 0.." + (hostCount - 1);
            case 2 -> "a whole number of bytes >= 1 (no unit)";
            default -> "a whole number of nanoseconds >= 0 (no unit)";
        };
        if (NEGATIVE.matcher(value).matches()) {
            // A whole number all the same: what is wrong is its sign.
            String what = field == 2 ? " is too small" : " is negative";
            throw new ScenarioException(shown, lineNo, col, FIELDS[field] + " " + value + what + "; expected "
                    + expected);
        }
        if (!DIGITS.matcher(value).matches()) {
            String what = value.isEmpty() ? " is empty" : " '" + value + "' is not a whole number";
            throw new ScenarioException(shown, lineNo, col, FIELDS[field] + what + "; expected " + expected);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ScenarioException(shown, lineNo, col, FIELDS[field] + " " + value + " is too large; expected "
                    + expected);
        }
    }
}
