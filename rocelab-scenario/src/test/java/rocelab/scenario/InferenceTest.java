package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.IdealFlowTime;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;

/** Inference services: per-request latencies against closed forms, static scheduling, interference. */
class InferenceTest {
    /** Llama-3 70B with disaggregated prefill (server 0) and decode (server 1), TP 8 over NVLink. */
    private static final String LLAMA70B = """
            name: llama70b
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 2, gpus-per-server: 8, spines: 1,
                       link: {rate: 400Gbps, delay: 500ns}}
            nvlink: {rate: 3600Gbps, latency: 0}
            nic: {cc: dcqcn}
            inference:
              - name: chat
                model: {layers: 80, hidden: 8192, heads: 64, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                instances:
                  - {role: prefill, tp: 8, hosts: 0-7}
                  - {role: decode, tp: 8, hosts: 8-15}
                cost: {prefill-per-token: 45us, decode-step: 25ms}
                arrivals: {process: poisson, rate: 1/s, count: 1}
                request:
                  steps: [{llm: {prompt-tokens: 4096, output-tokens: 2}}]
            """;

    private static IdealFlowTime closedForm(Simulation s) {
        ScenarioConfig c = s.config();
        return new IdealFlowTime(s.network(), c.nic(), c.switches().forwardingLatencyPs());
    }

    /** A ring AllReduce of {@code bytes} over 8 GPUs on NVLink at 450 GB/s with no latency: 14 steps of S/8. */
    private static long nvlinkRing(long bytes) {
        return 14 * Rates.serializationPs(bytes / 8, 3_600_000_000_000L);
    }

    @Test
    void shouldGiveTheReferenceTimeToFirstTokenAtNoLoadOnAnIdealNetwork() {
        Simulation s = Simulation.assemble(Scenarios.parse(LLAMA70B), true);
        RunResult r = s.run(ProgressListener.NONE);
        CallRecord c = r.llmCalls().get(0);
        // The reference: 320 KiB of KV cache per token, a 4K prompt is 1.25 GiB, 8 rail-parallel streams of 160 MiB.
        assertThat(c.kvBytes()).isEqualTo(4096L * 320 * 1024).isEqualTo(5L << 28);
        long perRank = 160L << 20;
        assertThat(r.flows()).hasSize(8).allSatisfy(f -> {
            assertThat(f.sizeBytes()).isEqualTo(perRank);
            assertThat(f.dst() - f.src()).isEqualTo(8);
        });
        // 3.36 ms of payload at 400 Gb/s; RoCE headers add their share.
        FrameFormat frames = new FrameFormat(false);
        double efficiency = 4096.0 / FrameFormat.wireBytes(frames.dataFrameBytes(4096, false));
        assertThat(perRank * 8 / 400e9).isCloseTo(3.36e-3, within(0.01e-3));
        assertThat(c.kvTransferPs() / 1e12).isCloseTo(perRank * 8 / 400e9 / efficiency, within(2e-6));
        // TTFT = prefill (4096 x 45 us, then one AllReduce of every layer's activations, 2 x 80 x 4096 x 8192 x 2 B)
        // + KV transfer + the first decode step (25 ms, then 2 x 80 x 8192 x 2 B).
        long kv = closedForm(s).deliveryPs(0, 8, perRank);
        long prefill = 4096 * 45_000_000L + nvlinkRing(2L * 80 * 4096 * 8192 * 2);
        long decodeStep = 25_000_000_000L + nvlinkRing(2L * 80 * 8192 * 2);
        RequestRecord q = r.requests().get(0);
        assertThat(q.ttftPs()).isEqualTo(prefill + kv + decodeStep);
        assertThat(c.ttftPs()).isEqualTo(q.ttftPs());
        // Alone on an idle fabric, the call's ideal TTFT is its closed form, and the run's.
        assertThat(c.idealTtftPs()).isEqualTo(prefill + kv + decodeStep).isEqualTo(c.ttftPs());
        assertThat(q.tpotPs()).isEqualTo((double) decodeStep);
        assertThat(q.e2ePs()).isEqualTo(prefill + kv + 2 * decodeStep);
        assertThat(q.networkWaitPs()).isZero();
    }

    @Test
    void shouldMatchTheIdealNetworkWhenTheKvCacheTravelsAloneOnItsRails() {
        Simulation s = Scenarios.assemble(LLAMA70B.replace("prompt-tokens: 4096", "prompt-tokens: 256"));
        RunResult r = s.run(ProgressListener.NONE);
        RequestRecord q = r.requests().get(0);
        assertThat(q.completed()).isTrue();
        // One stream per rail, nothing else on the fabric: the packet-level run is the closed form to 1%.
        assertThat((double) r.llmCalls().get(0).kvTransferPs())
                .isCloseTo(closedForm(s).deliveryPs(0, 8, 256L * 320 * 1024 / 8), within(0.01 * 1.7e8));
        assertThat(q.networkWaitPs()).isBetween(0L, q.idealE2ePs() / 1000);
    }

    /** Two hosts per role, TP 1, a gateway: the agentic request's every transfer is one flow. */
    private static final String AGENT = """
            name: agent
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            inference:
              - name: agent
                model: {layers: 4, hidden: 1024, heads: 8, kv-heads: 2, head-dim: 128}
                instances:
                  - {role: prefill, hosts: 0}
                  - {role: decode, hosts: 1}
                cost: {prefill-per-token: 1us, decode-step: 100us}
                scheduler: {max-batch: 1}
                gateway: 7
                arrivals: {process: poisson, rate: 1/s, count: 1}
                request:
                  ingress: 16KiB
                  steps:
                    - llm: {prompt-tokens: 1000, output-tokens: 4}
                    - tool: {latency: 200us, egress: 2KiB, ingress: 32KiB}
                    - llm: {new-tokens: 500, output-tokens: 3}
                  egress: 4KiB
            """;

    @Test
    void shouldWalkAnAgenticRequestThroughGatewayToolAndContextReuse() {
        Simulation s = Simulation.assemble(Scenarios.parse(AGENT), true);
        RunResult r = s.run(ProgressListener.NONE);
        IdealFlowTime f = closedForm(s);
        long kvPerToken = 2L * 4 * 2 * 128 * 2;
        // ingress gw->prefill, prefill 1000 tokens, KV 1000 tokens, 4 decode steps, tool egress decode->gw, 200 us,
        // tool ingress gw->prefill, prefill of the 500 new tokens only, their KV, 3 decode steps, egress decode->gw.
        long expected = f.deliveryPs(7, 0, 16 * 1024) + 1000 * 1_000_000L + f.deliveryPs(0, 1, 1000 * kvPerToken)
                + 4 * 100_000_000L + f.deliveryPs(1, 7, 2048) + 200_000_000L + f.deliveryPs(7, 0, 32 * 1024)
                + 500 * 1_000_000L + f.deliveryPs(0, 1, 500 * kvPerToken) + 3 * 100_000_000L
                + f.deliveryPs(1, 7, 4096);
        RequestRecord q = r.requests().get(0);
        assertThat(q.llmCalls()).isEqualTo(2);
        assertThat(q.prefillTokens()).isEqualTo(1500);
        assertThat(q.outputTokens()).isEqualTo(7);
        assertThat(q.e2ePs()).isEqualTo(expected);
        assertThat(q.ttftPs()).isEqualTo(f.deliveryPs(7, 0, 16 * 1024) + 1000 * 1_000_000L
                + f.deliveryPs(0, 1, 1000 * kvPerToken) + 100_000_000L);
        // TPOT: 3 + 2 decode steps after each call's first token.
        assertThat(q.tpotPs()).isEqualTo(100_000_000.0);
        List<CallRecord> calls = r.llmCalls();
        // Each call alone, from its prompt at the prefill host: prefill, KV cache, the first decode step.
        assertThat(calls.get(0).idealTtftPs()).isEqualTo(1000 * 1_000_000L + f.deliveryPs(0, 1, 1000 * kvPerToken)
                + 100_000_000L).isEqualTo(calls.get(0).ttftPs());
        assertThat(calls.get(1).idealTtftPs()).isEqualTo(500 * 1_000_000L + f.deliveryPs(0, 1, 500 * kvPerToken)
                + 100_000_000L).isEqualTo(calls.get(1).ttftPs());
        assertThat(calls.get(1).prefillTokens()).isEqualTo(500);
        assertThat(calls.get(1).kvBytes()).isEqualTo(500 * kvPerToken);
        assertThat(r.flows()).filteredOn(x -> x.src() == 7 || x.dst() == 7).hasSize(4);
    }

    @Test
    void shouldServeRequestsFirstComeFirstServedOnAnInstanceAndItsDecodeSlots() {
        // Three requests at once (a trace), one prefill instance, one decode slot: prefill back to back, decode too.
        String yaml = AGENT.replace("scheduler: {max-batch: 1}", "scheduler: {max-batch: 2}")
                .replace("arrivals: {process: poisson, rate: 1/s, count: 1}",
                        "arrivals: {process: poisson, rate: 1000000/s, count: 3}");
        RunResult r = Simulation.assemble(Scenarios.parse(yaml), true).run(ProgressListener.NONE);
        List<CallRecord> first = r.llmCalls().stream().filter(c -> c.call() == 0).toList();
        assertThat(first).hasSize(3);
        // Arrivals 1 us apart on average, a prefill of 1 ms: each waits for the one before it.
        assertThat(first.get(1).prefillStartPs()).isEqualTo(first.get(0).prefillEndPs());
        assertThat(first.get(2).prefillStartPs()).isEqualTo(first.get(1).prefillEndPs());
        // Two slots: the third request's decode waits for the first's, which is done first.
        assertThat(first.get(0).slot()).isEqualTo(0);
        assertThat(first.get(1).slot()).isEqualTo(1);
        assertThat(first.get(2).slot()).isEqualTo(0);
        assertThat(r.requests()).allSatisfy(q -> assertThat(q.completed()).isTrue());
    }

    @Test
    void shouldGiveTheSameResultsForTheSameSeedAndOtherArrivalsForAnother() {
        String yaml = AGENT.replace("count: 1", "count: 4");
        RunResult a = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        RunResult b = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        RunResult c = Simulation.assemble(Scenarios.parse(yaml).withSeed(7)).run(ProgressListener.NONE);
        assertThat(a.requests()).isEqualTo(b.requests());
        assertThat(a.llmCalls()).isEqualTo(b.llmCalls());
        assertThat(c.requests().get(0).arrivalPs()).isNotEqualTo(a.requests().get(0).arrivalPs());
    }

    /**
     * Agentic requests with TP 2 on servers without NVLink (the prefill instance on leaf 0, decode on leaf 1, the
     * gateway on leaf 1) beside a DP 8 training job whose ring crosses the one spine both ways: the KV cache and the
     * tool's answers wait behind the job's AllReduces, the prefill instance's work (on its own leaf) does not.
     */
    private static final String AGENT_BESIDE_TRAINING = """
            name: agent-beside-training
            seed: 3
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            inference:
              - name: agent
                model: {layers: 8, hidden: 1024, heads: 16, kv-heads: 4, head-dim: 128}
                instances:
                  - {role: prefill, tp: 2, hosts: 0-1}
                  - {role: decode, tp: 2, hosts: 8-9}
                cost: {prefill-per-token: 5us, decode-step: 500us}
                scheduler: {max-batch: 2}
                gateway: 15
                arrivals: {process: poisson, rate: 1000/s, count: 6}
                request:
                  ingress: 16KiB
                  steps:
                    - llm: {prompt-tokens: 1000, output-tokens: 4}
                    - tool: {latency: 300us, egress: 2KiB, ingress: 32KiB}
                    - llm: {new-tokens: 500, output-tokens: 3}
                  egress: 4KiB
            jobs:
              - {name: train, hosts: "2-7,10-11", parallelism: {dp: 8}, iterations: 4,
                 program: [{op: allreduce, group: dp, size-total: 64MB}]}
            """;

    @Test
    void shouldBoundEveryCallsTimeToFirstTokenByItsIdealOneWhenTrainingSharesTheFabric() {
        RunResult r = Scenarios.assemble(AGENT_BESIDE_TRAINING).run(ProgressListener.NONE);
        List<CallRecord> calls = r.llmCalls();
        assertThat(calls).hasSize(12).allSatisfy(c -> {
            assertThat(c.completed()).isTrue();
            assertThat(c.idealTtftPs()).as("request %d call %d", c.request(), c.call()).isPositive()
                    .isLessThanOrEqualTo(c.ttftPs());
        });
        // The calls that queued behind others: their prompts came late (the network), so they waited less for the
        // prefill instance than on the ideal network; the ideal TTFT is each call's own work, never that wait.
        assertThat(calls).filteredOn(c -> c.call() == 1).allSatisfy(c -> assertThat(c.queuePs()).isPositive());
        // Every first call does the same work alone, and every second call: one ideal TTFT for each.
        assertThat(calls).filteredOn(c -> c.call() == 0).extracting(CallRecord::idealTtftPs).containsOnly(
                calls.get(0).idealTtftPs());
        assertThat(calls).filteredOn(c -> c.call() == 1).extracting(CallRecord::idealTtftPs).containsOnly(
                calls.get(1).idealTtftPs());
    }

    @Test
    void shouldMakeRequestsWaitOnTheNetworkWhenTrainingTrafficSharesTheFabric() {
        String fabric = """
                name: mixed
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                inference:
                  - name: chat
                    model: {layers: 8, hidden: 512, heads: 16, kv-heads: 8, head-dim: 128}
                    instances:
                      - {role: prefill, tp: 2, hosts: 0-1}
                      - {role: decode, tp: 2, hosts: 2-3}
                    cost: {prefill-per-token: 1us, decode-step: 20us}
                    arrivals: {process: poisson, rate: 2000/s, count: 3}
                    request:
                      steps: [{llm: {prompt-tokens: 500, output-tokens: 4}}]
                """;
        RunResult quiet = Scenarios.assemble(fabric).run(ProgressListener.NONE);
        RunResult busy = Scenarios.assemble(fabric + """
                jobs:
                  - {name: train, hosts: 4-7, parallelism: {dp: 4}, iterations: 2,
                     program: [{op: allreduce, group: dp, size-total: 32MB}]}
                traffic:
                  - {kind: incast, senders: [4, 5, 6], receiver: 3, size: 8MB, start: 1ms}
                """).run(ProgressListener.NONE);
        assertThat(busy.jobs()).hasSize(1);
        long quietWait = quiet.requests().stream().mapToLong(RequestRecord::networkWaitPs).sum();
        long busyWait = busy.requests().stream().mapToLong(RequestRecord::networkWaitPs).sum();
        assertThat(busy.requests()).allSatisfy(q -> assertThat(q.completed()).isTrue());
        // Same schedule, same ideal latencies: only the network differs.
        assertThat(busy.requests().get(0).idealE2ePs()).isEqualTo(quiet.requests().get(0).idealE2ePs());
        assertThat(busyWait).isGreaterThan(5 * quietWait + 10_000_000L);
    }
}
