package rocelab.scenario.read;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import rocelab.fabric.topology.CustomTopologySpec;
import rocelab.fabric.topology.CustomTopologySpec.CustomLink;
import rocelab.fabric.topology.LinkParameters;
import rocelab.observe.output.Numbers;
import rocelab.scenario.read.Ns3Lines.Line;

/**
 * Reads the topology file of the ns-3 RDMA model (the HPCC simulator's {@code topology.txt}, {@code fat.txt}): a line
 * {@code <nodes> <switches> <links>}, a line of the switches' node ids, then one line per link
 * {@code <a> <b> <rate> <delay> <error rate>}. The nodes that are not switches become hosts h0.. in ascending node id,
 * the switches {@code s<id>}; the result is a custom topology, checked as one. As ns-3 reads exactly the links the
 * first line counts, whatever follows them is not read (the HPCC repository's files end in a description).
 */
final class Ns3TopologyReader {
    static final String FORMAT = "the ns-3 topology format: '<nodes> <switches> <links>', a line of switch node ids,"
            + " then '<a> <b> <rate> <delay> <error rate>' per link";

    /** A real number written as ns-3 reads a double (the error rate). */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(?:\\.\\d*)?|\\.\\d+)([eE][+-]?\\d{1,3})?");
    private static final int MAX_NODES = 2 * TopologyReader.MAX_HOSTS;

    private final Ns3Lines lines;
    /** The line of each switch-to-switch link read so far, by its two node ids (the smaller in the high half). */
    private final Map<Long, Integer> linkLineOfPair = new HashMap<>();

    Ns3TopologyReader(Ns3Lines lines) {
        this.lines = lines;
    }

    /** The longest link delay taken: 1 s, far beyond any cable (a bare number is seconds to ns-3). */
    static final long MAX_DELAY_PS = 1_000_000_000_000L;

    Ns3Topology read() throws ScenarioException {
        Line head = lines.next("the file is empty", FORMAT);
        lines.requireFields(head, 3, "'<nodes> <switches> <links>', e.g. '66 1 65'");
        int nodes = (int) lines.whole(head, 0, "the node count", 3, MAX_NODES, "a number of nodes in 3.." + MAX_NODES);
        int switchCount = (int) lines.whole(head, 1, "the switch count", 1, nodes - 2, "a number of switches in 1.."
                + (nodes - 2) + " (at least 2 of the " + nodes + " nodes are hosts)");
        long linkCount = lines.whole(head, 2, "the link count", 1, Integer.MAX_VALUE, "a number of links in 1.."
                + Integer.MAX_VALUE);
        int hosts = nodes - switchCount;
        if (hosts > TopologyReader.MAX_HOSTS) {
            throw lines.at(head, 1, "the topology has " + hosts + " hosts; expected at most " + TopologyReader.MAX_HOSTS
                    + " hosts");
        }
        List<String> switches = new ArrayList<>();
        int[] hostOfNode = hostOfNode(nodes, switchCount, switches);
        List<CustomLink> links = new ArrayList<>();
        int[] linkLineOfHost = new int[hosts];
        for (long i = 0; i < linkCount; i++) {
            Line l = lines.next("the file ends after " + i + (i == 1 ? " link" : " links"), linkCount
                    + " links, as its first line says (one '<a> <b> <rate> <delay> <error rate>' per line)");
            links.add(link(l, hostOfNode, linkLineOfHost));
        }
        CustomTopologySpec spec = new CustomTopologySpec(hosts, switches, links);
        Ns3Topology topology = new Ns3Topology(spec, hostOfNode, lines.shown());
        checkConnected(topology, head);
        return topology;
    }

    /**
     * Reads the line of switch ids into {@code switches} (as {@code s<id>}); returns each node's host index, in
     * ascending node id, or -1 for a switch.
     */
    private int[] hostOfNode(int nodes, int switchCount, List<String> switches) throws ScenarioException {
        int[] hostOfNode = new int[nodes];
        Line ids = lines.next("the file ends after its first line", "a line of the " + switchCount
                + " switch node ids");
        lines.requireFields(ids, switchCount, "the " + switchCount + " switch node ids the first line counts");
        for (int i = 0; i < switchCount; i++) {
            int id = node(ids, i, nodes, "switch id");
            if (hostOfNode[id] < 0) {
                throw lines.at(ids, i, "switch " + id + " is listed twice; expected each switch id once");
            }
            hostOfNode[id] = -1;
            switches.add("s" + id);
        }
        for (int n = 0, h = 0; n < nodes; n++) {
            if (hostOfNode[n] == 0) {
                hostOfNode[n] = h++;
            }
        }
        return hostOfNode;
    }

    private CustomLink link(Line l, int[] hostOfNode, int[] linkLineOfHost) throws ScenarioException {
        lines.requireFields(l, 5, "'<a> <b> <rate> <delay> <error rate>', e.g. '0 320 100Gbps 0.001ms 0'");
        int a = node(l, 0, hostOfNode.length, "node");
        int b = node(l, 1, hostOfNode.length, "node");
        if (a == b) {
            throw lines.at(l, 1, "the link connects node " + a + " to itself; expected two different nodes");
        }
        if (hostOfNode[a] >= 0 && hostOfNode[b] >= 0) {
            throw lines.at(l, 0, "the link connects host node " + a + " directly to host node " + b
                    + "; expected hosts to connect through switches (the switches are listed on the second line)");
        }
        if (hostOfNode[a] < 0 && hostOfNode[b] < 0) {
            // ns-3 keeps one interface per neighbour (third.cc's nbr2if map): a second link between the same two
            // switches replaces the first in its routes, so only the last one listed carries traffic there, while a
            // custom topology spreads flows over both. Refused rather than run with twice the capacity.
            long pair = (long) Math.min(a, b) << 32 | Math.max(a, b);
            Integer earlier = linkLineOfPair.putIfAbsent(pair, l.number());
            if (earlier != null) {
                throw lines.at(l, 0, "switch nodes " + a + " and " + b + " are already linked on line " + earlier
                        + "; expected at most one link between two nodes (ns-3 keeps one interface per neighbour and"
                        + " routes only over the last link listed between them; for more capacity give the one link a"
                        + " higher rate)");
            }
        }
        for (int f = 0; f < 2; f++) {
            int node = f == 0 ? a : b;
            int host = hostOfNode[node];
            if (host >= 0) {
                if (linkLineOfHost[host] != 0) {
                    throw lines.at(l, f, "host node " + node + " is already linked on line " + linkLineOfHost[host]
                            + "; expected one link per host (an RNIC has one port)");
                }
                linkLineOfHost[host] = l.number();
            }
        }
        long rate;
        long delay;
        try {
            rate = Ns3Units.rateBps(l.fields().get(2).value());
        } catch (IllegalArgumentException e) {
            throw lines.at(l, 2, e.getMessage());
        }
        try {
            delay = Ns3Units.timePs(l.fields().get(3).value());
        } catch (IllegalArgumentException e) {
            throw lines.at(l, 3, e.getMessage());
        }
        if (delay > MAX_DELAY_PS) {
            // ns-3 reads a bare number as seconds: '1000' meant as nanoseconds is a link of 1000 s, which would show
            // only as a headroom far beyond any buffer, or flows that never finish.
            throw lines.at(l, 3, "a link delay of " + Ns3Units.seconds(delay) + " s ('" + l.fields().get(3).value()
                    + "'" + (Ns3Units.bare(l.fields().get(3).value()) ? ", a bare number, is seconds to ns-3" : "")
                    + "); expected at most 1 s, with its unit, e.g. 1000ns or 0.001ms");
        }
        errorRate(l);
        return new CustomLink(name(a, hostOfNode), name(b, hostOfNode), new LinkParameters(rate, delay));
    }

    /**
     * The link's error rate must be 0: rocelab has no random loss of frames on a link (its faults are PFC pause
     * storms, its events links going down and up), and a lossy link run as a clean one would be a quiet difference.
     */
    private void errorRate(Line l) throws ScenarioException {
        String v = l.fields().get(4).value();
        if (!DECIMAL.matcher(v).matches()) {
            throw lines.at(l, 4, "the error rate " + Doc.quoted(v) + " is not a number; expected 0");
        }
        if (new BigDecimal(v).signum() != 0) {
            throw lines.at(l, 4, "the error rate " + v + " is not supported: rocelab does not drop frames at random"
                    + " on a link; expected 0 (no random loss)");
        }
    }

    private int node(Line l, int index, int nodes, String label) throws ScenarioException {
        return (int) lines.whole(l, index, label, 0, nodes - 1, "a node id 0.." + (nodes - 1) + " (the first line"
                + " counts " + nodes + " nodes)");
    }

    private static String name(int node, int[] hostOfNode) {
        return hostOfNode[node] >= 0 ? "h" + hostOfNode[node] : "s" + node;
    }

    /** Every host must reach every other; the hosts cut off are named by their node ids, as the file names them. */
    private void checkConnected(Ns3Topology t, Line head) throws ScenarioException {
        List<Integer> cut;
        try {
            cut = t.spec().build().unreachableHosts();
        } catch (IllegalArgumentException e) {
            throw lines.at(head.number(), 1, e.getMessage());
        }
        if (cut.isEmpty()) {
            return;
        }
        int shown = Numbers.shown(cut.size(), 10);
        String names = cut.stream().limit(shown).map(h -> String.valueOf(t.nodeOfHost(h)))
                .collect(Collectors.joining(", "))
                + (cut.size() > shown ? " and " + (cut.size() - shown) + " more" : "");
        throw lines.at(head.number(), 1, "the topology is disconnected: host " + (cut.size() == 1 ? "node " : "nodes ")
                + names + " cannot reach host node " + t.nodeOfHost(0) + "; expected every host to reach every other"
                + " host through switches");
    }
}
