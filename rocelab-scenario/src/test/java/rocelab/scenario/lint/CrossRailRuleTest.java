package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L25: transfers between servers on different rails of a rail-optimized fabric. An audit's ring AllReduce over 4
 * servers of 4 GPUs (ranks in host order) crossed rails at every server boundary (h3->h4, rail3 to rail0, ...) and
 * ran 4.5x its ideal, where NCCL keeps a ring's network hops on one rail. The hierarchical ring and PXN's AlltoAll keep
 * every network transfer on its rail and are not named; nor is a leaf-spine fabric, whose servers have one RNIC.
 */
class CrossRailRuleTest {
    private static ScenarioConfig read(String topology, String traffic) {
        String yaml = """
                name: rails
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: %s
                nvlink: {rate: 3600Gbps, latency: 1us}
                traffic:
                  - %s
                """.formatted(topology, traffic);
        try {
            return new ScenarioReader().read(yaml, "rails.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static final String RAILS = "{kind: rail-optimized, servers: 4, gpus-per-server: 4, spines: 2,"
            + " link: {rate: 400Gbps, delay: 500ns}}";

    @Test
    void shouldNameARingInRankOrderThatCrossesRailsBetweenServers() {
        LintReport r = Lint.check(read(RAILS, "{kind: allreduce, ranks: 0-15, size: 64MiB}"));
        assertThat(r.of("L25")).hasSize(1);
        Finding f = r.of("L25").get(0);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        // The ring's four edges between servers (3->4, 7->8, 11->12, 15->0), each from rail 3 to rail 0, and its
        // reduce-scatter and all-gather share them: 4 pairs, all crossing.
        assertThat(f.what()).isEqualTo("4 of the workload's 4 (source, destination) pairs between servers go between"
                + " GPUs on different rails: h3->h4 (rail3 to rail0), h7->h8 (rail3 to rail0), h11->h12 (rail3 to"
                + " rail0), h15->h0 (rail3 to rail0)");
        assertThat(f.fix()).contains("algorithm: hierarchical");
    }

    @Test
    void shouldNameDirectAlltoAllButNotPxnNorTheHierarchicalRing() {
        assertThat(Lint.check(read(RAILS, "{kind: alltoall, ranks: 0-15, size: 16MiB}")).of("L25")).hasSize(1);
        assertThat(Lint.check(read(RAILS, "{kind: alltoall, ranks: 0-15, size: 16MiB, algorithm: pxn}"))
                .of("L25")).isEmpty();
        assertThat(Lint.check(read(RAILS, "{kind: allreduce, ranks: 0-15, size: 64MiB, algorithm: hierarchical}"))
                .of("L25")).isEmpty();
    }

    @Test
    void shouldStayQuietOnALeafSpineFabricWhoseServersHaveOneRnic() {
        assertThat(Lint.check(read("{kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate:"
                + " 400Gbps, delay: 1us}}", "{kind: allreduce, ranks: 0-15, size: 64MiB}")).of("L25")).isEmpty();
    }
}
