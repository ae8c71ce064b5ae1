package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.report.ReportWriter;

/**
 * A call's wait for its decode slot (llm_calls.csv slot_wait_us): its TTFT above its ideal one is its wait for the
 * prefill instance, its wait for the slot and what the network added, and the decode it draws starts when it decodes.
 */
class InferenceSlotWaitTest {
    /** One decode slot (max-batch 1) and requests 50 decode steps long coming faster than the slot serves them. */
    private static final String SLOT = """
            name: slot
            seed: 1
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            inference:
              - name: svc
                model: {layers: 2, hidden: 1024, heads: 8, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                instances:
                  - {role: prefill, tp: 1, hosts: 0}
                  - {role: decode, tp: 1, hosts: 1}
                cost: {prefill-per-token: 1us, decode-step: 100us}
                gateway: 3
                scheduler: {max-batch: 1}
                arrivals: {process: poisson, rate: 2000/s, count: 8}
                request:
                  ingress: 8KiB
                  steps:
                    - llm: {prompt-tokens: 1000, output-tokens: 50}
                  egress: 1KiB
            """;

    private static final long STEP_PS = 100_000_000L;

    /** What the network added to a call's TTFT: its TTFT less its ideal one, its queue and its slot wait. */
    private static long network(CallRecord c) {
        return c.ttftPs() - c.idealTtftPs() - c.queuePs() - c.slotWaitPs();
    }

    @Test
    void shouldLeaveNothingToTheNetworkOnAnIdleFabricOnceTheSlotWaitIsCounted() {
        RunResult r = Scenarios.assemble(SLOT).run(ProgressListener.NONE);
        List<CallRecord> calls = r.llmCalls();
        assertThat(calls).hasSize(8).allSatisfy(c -> assertThat(c.completed()).isTrue());
        long previousLast = -1;
        for (CallRecord c : calls) {
            // The model: the first decode step starts once every KV slice is in and the call before it on the slot
            // had its last token; one slot, the calls in their order.
            assertThat(c.slotWaitPs()).as("request %d", c.request())
                    .isEqualTo(Math.max(0, previousLast - c.kvDonePs()));
            assertThat(c.decodeStartPs()).isEqualTo(Math.max(c.kvDonePs(), previousLast))
                    .isEqualTo(c.firstTokenPs() - STEP_PS);
            // Idle fabric: what is left of the TTFT above its ideal once the two waits are taken off is ~0.
            assertThat(network(c)).as("request %d", c.request()).isBetween(0L, 100_000L);
            previousLast = c.lastTokenPs();
        }
        // The slot was the bottleneck: the later requests waited for it milliseconds, far more than for the prefill.
        CallRecord last = calls.get(7);
        assertThat(last.slotWaitPs()).isGreaterThan(10 * last.queuePs()).isGreaterThan(20_000_000_000L);
    }

    @Test
    void shouldLeaveTheNetworksShareWhenTrafficCrossesTheKvCachesPath() {
        RunResult r = Scenarios.assemble(SLOT + """
                traffic:
                  - {kind: flow, src: 2, dst: 1, size: 64MiB, start: 1us}
                """).run(ProgressListener.NONE);
        List<CallRecord> calls = r.llmCalls();
        assertThat(calls).hasSize(8).allSatisfy(c -> {
            assertThat(c.completed()).isTrue();
            assertThat(c.slotWaitPs()).isNotNegative();
            assertThat(network(c)).as("request %d", c.request()).isNotNegative();
        });
        // The flow into the decode host slows the first KV caches: their share is the network's, not a wait.
        assertThat(network(calls.get(0))).isGreaterThan(100_000_000L);
    }

    @Test
    void shouldDrawDecodeFromItsFirstStepAndTheSlotWaitAsAWait(@TempDir Path dir) throws IOException {
        RunResult r = Scenarios.assemble(SLOT).run(ProgressListener.NONE);
        ReportWriter.writeRun(dir, r, Map.of());
        List<CallRecord> calls = r.llmCalls();
        // timeline.json: one decode slice per call, from its first decode step to its last token, none overlapping
        // on the one-slot GPU.
        JsonNode root = new ObjectMapper().readTree(dir.resolve("timeline.json").toFile());
        Map<String, JsonNode> decode = new HashMap<>();
        root.get("traceEvents").forEach(e -> {
            if (e.get("ph").asText().equals("X") && e.get("name").asText().startsWith("decode request ")) {
                decode.put(e.get("name").asText(), e);
            }
        });
        assertThat(decode).hasSize(8);
        BigDecimal previousEnd = BigDecimal.ZERO;
        for (CallRecord c : calls) {
            JsonNode e = decode.get("decode request " + c.request() + " call 0");
            BigDecimal ts = e.get("ts").decimalValue();
            assertThat(ts).isEqualByComparingTo(BigDecimal.valueOf(c.decodeStartPs(), 6));
            assertThat(e.get("dur").decimalValue()).isEqualByComparingTo(BigDecimal.valueOf(50 * STEP_PS, 6));
            assertThat(ts).isGreaterThanOrEqualTo(previousEnd);
            previousEnd = ts.add(e.get("dur").decimalValue());
        }
        // The report's requests chart: the wait for the slot its own category, decode from its first step.
        JsonNode chart = requestsChart(dir);
        List<String> cats = new ArrayList<>();
        chart.get("cats").forEach(c -> cats.add(c.get(0).asText()));
        int wait = cats.indexOf("waiting for decode slot");
        int dec = cats.indexOf("decode");
        assertThat(wait).isNotNegative();
        assertThat(dec).isNotNegative();
        for (int i = 0; i < calls.size(); i++) {
            CallRecord c = calls.get(i);
            List<double[]> waits = intervals(chart, i, wait);
            assertThat(intervals(chart, i, dec)).singleElement().satisfies(v -> assertThat(v)
                    .containsExactly(c.decodeStartPs() / 1e6, c.lastTokenPs() / 1e6));
            if (c.slotWaitPs() > 0) {
                assertThat(waits).singleElement().satisfies(v -> assertThat(v)
                        .containsExactly(c.kvDonePs() / 1e6, c.decodeStartPs() / 1e6));
            } else {
                assertThat(waits).isEmpty();
            }
        }
        // Rebuilt from the folder (rocelab report DIR): the same chart, from llm_calls.csv's slot_wait_us.
        String header = Files.readAllLines(dir.resolve("llm_calls.csv")).get(0);
        assertThat(header).contains(",kv_transfer_us,slot_wait_us,first_token_us,");
        Files.delete(dir.resolve("report.html"));
        ReportWriter.write(dir);
        assertThat(requestsChart(dir)).isEqualTo(chart);

        // A folder written before the column still makes a report: when decoding began is not known there, so
        // neither the wait nor decode is drawn (from the KV cache's arrival, decode would hold the wait).
        List<String> lines = Files.readAllLines(dir.resolve("llm_calls.csv"));
        int col = List.of(lines.get(0).split(",")).indexOf("slot_wait_us");
        List<String> old = new ArrayList<>();
        for (String line : lines) {
            List<String> cells = new ArrayList<>(List.of(line.split(",", -1)));
            cells.remove(col);
            old.add(String.join(",", cells));
        }
        Files.write(dir.resolve("llm_calls.csv"), old);
        Files.delete(dir.resolve("report.html"));
        ReportWriter.write(dir);
        JsonNode before = requestsChart(dir);
        for (int i = 0; i < calls.size(); i++) {
            assertThat(intervals(before, i, wait)).isEmpty();
            assertThat(intervals(before, i, dec)).isEmpty();
        }
    }

    private static JsonNode requestsChart(Path dir) throws IOException {
        String html = Files.readString(dir.resolve("report.html"));
        int at = html.indexOf("{\"id\":\"requests\"");
        assertThat(at).isNotNegative();
        return new ObjectMapper().readerFor(JsonNode.class).<JsonNode>readValues(html.substring(at)).next();
    }

    private static List<double[]> intervals(JsonNode chart, int row, int category) {
        List<double[]> out = new ArrayList<>();
        chart.get("iv").forEach(v -> {
            if (v.get(0).asInt() == row && v.get(3).asInt() == category) {
                out.add(new double[] {v.get(1).asDouble(), v.get(2).asDouble()});
            }
        });
        return out;
    }
}
