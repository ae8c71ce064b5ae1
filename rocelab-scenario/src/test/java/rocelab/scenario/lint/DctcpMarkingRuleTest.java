package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** L22: DCTCP senders behind RED marking are warned of, by the switches that mark so; step marking or DCQCN are not. */
class DctcpMarkingRuleTest {
    private static LintReport lint(String nic, String ecn) throws ScenarioException {
        ScenarioConfig c = new ScenarioReader().read("""
                name: dctcp
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps}}
                nic: %s
                switch: {ecn: %s, pfc: {watchdog: {}}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                """.formatted(nic, ecn), "dctcp.yaml", Path.of("."));
        return Lint.check(c);
    }

    @Test
    void shouldWarnOfRedMarkingOnlyWhereDctcpDataCrossesIt() throws Exception {
        LintReport red = lint("{cc: dctcp}", "{marking: red}");
        assertThat(red.of("L22")).hasSize(1);
        Finding f = red.of("L22").get(0);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        assertThat(f.devices()).containsExactly("leaf0", "spine0", "leaf1");
        assertThat(f.fix()).contains("marking: step");
        assertThat(lint("{cc: dctcp}", "{marking: step, k: 100KB}").of("L22")).isEmpty();
        assertThat(lint("{cc: dcqcn}", "{marking: red}").of("L22")).isEmpty();
    }
}
