package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.job.TransferRecord;
import rocelab.observe.output.RunWriter;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * A pipeline's slow send is named as a slow call is (the collectives audit's item 4: a pipeline's slow sends were not
 * named; the two-stage pipeline here waits 1.2 ms per iteration on the network, and a job without calls had no
 * "slowest" line). Its figures are its flow's in flows.csv; what else shared its way is told by identity: here another item's
 * 64 MB write through the same uplink. Alone, the send runs at its time alone and nothing is named; the warm-up's
 * send is never named.
 */
class SlowestTransfersTest {
    private static final String JOB = """
            name: pipe
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            jobs:
              - name: j
                hosts: [0, 4]
                parallelism: {pp: 2}
                iterations: 2
                warmup: 1
                program:
                  - {id: fwd, op: compute, duration: 50us, when: "pp == 0"}
                  - {id: tx, op: send, peer: pp+1, size: 8MB, when: "pp == 0", after: [fwd]}
                  - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
            """;

    private static RunResult run(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
    }

    @Test
    void shouldNameTheSlowSendWithItsFlowsFiguresAndWhatSharedItsUplink() {
        RunResult r = run(JOB + "traffic:\n  - {kind: flow, src: 1, dst: 5, size: 64MB}\n");
        JobRecord j = r.jobs().get(0);
        assertThat(j.slowestTransfers()).hasSize(1);
        TransferRecord t = j.slowestTransfers().get(0);
        assertThat(t.name()).isEqualTo("j/tx from rank 0 to rank 1");
        assertThat(t.iteration()).isEqualTo(1);
        assertThat(t.bytes()).isEqualTo(8_000_000);
        FlowRecord f = r.flows().get(t.flow());
        assertThat(f.src()).isZero();
        assertThat(f.dst()).isEqualTo(4);
        assertThat(t.fctPs()).isEqualTo(f.fctPs());
        assertThat(t.idealFctPs()).isEqualTo(f.idealFctPs());
        assertThat(t.slowdown()).isGreaterThan(1.5);
        // The write from h1 to h5 leaves leaf0 by the same uplink for all of the send's life; it touches neither RNIC.
        assertThat(t.beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        assertThat(t.job()).isEqualTo(CollectiveRecord.Concurrent.NONE);
        assertThat(t.onLinks().longest()).isEqualTo("traffic item 1");
        assertThat(t.onLinks().at()).isEqualTo("leaf0 port 4 (towards spine0)");
        FlowRecord write = r.flows().stream().filter(x -> x.src() == 1).findFirst().orElseThrow();
        long both = Math.min(f.deliveredPs(), write.deliveredPs()) - Math.max(f.startPs(), write.startPs());
        assertThat(t.onLinks().overlapPs()).isEqualTo(both);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("  slowest   transfer j/tx from rank 0 to rank 1 in iteration 1 (8,000,000 B, flow "
                + t.flow() + "): ");
        assertThat(text).contains("(traffic item 1 for ")
                // What the closed form leaves out, in words that say so (it read "an idle fabric carries nothing else").
                .contains("; the idle-fabric time is the transfer alone, and 1 other item of the workload");
        // summary.json has them for tools, by the flow's id in flows.csv.
        assertThat(RunWriter.summaryJson(r)).contains("\"slowest_transfers\": [").contains("\"flow\": " + t.flow() + ",");
        if (f.rateHeldPs() > 0) {
            assertThat(text).contains("its rate held it back");
        }
    }

    @Test
    void shouldNameTheJobsCallOnTheSendsRnicsInChakra3d() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("chakra-3d")).run(ProgressListener.NONE);
        TransferRecord t = r.jobs().get(0).slowestTransfers().get(0);
        assertThat(t.name()).startsWith("step/send-grad-mb1 from rank ");
        // Its flow from post to delivery against the calls' spans in collectives.csv (from the last entry to the end).
        FlowRecord f = r.flows().get(t.flow());
        CollectiveRecord call = r.collectives().stream()
                .filter(c -> (c.name() + (c.iteration() == t.iteration() ? "" : " of iteration " + c.iteration()))
                        .equals(t.job().longest()))
                .findFirst().orElseThrow();
        assertThat(call.name()).startsWith("step/dp-allreduce-grads");
        assertThat(t.job().overlapPs()).isEqualTo(Math.min(f.deliveredPs(), call.endPs())
                - Math.max(f.startPs(), call.startPs())).isPositive();
        assertThat(SummaryText.render(r, null)).contains("of this job was under way on its RNICs meanwhile ("
                + t.job().longest() + " for ");
    }

    @Test
    void shouldNameNoTransferThatRanAtItsTimeAlone() {
        RunResult r = run(JOB);
        assertThat(r.jobs().get(0).slowestTransfers()).isEmpty();
        assertThat(SummaryText.render(r, null)).doesNotContain("slowest   transfer");
        List<FlowRecord> sends = r.flows();
        assertThat(sends).hasSize(2).allMatch(f -> f.fctPs() <= 1.05 * f.idealFctPs());
    }
}
