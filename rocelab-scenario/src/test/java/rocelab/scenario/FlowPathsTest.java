package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.victim.FlowPaths;

/**
 * A root with no port to tell (a PFC pause rooted at a switch's buffer) is on a flow's way when the flow's data or
 * ACKs pass through that switch, and off it when they do not: it was counted on every flow's way, so a flow held by
 * the buffer of a switch it never crosses was told it waited on its own way.
 */
class FlowPathsTest {
    @Test
    void shouldPlaceASwitchsBufferOnAFlowsWayOnlyWhenItsPacketsCrossThatSwitch() {
        Simulation sim = Scenarios.assemble("""
                name: two-spines
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 100KB}
                """);
        Network network = sim.network();
        Topology topo = network.topology();
        int qp = sim.driver().queuePair(0).id();
        FlowPaths paths = new FlowPaths(network);
        List<int[]> data = paths.dataPorts(qp);
        int leaf0 = topo.hostCount();
        int spineCrossed = topo.peer(leaf0, data.get(0)[1]).node();
        int leaf2 = -1;
        int otherSpine = -1;
        for (int n = topo.hostCount(); n < topo.nodeCount(); n++) {
            leaf2 = topo.nodeName(n).equals("leaf2") ? n : leaf2;
            otherSpine = topo.nodeName(n).startsWith("spine") && n != spineCrossed ? n : otherSpine;
        }
        assertThat(topo.nodeName(leaf0)).isEqualTo("leaf0");
        assertThat(topo.nodeName(spineCrossed)).startsWith("spine");
        assertThat(paths.onRoundTrip(qp, leaf0, -1)).as("its sender's leaf").isTrue();
        assertThat(paths.onRoundTrip(qp, node(topo, "leaf1"), -1)).as("its receiver's leaf").isTrue();
        // Its ACKs may come back by either spine: the one its data cross is on its way, the other only if they do.
        assertThat(paths.onRoundTrip(qp, spineCrossed, -1)).isTrue();
        boolean acksByOther = false;
        for (int p = 0; p < topo.portCount(otherSpine); p++) {
            acksByOther |= paths.onRoundTrip(qp, otherSpine, p);
        }
        assertThat(paths.onRoundTrip(qp, otherSpine, -1)).isEqualTo(acksByOther);
        assertThat(paths.onRoundTrip(qp, leaf2, -1)).as("a leaf it never crosses").isFalse();
    }

    private static int node(Topology topo, String name) {
        for (int n = 0; n < topo.nodeCount(); n++) {
            if (topo.nodeName(n).equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name);
    }
}
