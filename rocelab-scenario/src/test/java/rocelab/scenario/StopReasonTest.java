package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import java.util.Map;
import rocelab.observe.report.ReportWriter;
import rocelab.observe.output.SummaryText;

/**
 * A run whose flows all failed said stop_reason "completed", as one whose flows all completed did: every flow had
 * ended, so the run counted as done. The reason now tells the three apart: completed, some-failed, all-failed.
 */
class StopReasonTest {
    private static final String FABRIC = """
            name: failing
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none, timeout: 8, retry-count: 2}
            events:
              - {kind: link-down, a: leaf0, b: spine0, at: 0us}
              - {kind: link-down, a: leaf0, b: spine1, at: 0us}
            """;

    @Test
    void shouldSayAllFailedWhenNoFlowCompleted(@TempDir Path dir) throws Exception {
        // Both links out of leaf0 are down from the start: neither flow can reach leaf1, both QPs run out of retries.
        RunResult r = Scenarios.assemble(FABRIC + """
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                  - {kind: flow, src: 1, dst: 3, size: 1MB}
                """).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::failed);
        assertThat(r.finished()).isTrue();
        assertThat(r.stopReason()).isEqualTo("all-failed");
        String text = SummaryText.render(r, null);
        assertThat(text).contains("FAILED      no flow completed: all 2 failed, their QPs out of retries; the run ended"
                + " with stop_reason all-failed; what was dropped, and why: loss below");
        ReportWriter.writeRun(dir, r, Map.of());
        assertThat(Files.readString(dir.resolve("summary.json"))).contains("\"stop_reason\": \"all-failed\"")
                .doesNotContain("\"stop_reason\": \"completed\"");
        assertThat(Files.readString(dir.resolve("report.html"))).contains("No flow completed")
                .contains("2 of 2 flows failed");
    }

    @Test
    void shouldSaySomeFailedWhenSomeFlowsCompletedAndOthersFailed() {
        // h0 -> h1 stays under leaf0 and completes; h0 -> h2 cannot leave leaf0 and fails.
        RunResult r = Scenarios.assemble(FABRIC + """
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 100KB}
                  - {kind: flow, src: 1, dst: 2, size: 100KB}
                """).run(ProgressListener.NONE);
        assertThat(r.flows()).filteredOn(FlowRecord::failed).hasSize(1);
        assertThat(r.stopReason()).isEqualTo("some-failed");
        assertThat(SummaryText.render(r, null)).contains("FAILED      1 of 2 flows failed, its QP out of retries;"
                + " the run ended with stop_reason some-failed");
    }

    @Test
    void shouldSayCompletedOnlyWhenEveryFlowCompleted() {
        RunResult r = Scenarios.assemble(FABRIC + """
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 100KB}
                """).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("completed");
        assertThat(SummaryText.render(r, null)).doesNotContain("FAILED");
    }
}
