package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.SummaryText;

/**
 * Audit: with link events, the summary compared jobs and collectives with "an ideal network" without saying what it
 * was, and the bound, made after the run, took its paths from the switches' routes of the run's end, around the links
 * still down then: a detour the run's messages before the failure never took. The ideal network now has every link up
 * the whole run, and the summary says so.
 */
class IdealEveryLinkUpTest {
    /** Two switches joined directly and through a third: without the direct link, the path is a hop longer. */
    private static final String TRIANGLE = """
            name: triangle
            fabric: {mode: roce-lossy, mtu: 1000}
            topology:
              kind: custom
              hosts: 2
              switches: [s0, s1, s2]
              link: {rate: 100Gbps, delay: 1us}
              links:
                - {a: h0, b: s0}
                - {a: h1, b: s1}
                - {a: s0, b: s1}
                - {a: s0, b: s2}
                - {a: s2, b: s1}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: allreduce, ranks: 0-1, size: 1MB}
            """;

    @Test
    void shouldBoundWithEveryLinkUpAndSaySoWhenALinkIsStillDownAtTheEnd() {
        RunResult allUp = Scenarios.assemble(TRIANGLE).run(ProgressListener.NONE);
        RunResult cut = Scenarios.assemble(TRIANGLE + """
                events:
                  - {kind: link-down, a: s0, b: s1, at: 10us}
                """).run(ProgressListener.NONE);
        CollectiveRecord before = allUp.collectives().get(0);
        CollectiveRecord after = cut.collectives().get(0);
        assertThat(after.completed()).isTrue();
        assertThat(after.timePs()).as("the run took the detour after 10 us").isGreaterThan(before.timePs());
        assertThat(after.idealTimePs()).as("the ideal has the direct link").isEqualTo(before.idealTimePs());
        assertThat(after.idealTimePs()).isLessThanOrEqualTo(after.timePs());

        assertThat(SummaryText.render(cut, null)).contains("ideal       the ideal network these figures compare against"
                + " has every link up the whole run: the scenario's 1 link event (a link going down or up) is in this"
                + " run, not in its ideal\n");
        assertThat(SummaryText.render(allUp, null)).doesNotContain("every link up");
    }
}
