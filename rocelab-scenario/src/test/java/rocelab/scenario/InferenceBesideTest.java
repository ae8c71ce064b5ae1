package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.inference.ServiceRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;

/**
 * What an inference service's summary says beside its numbers: the workload's other items that had flows on its
 * requests' RNICs (by identity: the hosts of the requests' own flows, BesideIndex), a service with no request, and
 * which requests each percentile line is over.
 */
class InferenceBesideTest {
    /** One request from gateway 3 through prefill 0 and decode 1; a 20 MB flow into host 1 while it decodes. */
    private static final String BG = """
            name: bg
            seed: 1
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            inference:
              - name: svc
                model: {layers: 2, hidden: 1024, heads: 8, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                instances:
                  - {role: prefill, tp: 1, hosts: 0}
                  - {role: decode, tp: 1, hosts: 1}
                cost: {prefill-per-token: 1us, decode-step: 100us}
                gateway: 3
                arrivals: {process: poisson, rate: 1000/s, count: COUNT}
                request:
                  ingress: 8KiB
                  steps:
                    - llm: {prompt-tokens: 1000, output-tokens: 5}
                  egress: 1KiB
            traffic:
              - {kind: flow, src: SRC, dst: DST, size: 20MB, start: 1100us}
            """;

    private static RunResult run(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
    }

    private static String bg(int src, int dst, int count) {
        return BG.replace("SRC", "" + src).replace("DST", "" + dst).replace("COUNT", "" + count);
    }

    @Test
    void shouldNameTheTrafficItemThatHadFlowsOnTheServicesRnicsForHowLong() {
        RunResult r = run(bg(2, 1, 1));
        ServiceRecord s = r.services().get(0);
        RequestRecord q = r.requests().get(0);
        assertThat(q.completed()).isTrue();
        assertThat(s.startPs()).isEqualTo(q.arrivalPs());
        assertThat(s.endPs()).isEqualTo(q.endPs());
        // The background flow is the one from host 2: its post to its delivery, within the service's span.
        FlowRecord f = r.flows().stream().filter(x -> x.src() == 2).findFirst().orElseThrow();
        long overlap = Math.min(f.deliveredPs(), s.endPs()) - Math.max(f.startPs(), s.startPs());
        assertThat(overlap).isPositive();
        assertThat(s.beside()).isEqualTo(new CollectiveRecord.Beside(1, "traffic item 1", overlap));
        assertThat(q.beside()).isEqualTo(s.beside());
        assertThat(SummaryText.render(r, null)).contains(String.format(Locale.ROOT, "; the ideal is the service alone,"
                + " and 1 other item of the workload had flows on its requests' RNICs meanwhile (traffic item 1 for"
                + " %.3f ms of its %.3f ms)\n", overlap / 1e9, (s.endPs() - s.startPs()) / 1e9));
        @SuppressWarnings("unchecked")
        var entry = ((List<Map<String, Object>>) Summary.of(r).get("inference")).get(0);
        var beside = (Map<String, Object>) entry.get("beside");
        assertThat(beside).containsOnlyKeys("items", "longest", "longest_us").containsEntry("items", 1)
                .containsEntry("longest", "traffic item 1");
        assertThat(((Number) beside.get("longest_us")).doubleValue()).isEqualTo(overlap / 1e6);
    }

    @Test
    void shouldNameNothingBesideWhenTheOtherItemsFlowsAreOnHostsTheServiceDoesNotUse() {
        // Hosts 4 and 5 carry none of the requests' flows (gateway 3, prefill 0, decode 1).
        RunResult r = run(bg(4, 5, 1));
        assertThat(r.services().get(0).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        assertThat(r.requests().get(0).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        assertThat(SummaryText.render(r, null)).doesNotContain("the ideal is the service alone");
        @SuppressWarnings("unchecked")
        var entry = ((List<Map<String, Object>>) Summary.of(r).get("inference")).get(0);
        assertThat(entry).doesNotContainKey("beside");
    }

    @Test
    void shouldGiveEachRequestWhatRanBesideItDuringItsOwnSpan() {
        // Three requests at 1000/s: the flow from 1100 us is beside the ones under way then, not the others.
        RunResult r = run(bg(2, 1, 3));
        FlowRecord f = r.flows().stream().filter(x -> x.src() == 2).findFirst().orElseThrow();
        for (RequestRecord q : r.requests()) {
            long overlap = Math.min(f.deliveredPs(), q.endPs()) - Math.max(f.startPs(), q.arrivalPs());
            assertThat(q.beside()).as("request %d", q.request()).isEqualTo(overlap > 0
                    ? new CollectiveRecord.Beside(1, "traffic item 1", overlap) : CollectiveRecord.Beside.NONE);
        }
    }

    @Test
    void shouldKeepAServiceWithNoRequestInTheSummaryAndSummaryJson() {
        String yaml = bg(4, 5, 1).replace("count: 1", "duration: 1ms").replace("rate: 1000/s", "rate: 1/s");
        RunResult r = run(yaml);
        assertThat(r.requests()).isEmpty();
        assertThat(r.services()).extracting(ServiceRecord::service).containsExactly("svc");
        assertThat(SummaryText.render(r, null)).contains(
                "inference   svc: 0 of 0 requests completed (no request arrived in its arrival window)\n");
        @SuppressWarnings("unchecked")
        var entry = ((List<Map<String, Object>>) Summary.of(r).get("inference")).get(0);
        assertThat(entry).containsEntry("service", "svc").containsEntry("requests", 0).containsEntry("completed", 0)
                .containsEntry("with_first_token", 0);
    }

    @Test
    void shouldSayWhichRequestsEachPercentileLineIsOver() {
        // Stopped at 2 ms: request 0 has its first token, not its answer; the others not even that.
        String yaml = bg(4, 5, 4).replace("rate: 1000/s", "rate: 2000/s").replace("traffic:\n", "run: {stop-at: 2000us}\n"
                + "traffic:\n");
        RunResult r = run(yaml);
        assertThat(r.requests()).hasSize(4).noneMatch(RequestRecord::completed);
        assertThat(r.requests().stream().filter(q -> q.ttftPs() >= 0)).hasSize(1);
        String text = SummaryText.render(r, null);
        assertThat(text).contains("inference   svc: 0 of 4 requests completed\n")
                .contains(String.format(Locale.ROOT, "  TTFT (ms) p50 %1$.3f   p90 %1$.3f   p99 %1$.3f   (over the 1"
                        + " with a first token, 1 of them unfinished)\n", r.requests().get(0).ttftPs() / 1e9))
                .doesNotContain("E2E (ms)");
        @SuppressWarnings("unchecked")
        var entry = ((List<Map<String, Object>>) Summary.of(r).get("inference")).get(0);
        assertThat(entry).containsEntry("completed", 0).containsEntry("with_first_token", 1);

        RunResult done = run(bg(4, 5, 3));
        assertThat(done.requests()).allMatch(RequestRecord::completed);
        assertThat(SummaryText.render(done, null)).contains("   (over the 3 completed)\n  TPOT (ms)")
                .contains("   (over the 3 completed)\n  E2E (ms)")
                .containsPattern("  E2E \\(ms\\)  p50 [0-9.]+   p90 [0-9.]+   p99 [0-9.]+   \\(over the 3 completed\\)\n")
                .contains("(over the 3 completed, each its E2E minus its own E2E on an ideal network)")
                .doesNotContain("ideal network p50");
    }

    /**
     * llm_calls.csv's kv_bytes is one copy of the call's KV cache (docs/outputs.md): with TP 2 and one KV head each
     * rank sends the whole head, two transfers of kv_bytes; with TP 2 and two heads, two halves.
     */
    @Test
    void shouldMoveKvBytesOnceAcrossTheRanksOrOncePerRankWhenTheyReplicateTheHead() {
        String yaml = """
                name: tpbig
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                inference:
                  - name: svc
                    model: {layers: 2, hidden: 1024, heads: 8, kv-heads: HEADS, head-dim: 128, dtype-bytes: 2}
                    instances:
                      - {role: prefill, tp: 2, hosts: "0-1"}
                      - {role: decode, tp: 2, hosts: "2-3"}
                    cost: {prefill-per-token: 1us, decode-step: 100us}
                    arrivals: {process: poisson, rate: 1000/s, count: 1}
                    request:
                      steps: [{llm: {prompt-tokens: 1000, output-tokens: 1}}]
                """;
        for (int heads : new int[] {1, 2}) {
            RunResult r = run(yaml.replace("HEADS", "" + heads));
            long kvBytes = r.llmCalls().get(0).kvBytes();
            // 1000 tokens x 2 (K and V) x 2 layers x heads x 128 x 2 B.
            assertThat(kvBytes).isEqualTo(1000L * 2 * 2 * heads * 128 * 2);
            List<FlowRecord> kv = r.flows().stream().filter(f -> f.dst() - f.src() == 2).toList();
            assertThat(kv).as("KV transfers, %d heads", heads).hasSize(2)
                    .allSatisfy(f -> assertThat(f.sizeBytes()).isEqualTo(kvBytes / heads));
        }
    }
}
