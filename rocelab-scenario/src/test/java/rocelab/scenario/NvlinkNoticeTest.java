package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;

/**
 * Traffic items and jobs' transfers whose two ends are GPUs of one server go over NVLink (with {@code nvlink}), not
 * the RoCE fabric: they are not flows. The outputs said nothing of them: a traffic item of two flows showed one flow
 * in flows.csv and the summary. The printed summary and summary.json now say, once, how many transfers and bytes went
 * over NVLink, in every model, and nothing when there are none.
 */
class NvlinkNoticeTest {
    private static final String SCENARIO = """
            name: nvlink-notice
            fabric: {mode: roce-lossless, mtu: 4096}
            topology:
              kind: rail-optimized
              servers: 2
              gpus-per-server: 4
              spines: 1
              link: {rate: 100Gbps, delay: 1us}
            nvlink: {rate: 3600Gbps, latency: 1us}
            traffic:
              - {kind: flow, src: 0, dst: 1, size: 1MB}
              - {kind: flow, src: 2, dst: 3, size: 2MB, start: 5us}
              - {kind: flow, src: 0, dst: 4, size: 1MB}
            jobs:
              - name: j
                hosts: [1, 2, 5]
                parallelism: {pp: 3}
                iterations: 1
                program:
                  - {id: rx, op: recv, peer: pp-1, when: "pp > 0"}
                  - {id: tx, op: send, peer: pp+1, size: 500KB, when: "pp < PP-1", after: [rx]}
            """;

    private static RunResult run(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE);
    }

    @Test
    void shouldSayOnceHowManyTransfersAndBytesWentOverNvlinkInEveryModel() {
        for (Simulation.Model model : Simulation.Model.values()) {
            RunResult r = run(SCENARIO, model);
            // The network carried the flow between servers and the job's send from host 2 to host 5; the traffic
            // items inside server 0 and the job's send from host 1 to host 2 went over NVLink.
            assertThat(r.flows()).extracting(FlowRecord::src, FlowRecord::dst).as(model.key())
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 4),
                            org.assertj.core.groups.Tuple.tuple(2, 5));
            assertThat(r.nvlinkTransfers()).as(model.key()).isEqualTo(3);
            assertThat(r.nvlinkBytes()).as(model.key()).isEqualTo(1_000_000L + 2_000_000L + 500_000L);

            String text = SummaryText.render(r, null);
            assertThat(text.split("\n")).as(model.key()).filteredOn(l -> l.contains("NVLink")).containsExactly(
                    "nvlink      3 transfers (3,500,000 bytes) between GPUs of one server go over NVLink, not the"
                            + " network: they are not flows (not in flows.csv, the FCT or the goodput) and cross no"
                            + " RNIC or switch");
            Map<String, Object> json = Summary.of(r);
            assertThat(json.get("nvlink")).as(model.key()).isEqualTo(Map.of("transfers", 3L, "bytes", 3_500_000L,
                    "note", "these transfers between GPUs of one server go over NVLink, not the network: they are"
                            + " not flows (not in flows.csv, the FCT or the goodput) and cross no RNIC or switch"));
        }
    }

    @Test
    void shouldSayNothingWhenEveryTransferCrossesTheNetwork() {
        // Without nvlink, the GPUs of a server reach one another through their RNICs and the rail switch.
        RunResult r = run(SCENARIO.replace("nvlink: {rate: 3600Gbps, latency: 1us}\n", ""), Simulation.Model.PACKET);
        assertThat(r.flows()).hasSize(5);
        assertThat(r.nvlinkTransfers()).isZero();
        assertThat(SummaryText.render(r, null)).doesNotContain("NVLink").doesNotContain("nvlink ");
        assertThat(Summary.of(r)).doesNotContainKey("nvlink");
    }
}
