package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L23: Swift's least target (base-delay + hops x hop-delay) against the base RTTs of its paths, on a 2-leaf fabric of
 * 1 us links (base RTTs of about 4 to 9 us): htsim's 20 us default is more than twice the largest, 1 us is below the
 * smallest, 10 us is in scale.
 */
class SwiftTargetRuleTest {
    private static LintReport lint(String nic) throws ScenarioException {
        return Lint.check(new ScenarioReader().read("""
                name: swift
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: %s
                switch: {pfc: {watchdog: {}}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                """.formatted(nic), "swift.yaml", Path.of(".")));
    }

    @Test
    void shouldWarnOfATargetOutOfScaleEitherWay() throws Exception {
        LintReport high = lint("{cc: swift}");
        assertThat(high.of("L23")).hasSize(1);
        assertThat(high.of("L23").get(0).what()).contains("the largest base RTT").contains("at least 23.053 us");
        assertThat(high.of("L23").get(0).devices()).containsExactly("h0", "h1");
        LintReport low = lint("{cc: swift, swift: {base-delay: 1us, hop-delay: 0us}}");
        assertThat(low.of("L23")).hasSize(1);
        assertThat(low.of("L23").get(0).what()).contains("is below the smallest base RTT");
        assertThat(lint("{cc: swift, swift: {base-delay: 10us}}").of("L23")).isEmpty();
        assertThat(lint("{cc: dcqcn}").of("L23")).isEmpty();
    }
}
