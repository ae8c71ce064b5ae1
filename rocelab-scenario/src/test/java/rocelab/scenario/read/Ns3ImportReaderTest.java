package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.topology.CustomTopologySpec;
import rocelab.fabric.topology.CustomTopologySpec.CustomLink;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.ScenarioConfig;
import rocelab.workload.traffic.FlowListTraffic;
import rocelab.workload.traffic.FlowSpec;

/** The ns-3 RDMA model's (HPCC simulator's) topology and flow files, read as they are written there. */
class Ns3ImportReaderTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossless}\n";
    private static final String NS3_TOPOLOGY = "topology: {kind: ns3, file: topo.txt}\n";
    private static final String NS3_FLOWS = "traffic:\n  - {kind: ns3-flows, file: flow.txt}\n";
    private static final String ONE_FLOW = "1\n1 2 3 100 1000 0\n";
    /** One switch (node 0) and three hosts (nodes 1-3), as HPCC's topology.txt numbers them: the switch first. */
    private static final String STAR = "4 1 3\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n"
            + "0 3 100Gbps 0.001ms 0\n";

    @TempDir
    Path dir;

    private ScenarioConfig read(String topology, String flows) throws Exception {
        Files.writeString(dir.resolve("topo.txt"), topology);
        Files.writeString(dir.resolve("flow.txt"), flows);
        return new ScenarioReader().read(HEAD + NS3_TOPOLOGY + NS3_FLOWS, "t.yaml", dir);
    }

    private String error(String topology, String flows) {
        Throwable t = catchThrowable(() -> read(topology, flows));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return t.getMessage();
    }

    /** HPCC's mix/topology.txt: 66 nodes, switch 0, 65 links, then links it does not count and a description. */
    private static String hpccSingleSwitch() {
        StringBuilder b = new StringBuilder("66 1 65\r\n0\r\n");
        for (int n = 1; n <= 256; n++) {
            b.append("0 ").append(n).append(n <= 66 ? " 100Gbps" : " 25Gbps").append(" 0.001ms 0\r\n");
        }
        return b.append("\nFirst line: total node #, switch node #, link #\nSecond line: switch node IDs...\n")
                .append("src0 dst0 rate delay error_rate\n...\n").toString();
    }

    /** HPCC's mix/fat.txt: 320 hosts on 20 ToRs (320-339), 20 aggregation (340-359) and 16 core switches (360-375). */
    private static String hpccFatTree() {
        StringBuilder b = new StringBuilder("376 56 480\n");
        for (int s = 320; s < 376; s++) {
            b.append(s).append(s < 375 ? " " : "\n");
        }
        for (int h = 0; h < 320; h++) {
            b.append(h).append(' ').append(320 + h / 16).append(" 100Gbps 1000ns 0.000000\n");
        }
        for (int tor = 320; tor < 340; tor++) {
            for (int j = 0; j < 4; j++) {
                b.append(tor).append(' ').append(340 + (tor - 320) / 4 * 4 + j).append(" 400Gbps 1000ns 0.000000\n");
            }
        }
        for (int agg = 340; agg < 360; agg++) {
            for (int j = 0; j < 4; j++) {
                b.append(agg).append(' ').append(360 + (agg - 340) % 4 * 4 + j).append(" 400Gbps 1000ns 0.000000\n");
            }
        }
        return b.toString();
    }

    @Test
    void shouldReadHpccsSingleSwitchTopologyWithItsHostsAfterTheSwitchAndItsFlowsByNodeId() throws Exception {
        ScenarioConfig c = read(hpccSingleSwitch(), "2\n2 1 3 100 200000000 2\n3 1 3 100 200000000 2\n\n");
        CustomTopologySpec t = (CustomTopologySpec) c.topology();
        assertThat(t.hosts()).isEqualTo(65);
        assertThat(t.switches()).containsExactly("s0");
        assertThat(t.links()).hasSize(65).first().isEqualTo(new CustomLink("s0", "h0",
                new LinkParameters(100_000_000_000L, 1_000_000L)));
        assertThat(t.links().get(64)).isEqualTo(new CustomLink("s0", "h64",
                new LinkParameters(100_000_000_000L, 1_000_000L)));
        // Node 2 is the second host (h1), node 1 the first (h0): the flows reach the nodes ns-3 would send between.
        FlowListTraffic f = (FlowListTraffic) c.traffic().get(0);
        assertThat(f.source()).isEqualTo("flow.txt");
        assertThat(f.flows()).containsExactly(new FlowSpec(1, 0, 200_000_000L, 2_000_000_000_000L),
                new FlowSpec(2, 0, 200_000_000L, 2_000_000_000_000L));
    }

    @Test
    void shouldReadHpccsFatTreeWithItsHostsFirst() throws Exception {
        ScenarioConfig c = read(hpccFatTree(), "3\n0 5 3 100 1000000 2.000000005\n319 0 3 100 1 2\n17 300 3 100"
                + " 64000 2.000001\n");
        CustomTopologySpec t = (CustomTopologySpec) c.topology();
        assertThat(t.hosts()).isEqualTo(320);
        assertThat(t.switches()).hasSize(56).startsWith("s320").endsWith("s375");
        assertThat(t.links()).hasSize(480);
        assertThat(t.links().get(17)).isEqualTo(new CustomLink("h17", "s321",
                new LinkParameters(100_000_000_000L, 1_000_000L)));
        assertThat(t.links().get(320)).isEqualTo(new CustomLink("s320", "s340",
                new LinkParameters(400_000_000_000L, 1_000_000L)));
        Topology built = t.build();
        assertThat(built.hostCount()).isEqualTo(320);
        assertThat(built.unreachableHosts()).isEmpty();
        assertThat(((FlowListTraffic) c.traffic().get(0)).flows()).containsExactly(
                new FlowSpec(0, 5, 1_000_000L, 2_000_000_005_000L), new FlowSpec(319, 0, 1L, 2_000_000_000_000L),
                new FlowSpec(17, 300, 64_000L, 2_000_001_000_000L));
    }

    @Test
    void shouldTakeFlowEndpointsAsHostIndicesOnAnotherTopology() throws Exception {
        Files.writeString(dir.resolve("flow.txt"), "2\n 0   3\t3 100 4096 1e-6 \n3 1 0 7 10 0.0000000000015\n");
        String yaml = HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\n" + NS3_FLOWS;
        FlowListTraffic f = (FlowListTraffic) new ScenarioReader().read(yaml, "t.yaml", dir).traffic().get(0);
        // 1.5 ps is rounded to the nearest even picosecond.
        assertThat(f.flows()).containsExactly(new FlowSpec(0, 3, 4096, 1_000_000L), new FlowSpec(3, 1, 10, 2L));
        Files.writeString(dir.resolve("flow.txt"), "1\n0 4 3 100 4096 0\n");
        assertThatThrownBy(() -> new ScenarioReader().read(yaml, "t.yaml", dir)).hasMessage("flow.txt:2:3: host 4 is"
                + " out of range; expected 0..3 (the topology has 4 hosts)");
    }

    @Test
    void shouldConvertNs3RatesAndTimesExactly() {
        assertThat(Ns3Units.rateBps("100Gbps")).isEqualTo(100_000_000_000L);
        assertThat(Ns3Units.rateBps("25Gb/s")).isEqualTo(25_000_000_000L);
        assertThat(Ns3Units.rateBps("12.5GBps")).isEqualTo(100_000_000_000L);
        assertThat(Ns3Units.rateBps("10kbps")).isEqualTo(10_000L);
        assertThat(Ns3Units.rateBps("10Kbps")).isEqualTo(10_000L);
        assertThat(Ns3Units.rateBps("2Mib/s")).isEqualTo(2L << 20);
        assertThat(Ns3Units.rateBps("1GiB/s")).isEqualTo(8L << 30);
        assertThat(Ns3Units.rateBps("400")).isEqualTo(400L);
        assertThat(Ns3Units.timePs("0.001ms")).isEqualTo(1_000_000L);
        assertThat(Ns3Units.timePs("1000ns")).isEqualTo(1_000_000L);
        assertThat(Ns3Units.timePs("1.5us")).isEqualTo(1_500_000L);
        assertThat(Ns3Units.timePs("0.000002")).isEqualTo(2_000_000L);
        assertThat(Ns3Units.timePs("0")).isZero();
        assertThatThrownBy(() -> Ns3Units.rateBps("100mbps")).hasMessageStartingWith("'100mbps' is not a data rate;");
        assertThatThrownBy(() -> Ns3Units.rateBps("0.5bps")).hasMessageStartingWith("'0.5bps' is not a whole number"
                + " of bit/s");
        assertThatThrownBy(() -> Ns3Units.timePs("0.0001ns")).hasMessageStartingWith("'0.0001ns' is not a whole"
                + " number of picoseconds");
        assertThatThrownBy(() -> Ns3Units.timePs("1min")).hasMessageStartingWith("'1min' is not a time;");
    }

    @Test
    void shouldLocateEveryTopologyProblemInTheTopologyFile() {
        assertThat(error("", ONE_FLOW)).isEqualTo("topo.txt:1:1: the file is empty; expected the ns-3 topology"
                + " format: '<nodes> <switches> <links>', a line of switch node ids, then '<a> <b> <rate> <delay>"
                + " <error rate>' per link");
        assertThat(error("4 1\n0\n", ONE_FLOW)).isEqualTo("topo.txt:1:4: the line has 2 fields; expected"
                + " '<nodes> <switches> <links>', e.g. '66 1 65'");
        assertThat(error("4 3 3\n0 1 2\n", ONE_FLOW)).isEqualTo("topo.txt:1:3: the switch count 3 is out of range;"
                + " expected a number of switches in 1..2 (at least 2 of the 4 nodes are hosts)");
        assertThat(error("4 1 3\n", ONE_FLOW)).isEqualTo("topo.txt:2:1: the file ends after its first line; expected"
                + " a line of the 1 switch node ids");
        assertThat(error("4 2 3\n0 0\n", ONE_FLOW)).isEqualTo("topo.txt:2:3: switch 0 is listed twice; expected each"
                + " switch id once");
        assertThat(error("4 1 3\n4\n", ONE_FLOW)).isEqualTo("topo.txt:2:1: switch id 4 is out of range; expected a"
                + " node id 0..3 (the first line counts 4 nodes)");
        assertThat(error(STAR.replace("0 2 100Gbps", "0 2 100Gbs"), ONE_FLOW)).isEqualTo("topo.txt:4:5: '100Gbs'"
                + " is not a data rate; expected " + Ns3Units.RATE_FORMAT);
        assertThat(error(STAR.replace("0 3 100Gbps 0.001ms", "0 3 100Gbps -1us"), ONE_FLOW)).isEqualTo("topo.txt:5:13:"
                + " '-1us' is negative; expected a delay of 0 or more");
        // A bare number is seconds to ns-3: '1000' meant as nanoseconds would be a link of 1000 s.
        assertThat(error(STAR.replace("0 2 100Gbps 0.001ms", "0 2 100Gbps 1000"), ONE_FLOW)).isEqualTo("topo.txt:4:13:"
                + " a link delay of 1000 s ('1000', a bare number, is seconds to ns-3); expected at most 1 s, with its"
                + " unit, e.g. 1000ns or 0.001ms");
        assertThat(error(STAR.replace("0 2 100Gbps 0.001ms", "0 2 100Gbps 2s"), ONE_FLOW)).startsWith("topo.txt:4:13:"
                + " a link delay of 2 s ('2s'); expected at most 1 s");
        assertThat(error(STAR.replace("0.001ms 0\n0 3", "0.001ms 0.001\n0 3"), ONE_FLOW)).isEqualTo("topo.txt:4:21:"
                + " the error rate 0.001 is not supported: rocelab does not drop frames at random on a link; expected 0"
                + " (no random loss)");
        assertThat(error(STAR.replace("0 3 100Gbps", "2 3 100Gbps"), ONE_FLOW)).isEqualTo("topo.txt:5:1: the link"
                + " connects host node 2 directly to host node 3; expected hosts to connect through switches (the"
                + " switches are listed on the second line)");
        assertThat(error(STAR.replace("0 3 100Gbps", "0 2 100Gbps"), ONE_FLOW)).isEqualTo("topo.txt:5:3: host node 2"
                + " is already linked on line 4; expected one link per host (an RNIC has one port)");
        // Two switches linked twice: ns-3 routes over the last link only (one interface per neighbour).
        assertThat(error("6 2 5\n0 4\n0 1 100Gbps 1us 0\n0 2 100Gbps 1us 0\n4 3 100Gbps 1us 0\n0 4 100Gbps 1us 0\n"
                + "4 0 100Gbps 1us 0\n", ONE_FLOW)).isEqualTo("topo.txt:7:1: switch nodes 4 and 0 are already linked on"
                + " line 6; expected at most one link between two nodes (ns-3 keeps one interface per neighbour and"
                + " routes only over the last link listed between them; for more capacity give the one link a higher"
                + " rate)");
        assertThat(error(STAR.replace("0 3 100Gbps", "0 0 100Gbps"), ONE_FLOW)).isEqualTo("topo.txt:5:3: the link"
                + " connects node 0 to itself; expected two different nodes");
        assertThat(error(STAR.replace("0.001ms 0\n0 3", "0.001ms\n0 3"), ONE_FLOW)).isEqualTo("topo.txt:4:20: the line"
                + " has 4 fields; expected '<a> <b> <rate> <delay> <error rate>', e.g. '0 320 100Gbps 0.001ms 0'");
        assertThat(error("4 1 3\n0\n0 1 100Gbps 0.001ms 0\n\n", ONE_FLOW)).isEqualTo("topo.txt:5:1: the file ends"
                + " after 1 link; expected 3 links, as its first line says (one '<a> <b> <rate> <delay> <error rate>'"
                + " per line)");
        assertThat(error("5 2 3\n0 4\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps 0.001ms 0\n4 3 100Gbps 0.001ms 0\n",
                ONE_FLOW)).isEqualTo("topo.txt:1:1: the topology is disconnected: host node 3 cannot reach host node"
                + " 1; expected every host to reach every other host through switches");
    }

    @Test
    void shouldLocateEveryFlowProblemInTheFlowFile() {
        assertThat(error(STAR, "")).isEqualTo("flow.txt:1:1: the file is empty; expected " + Ns3FlowsReader.FORMAT);
        assertThat(error(STAR, "2\n1 2 3 100 1000 0\n")).isEqualTo("flow.txt:3:1: the file ends after 1 flow;"
                + " expected 2 flows, as its first line says (one '<src> <dst> <pg> <dport> <size bytes> <start"
                + " seconds>', e.g. '0 5 3 100 1000000 2.000000005' per line)");
        // traffic_gen.py wrote "10 \n" (its estimate), then "9" over it: the first line reads 90.
        StringBuilder nine = new StringBuilder("90 \n");
        for (int i = 0; i < 9; i++) {
            nine.append("1 2 3 100 1000 2.").append(i).append('\n');
        }
        assertThat(error(STAR, nine.toString())).isEqualTo("flow.txt:11:1: the file ends after 9 flows; expected 90"
                + " flows, as its first line says (one '<src> <dst> <pg> <dport> <size bytes> <start seconds>', e.g. '0 5"
                + " 3 100 1000000 2.000000005' per line); the file holds 9 flows and its count reads 9 with one digit"
                + " more, as HPCC's traffic_gen.py leaves it when the real count, written over its estimate, has fewer"
                + " digits: set the first line to 9");
        assertThat(error(STAR, "1\n1 2 3 100 1000 0\n\n2 1 3 100 1000 0\n")).isEqualTo("flow.txt:4:1: a line after"
                + " the 1 flow the first line counts; expected 1 flow line and nothing after them (ns-3 reads the first"
                + " 1 and ignores the rest; after them the file has 1 more flow line and 0 other lines: set the first"
                + " line to the number of flows you want and delete every line after them)");
        // HPCC's own flow.txt: more flows than it counts, then a description of the format.
        assertThat(error(STAR, "1\n1 2 3 100 1000 0\n2 1 3 100 1000 0\n3 1 3 100 1000 0\nFormat:\nsrc dst pg\n"))
                .contains("the file has 2 more flow lines and 2 other lines");
        assertThat(error(STAR, "0\n")).isEqualTo("flow.txt:1:1: the flow count 0 is out of range; expected a number"
                + " of flows in 1..2147483647");
        assertThat(error(STAR, "1\n0 2 3 100 1000 0\n")).isEqualTo("flow.txt:2:1: node 0 is a switch in topo.txt;"
                + " expected a host node (a node id not on its second line)");
        assertThat(error(STAR, "1\n1 4 3 100 1000 0\n")).isEqualTo("flow.txt:2:3: node 4 is out of range; expected a"
                + " host node id of topo.txt, which has nodes 0..3");
        assertThat(error(STAR, "1\n1 1 3 100 1000 0\n")).isEqualTo("flow.txt:2:3: the flow goes from 1 to itself;"
                + " expected a dst different from src");
        assertThat(error(STAR, "1\n1 2 x 100 1000 0\n")).isEqualTo("flow.txt:2:5: pg 'x' is not a whole number;"
                + " expected a whole number (read, not used: every flow runs on nic.priority)");
        assertThat(error(STAR, "1\n1 2 3 100.5 1000 0\n")).isEqualTo("flow.txt:2:7: dport '100.5' is not a whole"
                + " number; expected a whole number (read, not used: every flow runs on nic.priority)");
        assertThat(error(STAR, "1\n1 2 3 100 0 0\n")).isEqualTo("flow.txt:2:11: size 0 is out of range; expected a"
                + " whole number of bytes in 1..1125899906842624 (1 PiB)");
        assertThat(error(STAR, "1\n1 2 3 100 1000 -0.5\n")).isEqualTo("flow.txt:2:16: start -0.5 is negative;"
                + " expected a start time in seconds >= 0, e.g. 2.000000005");
        assertThat(error(STAR, "1\n1 2 3 100 1000 2s\n")).isEqualTo("flow.txt:2:16: start '2s' is not a number;"
                + " expected a start time in seconds >= 0, e.g. 2.000000005");
        assertThat(error(STAR, "1\n1 2 3 100 1000 1e7\n")).isEqualTo("flow.txt:2:16: start '1e7' is too large;"
                + " expected at most 9223372.036854775807 seconds");
        assertThat(error(STAR, "1\n1 2 3 100 1000\n")).isEqualTo("flow.txt:2:15: the line has 5 fields; expected"
                + " '<src> <dst> <pg> <dport> <size bytes> <start seconds>', e.g. '0 5 3 100 1000000 2.000000005'");
    }

    @Test
    void shouldReportAMissingFileAndUnknownKeysInTheScenario() throws Exception {
        Files.writeString(dir.resolve("flow.txt"), ONE_FLOW);
        assertThatThrownBy(() -> new ScenarioReader().read(HEAD + "topology: {kind: ns3, file: none.txt}\n"
                + NS3_FLOWS, "t.yaml", dir)).hasMessage("t.yaml:3:29: file not found: "
                + dir.resolve("none.txt").toAbsolutePath() + "; expected an ns-3 topology file, "
                + Ns3TopologyReader.FORMAT);
        Files.writeString(dir.resolve("topo.txt"), STAR);
        assertThatThrownBy(() -> new ScenarioReader().read(HEAD + "topology: {kind: ns3, file: topo.txt, link:"
                + " {rate: 1Gbps}}\n" + NS3_FLOWS, "t.yaml", dir)).hasMessage("t.yaml:3:39: unknown key 'link' in"
                + " topology (ns3); expected one of: kind, file");
        assertThatThrownBy(() -> new ScenarioReader().read(HEAD + NS3_TOPOLOGY + "traffic:\n  - {kind: ns3-flows,"
                + " file: flow.txt, start: 1us}\n", "t.yaml", dir)).hasMessage("t.yaml:5:39: unknown key 'start' in"
                + " traffic item 1 (ns3-flows); expected one of: kind, file, dscp");
    }
}
