package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;

/** timeline.json parsed back: valid Chrome trace events, properly nested, and adding up to ranks.csv and jobs.csv. */
class TimelineJsonTest {
    /** Two servers of two GPUs: TP inside a server over NVLink, a two-stage pipeline across servers. */
    private static final String SCENARIO = """
            name: tl
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 2, gpus-per-server: 2, spines: 1, link: {rate: 100Gbps}}
            nvlink: {rate: 900Gbps}
            nic: {cc: dcqcn}
            jobs:
              - name: pipe
                hosts: 0-3
                parallelism: {tp: 2, pp: 2}
                iterations: 3
                warmup: 1
                program:
                  - repeat: 2
                    as: mb
                    steps:
                      - {id: rx,  op: recv, peer: pp-1, when: "pp > 0", stream: recv}
                      - {id: fwd, op: compute, duration: 30us, after: [rx]}
                      - {id: tp,  op: allreduce, group: tp, size-total: 1MiB}
                      - {id: side, op: compute, duration: 5us, stream: side}
                      - {id: tx,  op: send, peer: pp+1, size: 512KiB, when: "pp < PP-1", stream: send, after: [tp]}
                  - {id: grads, op: allreduce, group: world, size-total: 2MiB}
            """;

    private record Slice(String cat, String name, long pid, long tid, BigDecimal ts, BigDecimal end, JsonNode args) {}

    @Test
    void shouldWriteANestedTraceThatAddsUpToTheRanksTable(@TempDir Path dir) throws IOException {
        RunResult r = Scenarios.assemble(SCENARIO).run(ProgressListener.NONE);
        new RunWriter().write(dir, r, Map.of());
        // The file is streamed event by event: the same bytes as the trace made as one string.
        assertThat(Files.readString(dir.resolve("timeline.json"))).isEqualTo(r.gpuTimeline().json());
        JsonNode root = new ObjectMapper().readTree(dir.resolve("timeline.json").toFile());
        List<Slice> slices = new ArrayList<>();
        Map<Long, String> processes = new TreeMap<>();
        Map<String, String> threads = new HashMap<>();
        Map<Long, JsonNode[]> flows = new TreeMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            switch (e.get("ph").asText()) {
                case "M" -> {
                    if (e.get("name").asText().equals("process_name")) {
                        processes.put(e.get("pid").asLong(), e.get("args").get("name").asText());
                    } else if (e.get("name").asText().equals("thread_name")) {
                        threads.put(e.get("pid").asLong() + "/" + e.get("tid").asLong(),
                                e.get("args").get("name").asText());
                    }
                }
                case "X" -> slices.add(new Slice(e.get("cat").asText(), e.get("name").asText(), e.get("pid").asLong(),
                        e.get("tid").asLong(), e.get("ts").decimalValue(),
                        e.get("ts").decimalValue().add(e.get("dur").decimalValue()), e.get("args")));
                case "s" -> flows.computeIfAbsent(e.get("id").asLong(), k -> new JsonNode[2])[0] = e;
                case "f" -> flows.computeIfAbsent(e.get("id").asLong(), k -> new JsonNode[2])[1] = e;
                default -> throw new AssertionError("unexpected phase " + e);
            }
        }
        // One process per server; every slice on a named thread.
        assertThat(processes).containsExactly(Map.entry(0L, "server 0"), Map.entry(1L, "server 1"));
        assertThat(threads).containsValue("gpu 2 (pipe rank 2)");
        for (Slice s : slices) {
            assertThat(threads).containsKey(s.pid() + "/" + s.tid());
        }
        // Proper nesting per thread: sorted by start (longest first), each slice ends inside the open one.
        Map<String, List<Slice>> byThread = new TreeMap<>();
        for (Slice s : slices) {
            byThread.computeIfAbsent(s.pid() + "/" + s.tid(), k -> new ArrayList<>()).add(s);
        }
        for (List<Slice> list : byThread.values()) {
            list.sort((a, b) -> a.ts().compareTo(b.ts()) != 0 ? a.ts().compareTo(b.ts()) : b.end().compareTo(a.end()));
            List<Slice> open = new ArrayList<>();
            for (Slice s : list) {
                while (!open.isEmpty() && open.get(open.size() - 1).end().compareTo(s.ts()) <= 0) {
                    open.remove(open.size() - 1);
                }
                if (!open.isEmpty()) {
                    assertThat(s.end()).as("%s inside %s", s, open.get(open.size() - 1))
                            .isLessThanOrEqualTo(open.get(open.size() - 1).end());
                }
                open.add(s);
            }
        }
        // The stretches of each measured iteration add up to ranks.csv (compute, exposed communication, idle) and
        // the iteration spans to its iteration time; the last iteration's end is jobs.csv's JCT.
        List<String> ranks = Files.readAllLines(dir.resolve("ranks.csv"));
        List<String> header = List.of(ranks.get(0).split(","));
        assertThat(ranks).hasSize(5);
        double lastEnd = 0;
        for (String line : ranks.subList(1, ranks.size())) {
            String[] row = line.split(",");
            int host = Integer.parseInt(row[header.indexOf("host")]);
            String thread = threads.entrySet().stream().filter(e -> e.getValue().equals("gpu " + host + " (pipe rank "
                    + row[header.indexOf("rank")] + ")")).findFirst().orElseThrow().getKey();
            double[] sums = new double[4];
            for (Slice s : byThread.get(thread)) {
                double us = s.end().subtract(s.ts()).doubleValue();
                if (s.cat().equals("iteration")) {
                    lastEnd = Math.max(lastEnd, s.end().doubleValue());
                    if (!s.args().get("warmup").asBoolean()) {
                        sums[0] += us / 2;
                    }
                    continue;
                }
                Slice in = byThread.get(thread).stream().filter(x -> x.cat().equals("iteration")
                        && x.ts().compareTo(s.ts()) <= 0 && x.end().compareTo(s.end()) >= 0).findFirst()
                        .orElseThrow(() -> new AssertionError(s + " outside every iteration"));
                if (in.args().get("warmup").asBoolean()) {
                    continue;
                }
                switch (s.cat()) {
                    case "compute" -> sums[1] += s.name().equals("compute") ? us / 2 : 0;
                    case "exposed_comm" -> sums[2] += us / 2;
                    case "idle" -> sums[3] += us / 2;
                    default -> { }
                }
            }
            assertThat(sums[0]).isCloseTo(Double.parseDouble(row[header.indexOf("iteration_us")]), within(1e-3));
            assertThat(sums[1]).isCloseTo(Double.parseDouble(row[header.indexOf("compute_us")]), within(1e-3));
            assertThat(sums[2]).isCloseTo(Double.parseDouble(row[header.indexOf("exposed_comm_us")]), within(1e-3));
            assertThat(sums[3]).isCloseTo(Double.parseDouble(row[header.indexOf("idle_us")]), within(1e-3));
            assertThat(sums[1] + sums[2] + sums[3]).isCloseTo(sums[0], within(1e-3));
            assertThat(sums[2]).isPositive();
        }
        List<String> jobs = Files.readAllLines(dir.resolve("jobs.csv"));
        List<String> jobHeader = List.of(jobs.get(0).split(","));
        String[] job = jobs.get(1).split(",");
        assertThat(lastEnd).isCloseTo(Double.parseDouble(job[jobHeader.indexOf("start_us")])
                + Double.parseDouble(job[jobHeader.indexOf("jct_us")]), within(1e-3));
        // Compute steps: 3 iterations x 2 micro-batches x (fwd + side) per rank; the overlapping side stream
        // gets a compute lane of its own.
        assertThat(slices.stream().filter(s -> s.cat().equals("compute") && !s.name().equals("compute"))).hasSize(48);
        assertThat(threads.values()).anyMatch(n -> n.endsWith(" compute 2"));
        // Collective parts carry their collective and size; each rank is in 6 TP calls and 3 world calls.
        List<Slice> calls = slices.stream().filter(s -> s.cat().equals("collective")).toList();
        assertThat(calls).hasSize(4 * 9);
        assertThat(calls).allSatisfy(s -> assertThat(s.args().get("collective").asText()).isEqualTo("allreduce"));
        assertThat(calls.stream().filter(s -> s.name().equals("allreduce 2 MiB")
                && s.args().get("size_bytes").asLong() == 2 << 20)).hasSize(12);
        // Sends and receives: 2 tp ranks x 2 micro-batches x 3 iterations, each joined by an arrow from inside
        // the send to inside its receive.
        List<Slice> sends = slices.stream().filter(s -> s.cat().equals("send")).toList();
        List<Slice> recvs = slices.stream().filter(s -> s.cat().equals("recv")).toList();
        assertThat(sends).hasSize(12).allSatisfy(s -> assertThat(s.name()).startsWith("send 512 KiB to rank "));
        assertThat(recvs).hasSize(12);
        assertThat(flows).hasSize(12);
        for (JsonNode[] f : flows.values()) {
            assertThat(f[0]).isNotNull();
            assertThat(f[1]).isNotNull();
            assertThat(f[1].get("bp").asText()).isEqualTo("e");
            assertThat(sends).anyMatch(s -> inside(s, f[0]));
            assertThat(recvs).anyMatch(s -> inside(s, f[1]));
            assertThat(f[1].get("ts").decimalValue()).isGreaterThan(f[0].get("ts").decimalValue());
        }
    }

    private static boolean inside(Slice s, JsonNode e) {
        BigDecimal ts = e.get("ts").decimalValue();
        return s.pid() == e.get("pid").asLong() && s.tid() == e.get("tid").asLong() && s.ts().compareTo(ts) <= 0
                && s.end().compareTo(ts) >= 0;
    }

    @Test
    void shouldShowPrefillKvTransferAndDecodeOfAnInferenceCall(@TempDir Path dir) throws IOException {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: serve
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 2, spines: 1, link: {rate: 400Gbps}}
                nic: {cc: dcqcn}
                inference:
                  - name: chat
                    model: {layers: 8, hidden: 1024, heads: 8, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                    instances:
                      - {role: prefill, tp: 2, hosts: 0-1}
                      - {role: decode, tp: 2, hosts: 2-3}
                    cost: {prefill-per-token: 1us, decode-step: 100us}
                    arrivals: {process: poisson, rate: 1/s, count: 1}
                    request:
                      steps: [{llm: {prompt-tokens: 256, output-tokens: 3}}]
                """), true).run(ProgressListener.NONE);
        new RunWriter().write(dir, r, Map.of());
        var call = r.llmCalls().get(0);
        JsonNode root = new ObjectMapper().readTree(dir.resolve("timeline.json").toFile());
        List<JsonNode> x = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (e.get("ph").asText().equals("X")) {
                x.add(e);
            }
        });
        List<JsonNode> prefill = x.stream().filter(e -> e.get("name").asText().equals("prefill request 0 call 0"))
                .toList();
        assertThat(prefill).hasSize(2).allSatisfy(e -> {
            assertThat(e.get("pid").asLong()).isZero();
            assertThat(e.get("ts").decimalValue()).isEqualByComparingTo(BigDecimal.valueOf(call.prefillStartPs(), 6));
            assertThat(e.get("ts").decimalValue().add(e.get("dur").decimalValue()))
                    .isEqualByComparingTo(BigDecimal.valueOf(call.prefillEndPs(), 6));
        });
        assertThat(x.stream().filter(e -> e.get("cat").asText().equals("kv"))).hasSize(4);
        List<JsonNode> decode = x.stream().filter(e -> e.get("name").asText().equals("decode request 0 call 0"))
                .toList();
        assertThat(decode).hasSize(2).allSatisfy(e -> {
            assertThat(e.get("pid").asLong()).isEqualTo(1);
            assertThat(e.get("ts").decimalValue().add(e.get("dur").decimalValue()))
                    .isEqualByComparingTo(BigDecimal.valueOf(call.lastTokenPs(), 6));
        });
    }

    @Test
    void shouldNotWriteATimelineWithoutJobsOrInference(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("timeline.json"), "stale");
        RunResult r = Scenarios.assemble("""
                name: plain
                fabric: {mode: roce-lossless}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps}}
                traffic: [{kind: flow, src: 0, dst: 1, size: 64KB}]
                """).run(ProgressListener.NONE);
        new RunWriter().write(dir, r, Map.of());
        assertThat(dir.resolve("timeline.json")).doesNotExist();
    }
}
