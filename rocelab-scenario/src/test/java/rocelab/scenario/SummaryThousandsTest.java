package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.SummaryText;

/**
 * The summary's counts carry thousands separators, as its packets, marks and bytes do: moe-alltoall printed "flows
 * 7620 completed of 7620" and "6662 flows waited" beside "234,675 data packets" (a report audit).
 */
class SummaryThousandsTest {
    /** An all-to-all of 33 hosts: 33 x 32 = 1,056 flows of 1 KB, a few microseconds each. */
    private static final String MANY = """
            name: many-flows
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 33, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: all-to-all, size: 1KB}
            """;

    @Test
    void shouldWriteTheFlowCountsWithThousandsSeparators() {
        RunResult r = Simulation.assemble(Scenarios.parse(MANY)).run(ProgressListener.NONE);
        assertThat(r.flows()).hasSize(1056);
        assertThat(SummaryText.render(r, null)).contains("\nflows       1,056 completed of 1,056\n")
                .doesNotContain("1056");
    }

    @Test
    void shouldCountNounsWithThousandsSeparators() {
        assertThat(Numbers.count(6662, "flow", "flows")).isEqualTo("6,662 flows");
        assertThat(Numbers.count(1, "switch", "switches")).isEqualTo("1 switch");
        assertThat(Numbers.count(999, "host", "hosts")).isEqualTo("999 hosts");
    }
}
