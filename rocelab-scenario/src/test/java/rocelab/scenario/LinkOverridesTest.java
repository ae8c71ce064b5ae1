package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * {@code links:} overrides one link's rate or delay in a generated fabric (an audit had to write a whole custom
 * topology to slow one leaf-spine link). The override is that link and nothing else: a leaf-spine with leaf1-spine0
 * at 25 Gb/s runs exactly as the same fabric written out link by link, and the ideal network and the lint see it.
 */
class LinkOverridesTest {
    private static final String LEAF_SPINE = """
            name: override
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            links:
              - {a: leaf1, b: spine0, rate: 25Gbps}
              - {a: h3, b: leaf1, delay: 3us}
            nic: {cc: dcqcn}
            traffic:
              - {kind: allreduce, ranks: 0-3, size: 8MB}
            """;

    /** The same fabric link by link, in the order leaf-spine adds them (so every port has the same number). */
    private static final String CUSTOM = """
            name: override
            fabric: {mode: roce-lossless, mtu: 4096}
            topology:
              kind: custom
              hosts: 4
              switches: [leaf0, leaf1, spine0, spine1]
              link: {rate: 100Gbps, delay: 1us}
              links:
                - {a: h0, b: leaf0}
                - {a: h1, b: leaf0}
                - {a: h2, b: leaf1}
                - {a: h3, b: leaf1, delay: 3us}
                - {a: leaf0, b: spine0}
                - {a: leaf0, b: spine1}
                - {a: leaf1, b: spine0, rate: 25Gbps}
                - {a: leaf1, b: spine1}
            nic: {cc: dcqcn}
            traffic:
              - {kind: allreduce, ranks: 0-3, size: 8MB}
            """;

    @Test
    void shouldRunExactlyAsTheSameFabricWrittenOutLinkByLink() {
        Simulation over = Simulation.assemble(Scenarios.parse(LEAF_SPINE));
        Simulation custom = Simulation.assemble(Scenarios.parse(CUSTOM));
        Topology t = over.network().topology();
        assertThat(t.edges()).hasSize(custom.network().topology().edges().size());
        for (int e = 0; e < t.edges().size(); e++) {
            assertThat(t.edges().get(e)).isEqualTo(custom.network().topology().edges().get(e));
        }
        RunResult a = over.run(ProgressListener.NONE);
        RunResult b = custom.run(ProgressListener.NONE);
        assertThat(a.collectives().get(0).timePs()).isEqualTo(b.collectives().get(0).timePs());
        assertThat(a.collectives().get(0).idealTimePs()).isEqualTo(b.collectives().get(0).idealTimePs());
        assertThat(a.flows()).hasSameSizeAs(b.flows());
        for (int i = 0; i < a.flows().size(); i++) {
            FlowRecord f = a.flows().get(i);
            FlowRecord g = b.flows().get(i);
            assertThat(f.finishPs()).isEqualTo(g.finishPs());
            assertThat(f.idealFctPs()).isEqualTo(g.idealFctPs());
        }
        // And the slowed link costs the ring: more than twice the time without it.
        RunResult plain = Simulation.assemble(Scenarios.parse(LEAF_SPINE.replace(
                "  - {a: leaf1, b: spine0, rate: 25Gbps}\n", ""))).run(ProgressListener.NONE);
        assertThat(a.collectives().get(0).timePs()).isGreaterThan(2 * plain.collectives().get(0).timePs());
    }

    @Test
    void shouldNameTheFileLineAndColumnOfABadOverride() {
        String head = LEAF_SPINE.substring(0, LEAF_SPINE.indexOf("links:"));
        String tail = LEAF_SPINE.substring(LEAF_SPINE.indexOf("nic:"));
        assertThat(error(head + "links:\n  - {a: leaf1, b: leaf0, rate: 25Gbps}\n" + tail))
                .isEqualTo("o.yaml:5:5: there is no link between leaf1 and leaf0; expected two directly connected"
                        + " nodes");
        assertThat(error(head + "links:\n  - {a: leaf1, b: spine9, rate: 25Gbps}\n" + tail))
                .isEqualTo("o.yaml:5:19: no node is named 'spine9'; expected a host (h0..h3) or a switch of the"
                        + " topology (e.g. leaf0)");
        assertThat(error(head + "links:\n  - {a: leaf1, b: spine0}\n" + tail))
                .isEqualTo("o.yaml:5:5: the override of leaf1 - spine0 changes nothing; expected rate: (e.g. 25Gbps),"
                        + " delay: (e.g. 5us) or both");
        assertThat(error(head + "links:\n  - {a: leaf1, b: spine0, speed: 25Gbps}\n" + tail))
                .startsWith("o.yaml:5:27: unknown key 'speed' in a link override; expected one of: a, b, rate, delay");
        assertThat(error(head + "links:\n  - {a: leaf1, b: spine0, rate: 25Gbps}\n  - {a: spine0, b: leaf1, delay: 2us}\n"
                + tail)).isEqualTo("o.yaml:6:5: the link spine0 - leaf1 is overridden on line 5 already; expected"
                        + " each link once");
    }

    private static final String PLANES = """
            name: planes
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, planes: 2, link: {rate: 800Gbps}}
            links:
            %s
            traffic:
              - {kind: flow, src: 0, dst: 2, size: 4MB}
            """;

    /**
     * An RNIC of a multi-plane fabric sends on each port at its line rate over the planes: with h0's plane-0 link
     * alone at 100 Gb/s it sent that QP at 250 Gb/s (the 500 Gb/s of its ports halved), 139.3 us for a 4 MB write
     * whose closed form at 100 Gb/s, the flow level's and a single plane's time, is 335.8 us. A host's links keep one
     * rate: overridden alike they run at it.
     */
    @Test
    void shouldRefuseOneHostPortOfAMultiPlaneRnicAtARateOfItsOwn() {
        assertThat(error(PLANES.formatted("  - {a: h0, b: p0.leaf0, rate: 100Gbps}")))
                .isEqualTo("o.yaml:5:5: the link h0 - p0.leaf0 at 100 Gb/s leaves h0's port to p1.leaf0 at 400 Gb/s;"
                        + " an RNIC of a multi-plane fabric splits its line rate into equal ports: expected the same"
                        + " rate on every one of h0's links (one override per plane)");
        String alike = PLANES.formatted("""
                  - {a: h0, b: p0.leaf0, rate: 100Gbps}
                  - {a: p1.leaf0, b: h0, rate: 100Gbps}
                  - {a: p1.leaf0, b: p1.spine0, rate: 100Gbps}
                  - {a: h1, b: p1.leaf0, delay: 3us}""");
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.PACKET, Simulation.Model.FLOW}) {
            FlowRecord f = Simulation.assemble(Scenarios.parse(alike), model).run(ProgressListener.NONE).flows().get(0);
            assertThat(f.fctPs()).as(model.name()).isEqualTo(f.idealFctPs());
        }
    }

    private static String error(String yaml) {
        Throwable t = catchThrowable(() -> new ScenarioReader().read(yaml, "o.yaml", Path.of(".")));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return t.getMessage();
    }
}
