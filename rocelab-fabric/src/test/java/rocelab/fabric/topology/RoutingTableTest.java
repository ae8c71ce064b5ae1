package rocelab.fabric.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The forwarding table built with one search per leaf (issue 12: nothing quadratic in hosts) is port for port the
 * table of the definition: for every switch and destination host, the ports to a neighbour one hop closer to the
 * host in a breadth-first search from the host in which only switches relay. Checked on every topology kind, with
 * and without failed links; and the topology specs count their switches and links without building.
 */
class RoutingTableTest {
    private static final LinkParameters L = new LinkParameters(100_000_000_000L, 1_000_000L);

    private static List<TopologySpec> specs() {
        return List.of(new SingleSwitchSpec(5, L), new LeafSpineSpec(4, 3, 3, 2, L, L), new FatTreeSpec(4, L, L),
                new FatTreeSpec(6, L, L), new RailOptimizedSpec(5, 4, 3, L, L), new RailOptimizedSpec(3, 1, 0, L, L),
                new CustomTopologySpec(4, List.of("a", "b", "c"), List.of(new CustomTopologySpec.CustomLink("h0", "a", L),
                        new CustomTopologySpec.CustomLink("h1", "a", L), new CustomTopologySpec.CustomLink("h2", "b", L),
                        new CustomTopologySpec.CustomLink("a", "b", L), new CustomTopologySpec.CustomLink("b", "c", L),
                        new CustomTopologySpec.CustomLink("c", "a", L), new CustomTopologySpec.CustomLink("h3", "c", L))));
    }

    @Test
    void shouldMatchPerDestinationSearchWhenNoLinkIsDown() {
        for (TopologySpec spec : specs()) {
            Topology t = spec.build();
            assertSameTable(t.shortestPathPorts(), reference(t, null), spec.toString());
        }
    }

    @Test
    void shouldMatchPerDestinationSearchWhenLinksAreDown() {
        SplittableRandom random = new SplittableRandom(7);
        for (TopologySpec spec : specs()) {
            Topology t = spec.build();
            for (int trial = 0; trial < 20; trial++) {
                boolean[] down = new boolean[t.edges().size()];
                for (int i = 0; i < down.length; i++) {
                    down[i] = random.nextInt(6) == 0;
                }
                assertSameTable(t.shortestPathPorts(down), reference(t, down), spec + " down " + Arrays.toString(down));
            }
        }
    }

    @Test
    void shouldCountSwitchesAndLinksWhenNotBuilt() {
        for (TopologySpec spec : specs()) {
            Topology t = spec.build();
            assertThat(spec.switchCount()).as(spec.toString()).isEqualTo(t.switchCount());
            assertThat(spec.linkCount()).as(spec.toString()).isEqualTo(t.edges().size());
        }
    }

    @Test
    void shouldForgetCachedRoutesWhenTheGraphGrows() {
        Topology t = new Topology(2);
        int a = t.addSwitch("a", 1);
        t.addLink(0, a, L);
        int[][][] before = t.shortestPathPorts();
        assertThat(before[0][1]).isEmpty();
        t.addLink(1, a, L);
        assertThat(t.shortestPathPorts()[0][1]).containsExactly(1);
        assertThat(t.nodeByName("a")).isEqualTo(a);
        assertThat(t.nodeByName("h1")).isEqualTo(1);
        assertThat(t.nodeByName("nope")).isEqualTo(-1);
    }

    private static void assertSameTable(int[][][] actual, int[][][] expected, String what) {
        assertThat(actual.length).isEqualTo(expected.length);
        for (int s = 0; s < expected.length; s++) {
            for (int d = 0; d < expected[s].length; d++) {
                assertThat(actual[s][d]).as(what + " switch " + s + " to h" + d).containsExactly(expected[s][d]);
            }
        }
    }

    /** The definition, one search per destination host (the former implementation). */
    private static int[][][] reference(Topology t, boolean[] down) {
        int[][][] table = new int[t.switchCount()][t.hostCount()][];
        for (int dst = 0; dst < t.hostCount(); dst++) {
            int[] dist = new int[t.nodeCount()];
            Arrays.fill(dist, -1);
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            dist[dst] = 0;
            queue.add(dst);
            while (!queue.isEmpty()) {
                int n = queue.poll();
                if (t.isHost(n) && n != dst) {
                    continue;
                }
                for (int p = 0; p < t.portCount(n); p++) {
                    Topology.Edge e = t.edgeAt(n, p);
                    if (down != null && down[e.index()]) {
                        continue;
                    }
                    int m = t.peer(n, p).node();
                    if (dist[m] < 0) {
                        dist[m] = dist[n] + 1;
                        queue.add(m);
                    }
                }
            }
            for (int s = 0; s < t.switchCount(); s++) {
                int node = t.hostCount() + s;
                int[] tmp = new int[t.portCount(node)];
                int k = 0;
                if (dist[node] >= 0) {
                    for (int p = 0; p < t.portCount(node); p++) {
                        if (down != null && down[t.edgeAt(node, p).index()]) {
                            continue;
                        }
                        int far = t.peer(node, p).node();
                        boolean relay = !t.isHost(far) || far == dst;
                        if (relay && dist[far] == dist[node] - 1) {
                            tmp[k++] = p;
                        }
                    }
                }
                table[s][dst] = Arrays.copyOf(tmp, k);
            }
        }
        return table;
    }
}
