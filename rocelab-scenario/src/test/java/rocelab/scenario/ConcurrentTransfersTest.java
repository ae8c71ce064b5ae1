package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * A call beside the job's own point-to-point transfers on its RNICs (a pipeline's send beside a data-parallel
 * AllReduce) shares them on any network: the call's record counts them and names the one there longest, by the
 * transfers' identity and spans in the run, and the summary says so as it does for concurrent calls.
 */
class ConcurrentTransfersTest {
    private static final String SCENARIO = """
            name: beside
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            jobs:
              - name: pp
                hosts: 0-3
                parallelism: {dp: 2, pp: 2}
                program:
                  - {id: act, op: send, peer: pp+1, size: 4MiB, when: pp == 0, stream: p2p}
                  - {id: rx, op: recv, peer: pp-1, when: pp == 1, stream: p2p}
                  - {id: grads, op: allreduce, group: dp, size-total: %s, stream: ar}
            """;

    @Test
    void shouldCountTheJobsOwnTransfersOnACallsRnicsAndSayIt() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().read(SCENARIO.formatted("16MiB"), "beside.yaml", null))
                .run(ProgressListener.NONE);
        List<CollectiveRecord> calls = r.collectives();
        assertThat(calls).hasSize(2);
        for (CollectiveRecord c : calls) {
            // The two DP groups are on different hosts: no concurrent call; each group's two hosts send (pp 0) or
            // receive (pp 1) one 4 MiB transfer each, from 0, while the 16 MiB AllReduce runs.
            assertThat(c.concurrent().calls()).as(c.name()).isZero();
            assertThat(c.concurrent().transfers()).as(c.name()).isEqualTo(2);
            assertThat(c.concurrent().longestTransfer()).matches("pp/act(\\[\\])? from rank [01] to rank [23]");
            assertThat(c.concurrent().transferOverlapPs()).isPositive().isLessThanOrEqualTo(c.timePs());
        }
        assertThat(SummaryText.render(r, "out")).contains("slowest").contains("2 transfers of this job were under way"
                + " on its RNICs meanwhile (pp/act");
        // By their spans: transfers posted after the call (the sends after the AllReduce) are not beside it.
        String after = SCENARIO.formatted("16MiB").replace("stream: p2p}", "stream: p2p, after: [grads]}")
                .replace("      - {id: grads, op: allreduce, group: dp, size-total: 16MiB, stream: ar}\n", "")
                .replace("    program:\n", "    program:\n      - {id: grads, op: allreduce, group: dp, size-total:"
                        + " 16MiB, stream: ar}\n");
        assertThat(after).contains("program:\n      - {id: grads").contains("after: [grads]");
        RunResult a = Simulation.assemble(new ScenarioReader().read(after, "beside.yaml", null))
                .run(ProgressListener.NONE);
        assertThat(a.collectives()).hasSize(2).allSatisfy(c -> assertThat(c.concurrent().transfers()).isZero());
        assertThat(SummaryText.render(a, "out")).doesNotContain("transfers of this job");
    }
}
