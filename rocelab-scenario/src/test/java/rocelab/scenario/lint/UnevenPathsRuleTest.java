package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L26: equal-cost paths of unequal rate or length. An audit's leaf-spine with one leaf-spine link at 25 Gb/s (or
 * 200 us long) slowed a ring AllReduce 4x and nothing named the link. Two tiers of different rates, each uniform, are
 * not uneven: every switch's choices are alike.
 */
class UnevenPathsRuleTest {
    private static ScenarioConfig read(String leaf1Spine0, String leaf1Spine1, String uplinks) {
        String yaml = """
                name: uneven
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
                    - {a: h3, b: leaf1}
                    - {a: leaf0, b: spine0%3$s}
                    - {a: leaf0, b: spine1%3$s}
                    - {a: leaf1, b: spine0%1$s}
                    - {a: leaf1, b: spine1%2$s}
                traffic:
                  - {kind: allreduce, ranks: 0-3, size: 4MB}
                """.formatted(leaf1Spine0, leaf1Spine1, uplinks);
        try {
            return new ScenarioReader().read(yaml, "uneven.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldNameALinkSlowerThanItsEqualCostAlternativesWhicheverSpineItIsOn() {
        LintReport r = Lint.check(read(", rate: 25Gbps", "", ""));
        assertThat(r.of("L26")).hasSize(1);
        Finding f = r.of("L26").get(0);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        // leaf1 chooses it towards h0 and h1, leaf0 (by spine0, whose one way down to leaf1 it is) towards h2, h3.
        assertThat(f.what()).isEqualTo("leaf1-spine0 runs at 25 Gb/s on equal-cost paths whose best runs at 100 Gb/s"
                + " (ECMP chooses it at leaf1, leaf0)");
        assertThat(Lint.check(read("", ", rate: 25Gbps", "")).of("L26")).singleElement()
                .satisfies(g -> assertThat(g.what()).startsWith("leaf1-spine1 runs at 25 Gb/s"));
    }

    @Test
    void shouldNameALinkThatMakesItsEqualCostPathsLonger() {
        Finding f = Lint.check(read(", delay: 200us", "", "")).of("L26").get(0);
        assertThat(f.what()).isEqualTo("leaf1-spine0 (200 us) makes equal-cost paths through it up to 199 us longer"
                + " one way than the shortest (ECMP chooses it at leaf1, leaf0)");
        // 500 ns longer is under the rule's 1 us: told by neither.
        assertThat(Lint.check(read(", delay: 1500ns", "", "")).of("L26")).isEmpty();
    }

    @Test
    void shouldNotNameTiersOfDifferentRatesEachUniform() {
        // Uplinks at 400 Gb/s from leaf0 and leaf1's at 100: every switch's equal-cost ports are alike.
        assertThat(Lint.check(read("", "", ", rate: 400Gbps")).of("L26")).isEmpty();
        assertThat(Lint.check(read("", "", "")).of("L26")).isEmpty();
    }
}
