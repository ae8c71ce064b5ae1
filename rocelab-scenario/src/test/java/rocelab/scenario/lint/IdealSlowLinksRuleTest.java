package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L27: a link slower than the others of its role that the ideal network has too. An audit's NIC cable at 25 Gb/s among
 * 100 Gb/s ones put a ring AllReduce's ideal at 3.4x the healthy fabric's and lint said nothing (L26 looks at
 * equal-cost sets only). A slow uplink beside a fast one is L26's, not this rule's: the ideal avoids it.
 */
class IdealSlowLinksRuleTest {
    private static ScenarioConfig read(String h2, String leaf1Spine0, String leaf1Spine1) {
        String yaml = """
                name: slow
                fabric: {mode: roce-lossless, mtu: 4096}
                topology:
                  kind: custom
                  hosts: 4
                  switches: [leaf0, leaf1, spine0, spine1]
                  link: {rate: 100Gbps, delay: 1us}
                  links:
                    - {a: h0, b: leaf0}
                    - {a: h1, b: leaf0}
                    - {a: h2, b: leaf1%1$s}
                    - {a: h3, b: leaf1}
                    - {a: leaf0, b: spine0}
                    - {a: leaf0, b: spine1}
                    - {a: leaf1, b: spine0%2$s}
                    - {a: leaf1, b: spine1%3$s}
                traffic:
                  - {kind: allreduce, ranks: 0-3, size: 4MB}
                """.formatted(h2, leaf1Spine0, leaf1Spine1);
        try {
            return new ScenarioReader().read(yaml, "slow.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldNameAHostLinkSlowerThanTheOtherHostLinks() {
        LintReport r = Lint.check(read(", rate: 25Gbps", "", ""));
        assertThat(r.of("L26")).isEmpty();
        assertThat(r.of("L27")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.what()).isEqualTo("h2-leaf1 at 25 Gb/s (the other 3 host links: 100 Gb/s)");
            assertThat(f.devices()).containsExactly("h2", "leaf1");
        });
    }

    @Test
    void shouldLeaveASlowUplinkBesideAFastOneToL26AndNameUplinksAllAsSlow() {
        LintReport one = Lint.check(read("", ", rate: 25Gbps", ""));
        assertThat(one.of("L27")).isEmpty();
        assertThat(one.of("L26")).hasSize(1);
        LintReport both = Lint.check(read("", ", rate: 25Gbps", ", rate: 25Gbps"));
        assertThat(both.of("L26")).isEmpty();
        assertThat(both.of("L27")).extracting(Finding::what).containsExactly(
                "leaf1-spine0 at 25 Gb/s (the other 3 links between switches 1 and 2 hops from the hosts: 100 Gb/s)",
                "leaf1-spine1 at 25 Gb/s (the other 3 links between switches 1 and 2 hops from the hosts: 100 Gb/s)");
        assertThat(Lint.check(read("", "", "")).of("L27")).isEmpty();
    }
}
