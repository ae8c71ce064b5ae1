package rocelab.fabric.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The topology builders produce the shapes their definitions promise. */
class TopologySpecTest {
    private static final LinkParameters L = new LinkParameters(100_000_000_000L, 1_000_000);

    @Test
    void shouldBuildLeafSpineWithParallelUplinksWhenAsked() {
        LeafSpineSpec spec = new LeafSpineSpec(4, 2, 8, 2, L, L);
        Topology t = spec.build();
        assertThat(t.hostCount()).isEqualTo(32);
        assertThat(t.switchCount()).isEqualTo(6);
        assertThat(t.portCount(32)).as("leaf0: 8 hosts + 2 spines x 2 links").isEqualTo(12);
        assertThat(spec.oversubscription()).isEqualTo(2.0);
        int[][][] routes = t.shortestPathPorts();
        assertThat(routes[0][31]).as("leaf0 to a host on leaf3: all 4 uplinks").hasSize(4);
        assertThat(routes[0][3]).as("leaf0 to its own host").hasSize(1);
        assertThat(t.distancesTo(31)[0]).isEqualTo(4);
    }

    @Test
    void shouldBuildFatTreeWithKCubedOverFourHostsWhenKIsEven() {
        Topology t = new FatTreeSpec(4, L, L).build();
        assertThat(t.hostCount()).isEqualTo(16);
        assertThat(t.switchCount()).isEqualTo(20);
        assertThat(t.unreachableHosts()).isEmpty();
        assertThat(t.distancesTo(15)[0]).as("across pods: host-edge-agg-core-agg-edge-host").isEqualTo(6);
        int[][][] routes = t.shortestPathPorts();
        assertThat(routes[0][15]).as("edge switch: both aggregation uplinks").hasSize(2);
        assertThatThrownBy(() -> new FatTreeSpec(3, L, L)).hasMessageContaining("even");
    }

    @Test
    void shouldGiveEveryServerOneNicPerRailWhenRailOptimized() {
        Topology t = new RailOptimizedSpec(4, 8, 2, L, L).build();
        assertThat(t.hostCount()).isEqualTo(32);
        assertThat(t.serverOf(9)).isEqualTo(1);
        assertThat(t.nodeName(t.peer(9, 0).node())).isEqualTo("rail1");
        assertThat(t.distancesTo(17)[9]).as("same rail: one leaf").isEqualTo(2);
        assertThat(t.distancesTo(10)[9]).as("other rail: through a spine").isEqualTo(4);
    }

    @Test
    void shouldReportUnreachableHostsWhenCustomTopologyIsDisconnected() {
        CustomTopologySpec spec = new CustomTopologySpec(3, List.of("a", "b"), List.of(
                new CustomTopologySpec.CustomLink("h0", "a", L),
                new CustomTopologySpec.CustomLink("h1", "a", L),
                new CustomTopologySpec.CustomLink("h2", "b", L)));
        assertThat(spec.build().unreachableHosts()).containsExactly(2);
    }
}
