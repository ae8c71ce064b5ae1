package rocelab.scenario.read;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import rocelab.scenario.read.Ns3Lines.Line;
import rocelab.workload.traffic.FlowSpec;

/**
 * Reads the flow file of the ns-3 RDMA model (the HPCC simulator's {@code flow.txt}, the output of its traffic
 * generator): a line with the number of flows N, then N lines {@code <src> <dst> <pg> <dport> <size> <start>}, the
 * size in bytes and the start in seconds. The endpoints are ns-3 node ids when the topology came from an ns-3 topology
 * file (they are translated to its hosts), host indices otherwise. pg and dport must be whole numbers and are not used:
 * every flow runs on the RNIC's priority. A file with fewer or more flow lines than N is refused, where it differs.
 */
final class Ns3FlowsReader {
    static final String FORMAT = "the ns-3 flow format: the number of flows N on the first line, then N lines"
            + " '<src> <dst> <pg> <dport> <size bytes> <start seconds>'";
    private static final String ROW = "'<src> <dst> <pg> <dport> <size bytes> <start seconds>', e.g."
            + " '0 5 3 100 1000000 2.000000005'";
    private static final Pattern SECONDS = Pattern.compile("[+-]?(\\d+(?:\\.\\d*)?|\\.\\d+)([eE][+-]?\\d{1,3})?");
    private static final String UNUSED = "a whole number (read, not used: every flow runs on nic.priority)";

    private final Ns3Lines lines;
    private final int hostCount;
    private final Ns3Topology topology;

    /** {@code topology}: the ns-3 topology whose node ids the endpoints are, or null when they are host indices. */
    Ns3FlowsReader(Ns3Lines lines, int hostCount, Ns3Topology topology) {
        this.lines = lines;
        this.hostCount = hostCount;
        this.topology = topology;
    }

    List<FlowSpec> read() throws ScenarioException {
        Line head = lines.next("the file is empty", FORMAT);
        lines.requireFields(head, 1, "the number of flows alone on the first line, e.g. '2'");
        long n = lines.whole(head, 0, "the flow count", 1, Integer.MAX_VALUE, "a number of flows in 1.."
                + Integer.MAX_VALUE);
        List<FlowSpec> flows = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            Line l = lines.next("the file ends after " + i + (i == 1 ? " flow" : " flows"), n + " flows, as its first"
                    + " line says (one " + ROW + " per line)" + generatorCount(n, i));
            flows.add(flow(l));
        }
        if (lines.hasNext()) {
            Line extra = lines.next("", "");
            // What follows, told apart: more flow lines (six numbers) or other text (HPCC's flow.txt ends with a
            // description of its format), so the fix names both.
            int moreFlows = 0;
            int other = 0;
            for (Line l = extra; l != null; l = lines.hasNext() ? lines.next("", "") : null) {
                if (looksLikeFlow(l)) {
                    moreFlows++;
                } else {
                    other++;
                }
            }
            throw lines.at(extra.number(), 1, "a line after the " + n + (n == 1 ? " flow" : " flows") + " the first"
                    + " line counts; expected " + n + (n == 1 ? " flow line" : " flow lines") + " and nothing after"
                    + " them (ns-3 reads the first " + n + " and ignores the rest; after them the file has "
                    + moreFlows + " more flow " + (moreFlows == 1 ? "line" : "lines") + " and " + other + " other "
                    + (other == 1 ? "line" : "lines") + ": set the first line to the number of flows you want and"
                    + " delete every line after them)");
        }
        return flows;
    }

    /**
     * HPCC's {@code traffic_gen.py} writes its estimate of the flow count on the first line, then seeks back and writes
     * the real count over it: a count with one digit fewer than the estimate keeps the estimate's last digit ("998"
     * over "1003 " reads 9983). When the count read is the flows the file holds with one digit after, say so.
     */
    private static String generatorCount(long counted, long held) {
        String c = Long.toString(counted);
        String h = Long.toString(held);
        if (held == 0 || c.length() != h.length() + 1 || !c.startsWith(h)) {
            return "";
        }
        return "; the file holds " + held + " flows and its count reads " + held + " with one digit more, as HPCC's"
                + " traffic_gen.py leaves it when the real count, written over its estimate, has fewer digits: set the"
                + " first line to " + held;
    }

    /** Six fields, each a number: a flow line (checked no further: it is not read). */
    private static boolean looksLikeFlow(Line l) {
        if (l.fields().size() != 6) {
            return false;
        }
        for (var f : l.fields()) {
            if (!f.value().matches("[-+0-9.eE]+")) {
                return false;
            }
        }
        return true;
    }

    private FlowSpec flow(Line l) throws ScenarioException {
        lines.requireFields(l, 6, ROW);
        int src = host(l, 0, "src");
        int dst = host(l, 1, "dst");
        if (src == dst) {
            throw lines.at(l, 1, "the flow goes from " + l.fields().get(0).value() + " to itself; expected a dst"
                    + " different from src");
        }
        lines.whole(l, 2, "pg", 0, 0xFFFF_FFFFL, UNUSED);
        lines.whole(l, 3, "dport", 0, 0xFFFF_FFFFL, UNUSED);
        long size = lines.whole(l, 4, "size", 1, UnitParser.MAX_BYTES, "a whole number of bytes in 1.."
                + UnitParser.MAX_BYTES + " (1 PiB)");
        return new FlowSpec(src, dst, size, start(l));
    }

    /** The flow's start: seconds as a decimal, exactly in picoseconds (rounded to the nearest one). */
    private long start(Line l) throws ScenarioException {
        String v = l.fields().get(5).value();
        String expected = "a start time in seconds >= 0, e.g. 2.000000005";
        if (!SECONDS.matcher(v).matches()) {
            throw lines.at(l, 5, "start " + Doc.quoted(v) + " is not a number; expected " + expected);
        }
        BigDecimal seconds = new BigDecimal(v);
        if (seconds.signum() < 0) {
            throw lines.at(l, 5, "start " + v + " is negative; expected " + expected);
        }
        try {
            return Ns3Units.secondsToPs(seconds, v);
        } catch (IllegalArgumentException e) {
            throw lines.at(l, 5, "start " + e.getMessage());
        }
    }

    /** An endpoint: a host node id of the ns-3 topology, translated to its host, or a host index. */
    private int host(Line l, int index, String label) throws ScenarioException {
        if (topology == null) {
            long h = lines.whole(l, index, label, 0, Long.MAX_VALUE, "a host index 0.." + (hostCount - 1));
            if (h >= hostCount) {
                throw lines.at(l, index, TrafficReader.outOfRange(h, hostCount));
            }
            return (int) h;
        }
        int[] hostOf = topology.hostOfNode();
        long node = lines.whole(l, index, label, 0, Long.MAX_VALUE, "a host node id of " + topology.shown());
        if (node >= hostOf.length) {
            throw lines.at(l, index, "node " + node + " is out of range; expected a host node id of "
                    + topology.shown() + ", which has nodes 0.." + (hostOf.length - 1));
        }
        if (hostOf[(int) node] < 0) {
            throw lines.at(l, index, "node " + node + " is a switch in " + topology.shown() + "; expected a host node"
                    + " (a node id not on its second line)");
        }
        return hostOf[(int) node];
    }
}
