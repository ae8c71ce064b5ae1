package rocelab.observe.pfc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;
import rocelab.observe.victim.FlowWaits;

/**
 * How {@link PfcLog} adds up a flow's waits behind pauses, told wait by wait (no run): per hop in the order first
 * seen, overlapping intervals on a hop's clock counted once, more hops than slots merged into the last one, each
 * wait given to the root of the pause (here the pausing neighbour: no XOFF was logged), and many flows apart.
 */
class PfcLogWaitsTest {
    private static Network network() {
        try {
            return Simulation.assemble(new ScenarioReader().read("""
                    name: waits
                    fabric: {mode: roce-lossless, mtu: 1000}
                    topology: {kind: leaf-spine, leaves: 4, spines: 4, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                    nic: {cc: none}
                    traffic:
                      - {kind: all-to-all, size: 4KB}
                    """, "waits.yaml", null)).network();
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The switch ports of the fabric, (node, port) pairs, in node then port order. */
    private static int[][] switchPorts(Topology topo) {
        List<int[]> out = new ArrayList<>();
        for (int n = topo.hostCount(); n < topo.nodeCount(); n++) {
            for (int p = 0; p < topo.portCount(n); p++) {
                out.add(new int[] {n, p});
            }
        }
        return out.toArray(new int[0][]);
    }

    @Test
    void shouldCountOverlappingWaitsAtAHopOnceAndListHopsInTheOrderFirstSeen() {
        Network network = network();
        PfcLog log = new PfcLog(network);
        int[][] ports = switchPorts(network.topology());
        int[] a = ports[0];
        int[] b = ports[5];
        log.onPausedWait(100, a[0], a[1], 3, 0, 0, false, 0, 10, -1);
        log.onPausedWait(200, b[0], b[1], 3, 0, 0, false, 0, 7, -1);
        log.onPausedWait(300, a[0], a[1], 3, 0, 0, false, 5, 15, -1); // overlaps [0, 10] by 5: adds 5
        log.onPausedWait(400, a[0], a[1], 3, 0, 0, false, 2, 9, -1); // within what was counted: adds nothing
        List<FlowWaits.Hop> hops = log.waits(0);
        assertThat(hops).extracting(FlowWaits.Hop::node, FlowWaits.Hop::port, FlowWaits.Hop::waitPs)
                .containsExactly(tuple(a[0], a[1], 15L), tuple(b[0], b[1], 7L));
        assertThat(log.pausedWaitPs(0)).isEqualTo(22);
        assertThat(log.roots(0)).extracting(FlowWaits.Root::waitPs).containsExactly(15L, 7L);
        assertThat(log.waits(1)).isEmpty();
    }

    @Test
    void shouldMergeHopsBeyondTheEighthIntoTheLastSlotAndEveryWaitIntoARoot() {
        Network network = network();
        Topology topo = network.topology();
        PfcLog log = new PfcLog(network);
        int[][] ports = switchPorts(topo);
        // Flow 3 waits 10 ps at each of eleven hops, one after the other on each hop's clock; flow 4 between them.
        for (int k = 0; k < 11; k++) {
            int[] h = ports[k * 3];
            log.onPausedWait(1000 + k, h[0], h[1], 3, 3, 3, false, 0, 10, -1);
            log.onPausedWait(1000 + k, h[0], h[1], 3, 4, 4, false, 0, 1, -1);
        }
        List<FlowWaits.Hop> hops = log.waits(3);
        assertThat(hops).hasSize(8);
        for (int k = 0; k < 7; k++) {
            assertThat(hops.get(k).node()).isEqualTo(ports[k * 3][0]);
            assertThat(hops.get(k).port()).isEqualTo(ports[k * 3][1]);
            assertThat(hops.get(k).waitPs()).isEqualTo(10);
        }
        // The eighth slot takes the rest, each on a fresh clock, and names none of them.
        assertThat(hops.get(7).others()).isTrue();
        assertThat(hops.get(7).node()).isEqualTo(-1);
        assertThat(hops.get(7).waitPs()).isEqualTo(40);
        assertThat(log.pausedWaitPs(3)).isEqualTo(110);
        assertThat(log.waits(4)).hasSize(8);
        assertThat(log.pausedWaitPs(4)).isEqualTo(11);
        // Every wait went to one root: eight kept apart, or seven and the rest together (on the way and off it).
        assertThat(log.roots(3).stream().filter(r -> !r.others())).hasSizeLessThanOrEqualTo(8);
        assertThat(log.roots(3).stream().filter(FlowWaits.Root::others)).hasSizeLessThanOrEqualTo(2);
        assertThat(log.roots(3).stream().mapToLong(FlowWaits.Root::waitPs).sum()).isEqualTo(110);
        for (FlowWaits.Root r : log.roots(3)) {
            assertThat(r.hops()).isEqualTo(r.others() ? -1 : 1);
        }
    }

    @Test
    void shouldKeepTheWaitsOfManyFlowsApart() {
        Network network = network();
        PfcLog log = new PfcLog(network);
        int[][] ports = switchPorts(network.topology());
        int flows = 10_000; // more than a page of records
        for (int round = 0; round < 3; round++) {
            for (int f = flows - 1; f >= 0; f--) {
                int[] h = ports[(f + round) % ports.length];
                long from = round * 100L;
                log.onPausedWait(round, h[0], h[1], 3, 0, f, false, from, from + 1 + f % 50, -1);
            }
        }
        for (int f = 0; f < flows; f++) {
            assertThat(log.pausedWaitPs(f)).as("flow %d", f).isEqualTo(3L * (1 + f % 50));
            assertThat(log.waits(f)).as("flow %d", f).hasSize(ports.length >= 3 ? 3 : ports.length);
        }
    }
}
