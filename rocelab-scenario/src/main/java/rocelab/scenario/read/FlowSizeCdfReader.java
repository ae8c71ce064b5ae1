package rocelab.scenario.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.nodes.Node;
import rocelab.workload.traffic.FlowSizeCdf;

/**
 * Reads a flow-size CDF file in the form the ns-3 RDMA model's traffic generator reads (and the literature's
 * workload files come in): one point per line, a size in bytes and the percent of flows at or below it, separated by
 * blanks, e.g. {@code 10000 15}; the first point at 0 %, the last at 100 %, both columns strictly increasing. Blank
 * lines and lines starting with {@code #} are skipped. Every problem names the file, line and column.
 */
final class FlowSizeCdfReader {
    static final String FORMAT = "one point per line: a size in bytes and the percent of flows at or below it, e.g."
            + " '10000 15', from 0 % to 100 %";

    private FlowSizeCdfReader() {}

    /** The CDF in {@code resolved}, named in messages as {@code shown}; a missing file is reported at fileNode. */
    static FlowSizeCdf read(Doc doc, Node fileNode, String file, Path resolved, String shown) throws ScenarioException {
        String text = FlowsCsvReader.load(doc, fileNode, resolved, "; expected a flow-size CDF file, " + FORMAT);
        return parse(text, file, shown);
    }

    static FlowSizeCdf parse(String text, String name, String shown) throws ScenarioException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] lines = text.split("\n", -1);
        List<double[]> points = new ArrayList<>();
        int lastLine = 1;
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            double[] fields = new double[2];
            int[] columns = new int[2];
            int at = 0;
            int count = 0;
            while (at < line.length()) {
                while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
                    at++;
                }
                if (at == line.length()) {
                    break;
                }
                int from = at;
                while (at < line.length() && !Character.isWhitespace(line.charAt(at))) {
                    at++;
                }
                if (count == 2) {
                    throw new ScenarioException(shown, lineNo, from + 1, "a third field '" + line.substring(from, at)
                            + "'; expected " + FORMAT);
                }
                String value = line.substring(from, at);
                String label = count == 0 ? "size" : "percent";
                double v;
                try {
                    v = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    v = Double.NaN;
                }
                if (!Double.isFinite(v) || value.endsWith("f") || value.endsWith("d") || value.endsWith("F")
                        || value.endsWith("D")) {
                    throw new ScenarioException(shown, lineNo, from + 1, label + " '" + value + "' is not a number;"
                            + " expected " + FORMAT);
                }
                columns[count] = from + 1;
                fields[count++] = v;
            }
            if (count < 2) {
                throw new ScenarioException(shown, lineNo, line.length() + 1, "the line has " + (count == 0 ? "no"
                        : "one") + " field" + (count == 0 ? "s" : "") + "; expected " + FORMAT);
            }
            check(points, fields, columns, lineNo, shown);
            points.add(fields);
            lastLine = lineNo;
        }
        if (points.isEmpty()) {
            throw new ScenarioException(shown, 1, 1, "the file has no points; expected " + FORMAT);
        }
        double[] last = points.get(points.size() - 1);
        if (last[1] != 100 || points.size() < 2) {
            throw new ScenarioException(shown, lastLine, 1, "the last point is at " + trim(last[1]) + " %; expected"
                    + " the CDF to end at 100 %");
        }
        double[] sizes = new double[points.size()];
        double[] percents = new double[points.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = points.get(i)[0];
            percents[i] = points.get(i)[1];
        }
        return new FlowSizeCdf(name, sizes, percents);
    }

    private static void check(List<double[]> points, double[] p, int[] col, int lineNo, String shown)
            throws ScenarioException {
        if (p[0] < 0) {
            throw new ScenarioException(shown, lineNo, col[0], "size " + trim(p[0]) + " is negative; expected a size"
                    + " in bytes of 0 or more");
        }
        if (p[0] > UnitParser.MAX_BYTES) {
            throw new ScenarioException(shown, lineNo, col[0], "size " + trim(p[0]) + " is more than 1 PiB; expected"
                    + " a size in bytes of at most " + UnitParser.MAX_BYTES);
        }
        if (p[1] < 0 || p[1] > 100) {
            throw new ScenarioException(shown, lineNo, col[1], "percent " + trim(p[1]) + " is out of range; expected"
                    + " 0..100");
        }
        if (points.isEmpty()) {
            if (p[1] != 0) {
                throw new ScenarioException(shown, lineNo, col[1], "the first point is at " + trim(p[1]) + " %;"
                        + " expected the CDF to start at 0 % (e.g. '0 0')");
            }
            return;
        }
        double[] before = points.get(points.size() - 1);
        if (!(p[0] > before[0])) {
            throw new ScenarioException(shown, lineNo, col[0], "size " + trim(p[0]) + " does not exceed the size"
                    + " before it (" + trim(before[0]) + "); expected sizes that increase line by line");
        }
        if (!(p[1] > before[1])) {
            throw new ScenarioException(shown, lineNo, col[1], "percent " + trim(p[1]) + " does not exceed the"
                    + " percent before it (" + trim(before[1]) + "); expected percents that increase line by line");
        }
    }

    private static String trim(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
