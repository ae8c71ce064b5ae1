package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.network.RetryFailure;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;

/**
 * Audit: a QP ran out of retries behind a link that a link event took down, and the summary and the journey said only
 * "FAILED (retries exhausted)" / "FAILED: the QP exhausted its retries", leaving the user to guess why. The fabric now
 * records, when the QP fails, whether the links down then left its destination unreachable, which down links cut it
 * off, and whether the links changed during its last stretch with no new ACK.
 */
class RetryFailureCauseTest {
    private static final String RECEIVER_LINK_LOST = """
            name: receiver-link-lost
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none, timeout: 8, retry-count: 3}
            events:
              - {kind: link-down, a: h3, b: leaf1, at: 30us}
            traffic:
              - {kind: flow, src: 0, dst: 2, size: 4MB}
              - {kind: flow, src: 1, dst: 3, size: 4MB}
            """;

    @Test
    void shouldNameTheDownLinkWhenAQpRunsOutOfRetriesWithItsDestinationCutOff(@TempDir Path dir) throws Exception {
        Simulation sim = Scenarios.assemble(RECEIVER_LINK_LOST);
        int qp = sim.driver().queuePair(1).id();
        JourneyRecorder rec = new JourneyRecorder(sim.network(), qp, PfcProbe.NONE);
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord failed = r.flows().get(1);
        assertThat(failed.failed()).isTrue();
        assertThat(r.flows().get(0).completed()).isTrue();

        List<RetryFailure> failures = r.network().retryFailures();
        assertThat(failures).hasSize(1);
        RetryFailure f = failures.get(0);
        assertThat(f.queuePair()).isEqualTo(qp);
        assertThat(f.links()).containsExactly(new RetryFailure.DownLink(3, r.network().topology().nodeByName("leaf1"),
                30_000_000L));
        assertThat(f.eachReconnects()).isTrue();
        assertThat(f.heldThroughLastAttempt()).as("no link event after 30 us").isTrue();

        String line = "QP " + qp + " (flow 1, h1->h3) ran out of retries at 4227.266 us: h3 was unreachable from h1:"
                + " the link h3 - leaf1 had been down since 30.000 us; no link went down or up after its ACK timer last"
                + " started, at 3178.690 us (no new ACK since)";
        assertThat(SummaryText.render(r, null)).contains("FAILED      1 of 2 flows failed", line);
        String journey = new JourneyText(sim.network()).render(failed, rec.events(), -1, 0, Long.MAX_VALUE, 10_000);
        assertThat(journey).contains("posted at 0.000 us; FAILED: the QP exhausted its retries at 4227.266 us; h3 was"
                + " unreachable from h1: the link h3 - leaf1 had been down since 30.000 us; no link went down or up");

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> json = (List<Map<String, Object>>) Summary.of(r).get("retry_failures");
        assertThat(json).hasSize(1);
        assertThat(json.get(0)).containsEntry("queue_pair", qp).containsEntry("flows", List.of(1))
                .containsEntry("src", "h1").containsEntry("dst", "h3").containsEntry("cause", "unreachable")
                .containsEntry("each_link_reconnects", true).containsEntry("links_unchanged_since_timer_started", true);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> links = (List<Map<String, Object>>) json.get(0).get("links");
        assertThat(links).hasSize(1);
        assertThat(links.get(0)).containsEntry("a", "h3").containsEntry("b", "leaf1");
        assertThat(((BigDecimal) links.get(0).get("down_since_us")).compareTo(BigDecimal.valueOf(30))).isZero();

        ReportWriter.writeRun(dir, r, Map.of());
        assertThat(Files.readString(dir.resolve("report.html"))).contains("<li>QP " + qp + " (flow 1) ran out of"
                + " retries at 4.227 ms: h3 was unreachable from h1; down: h3 - leaf1 (down since 30 us); no link went down or up after its ACK timer last started (3.179 ms, no new ACK since)");
    }

    @Test
    void shouldNameEveryDownLinkAndSayTheLinksChangedWhenNoOneLinkWouldJoinTheTwoSides() {
        // h0's leaf loses both uplinks, then h2 its own link during the QP's last stretch with no new ACK: no single
        // link back up would join h0 and h2, so every down link is named, and the change is said.
        RunResult r = Scenarios.assemble("""
                name: cut-twice
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 8, retry-count: 2}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 30us}
                  - {kind: link-down, a: leaf0, b: spine1, at: 60us}
                  - {kind: link-down, a: h2, b: leaf1, at: 2500us}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 4MB}
                  - {kind: flow, src: 1, dst: 3, size: 4MB}
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                """).run(ProgressListener.NONE);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("h3 was unreachable from h1: the links leaf0 - spine0 (down since 30.000 us) and"
                + " leaf0 - spine1 (down since 60.000 us) were down, and any one of them back up would have joined them;"
                + " the links last changed at 2500.000 us, after its ACK timer last started at 2158.022 us")
                .contains("h2 was unreachable from h0: links down then: h2 - leaf1 (down since 2500.000 us), leaf0 -"
                        + " spine0 (down since 30.000 us), leaf0 - spine1 (down since 60.000 us); the links last changed");
        assertThat(r.network().retryFailures()).allMatch(f -> !f.heldThroughLastAttempt());
    }

    @Test
    void shouldTellNothingWhenTheLinkCameBackBeforeTheRetriesRanOut() {
        RunResult r = Scenarios.assemble(RECEIVER_LINK_LOST.replace("at: 30us}",
                "at: 30us}\n  - {kind: link-up, a: h3, b: leaf1, at: 500us}")).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.network().retryFailures()).isEmpty();
        assertThat(Summary.of(r)).doesNotContainKey("retry_failures");
    }
}
