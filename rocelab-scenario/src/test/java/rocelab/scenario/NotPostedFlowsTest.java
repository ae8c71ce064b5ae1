package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.SummaryText;
import rocelab.observe.report.ReportWriter;
import rocelab.workload.graph.WorkloadDriver;

/**
 * An audit's ring AllReduce lost h3's only link at 100 us for good: two QPs (h2 -> h3, h3 -> h4) ran out of retries,
 * and the ring stalled. Every flow the driver failed was reported as failed by retries (83 of 112), 75 of them never
 * posted (start_us 0, no packets), 57 on QPs that never had an ACK timeout; their journeys said "posted at 0.000 us;
 * FAILED: the QP exhausted its retries". Failed now means posted on a QP that ran out of retries; the flows a failure
 * kept from being posted are counted apart, with no start, and their journey names the failure they waited on.
 */
class NotPostedFlowsTest {
    static final String RING = """
            name: ar4
            seed: 1
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn, timeout: 8, retry-count: 7}
            traffic:
              - {kind: allreduce, ranks: 0-7, size: 8MB}
            run: {stop-at: 100ms}
            events:
              - {kind: link-down, a: h3, b: leaf0, at: 100us}
            """;

    @Test
    void shouldCountAsFailedOnlyFlowsPostedOnQueuePairsThatRanOutOfRetriesWhenARingStalls(@TempDir Path dir)
            throws Exception {
        Simulation sim = Scenarios.assemble(RING);
        RunResult r = sim.run(ProgressListener.NONE);
        WorkloadDriver driver = sim.driver();
        List<FlowRecord> flows = r.flows();
        Set<Integer> exhausted = IntStream.range(0, flows.size()).filter(i -> driver.queuePair(i).failed())
                .mapToObj(i -> driver.queuePair(i).id()).collect(Collectors.toSet());
        assertThat(exhausted).containsExactlyInAnyOrder(2, 3);
        List<FlowRecord> failed = flows.stream().filter(FlowRecord::failed).toList();
        assertThat(failed).hasSize(8).allMatch(f -> f.startPs() >= 0 && exhausted.contains(f.queuePair()));
        List<FlowRecord> notPosted = flows.stream().filter(FlowRecord::notPosted).toList();
        assertThat(notPosted).hasSize(75).allMatch(f -> f.startPs() == -1 && !f.failed() && !f.completed());
        assertThat(notPosted.stream().filter(f -> f.notPostedWhy() == FlowRecord.NotPosted.QUEUE_PAIR_FAILED_FIRST))
                .hasSize(7).allMatch(f -> exhausted.contains(f.queuePair()));
        assertThat(r.stopReason()).isEqualTo("some-failed");

        String text = SummaryText.render(r, null);
        assertThat(text).contains("flows       29 completed of 112, 8 FAILED (retries exhausted), 75 never posted (a"
                + " failure reached them first)\n")
                .contains("FAILED      8 of 112 flows failed, their QPs out of retries; 75 more were never posted: 68"
                        + " because what they waited for failed, 7 because their QP ran out of retries before their"
                        + " turn; the run ended with stop_reason some-failed");
        ReportWriter.writeRun(dir, r, Map.of());
        String summary = Files.readString(dir.resolve("summary.json"));
        assertThat(summary).contains("\"failed\": 8,\n    \"not_posted\": 75,\n    \"unfinished\": 0,");
        assertThat(Files.readString(dir.resolve("report.html")))
                .contains("8 of 112 flows failed (their QPs ran out of retries); 75 more were never posted");
    }

    @Test
    void shouldWriteNoStartAndStatusNotPostedForAFlowAFailureKeptFromBeingPosted(@TempDir Path dir) throws Exception {
        Simulation sim = Scenarios.assemble(RING);
        RunResult r = sim.run(ProgressListener.NONE);
        ReportWriter.writeRun(dir, r, Map.of());
        Path csv = dir.resolve("flows.csv");
        String row = Files.readAllLines(csv).stream().filter(l -> l.startsWith("20,")).findFirst().orElseThrow();
        assertThat(row).startsWith("20,4,5,1000000,,,,,").contains(",not_posted,4,");
    }

    @Test
    void shouldTellInTheJourneyWhichFailedFlowANeverPostedFlowWaitedOn() {
        Simulation sim = Scenarios.assemble(RING);
        RunResult r = sim.run(ProgressListener.NONE);
        WorkloadDriver driver = sim.driver();
        // Flow 20 (h4 -> h5, QP 4, whose QP never timed out) waited for h4 to receive flow 11 (h3 -> h4), which h3
        // had posted and never got acknowledged: QP 3 ran out of retries.
        int waitedOn = driver.failedBy(driver.graph().flowTask(20));
        assertThat(waitedOn).isEqualTo(driver.graph().flowTask(11));
        assertThat(driver.failedBy(waitedOn)).isEqualTo(WorkloadDriver.OWN_QUEUE_PAIR);
        long failedAt = driver.failedAtPs(waitedOn);
        assertThat(driver.queuePair(11).failed()).isTrue();
        String why = NotPostedCause.of(driver, 20);
        assertThat(why).isEqualTo(String.format(Locale.ROOT, "never posted: it waited for flow 11 (h3 -> h4),"
                + " which FAILED at %.3f us: its QP 3 ran out of retries", failedAt / 1e6));
        String journey = new JourneyText(sim.network()).notPosted(why).render(r.flows().get(20), List.of(), -1, 0,
                Long.MAX_VALUE, 60);
        assertThat(journey).contains("  " + why + "\n").doesNotContain("posted at").doesNotContain("hop by hop");
        // A flow of QP 3 not yet posted when it ran out of retries, with nothing it waited for failed by then.
        assertThat(NotPostedCause.of(driver, 19)).isEqualTo(String.format(Locale.ROOT, "never posted: its"
                + " QP 3 ran out of retries at %.3f us, on flow 11, before the flow's turn", failedAt / 1e6));
    }
}
