package rocelab.workload.inference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.FlowSpec;

class InferenceEmitterTest {
    private static InferenceSpec llama70b(int allreducesPerPass, int outputTokens) {
        return llama70b(allreducesPerPass, outputTokens, 0);
    }

    private static InferenceSpec llama70b(int allreducesPerPass, int outputTokens, int topk) {
        ModelShape model = new ModelShape(80, 8192, 64, 8, 128, 2, topk);
        List<ServingInstance> instances = List.of(
                new ServingInstance("p", ServingInstance.Role.PREFILL, new int[] {0, 1, 2, 3, 4, 5, 6, 7}),
                new ServingInstance("d", ServingInstance.Role.DECODE, new int[] {8, 9, 10, 11, 12, 13, 14, 15}));
        RequestTemplate request = new RequestTemplate(0,
                List.of(new RequestTemplate.LlmCall(4096, false, outputTokens)), 0);
        return new InferenceSpec("s", model, instances, new CostModel(45_000_000L, 25_000_000_000L), 4,
                InferenceSpec.Placement.ROUND_ROBIN, allreducesPerPass, new Arrivals.Poisson(1, 0, 0, 1), request, -1,
                -1);
    }

    @Test
    void shouldPrefillAFourKPromptWith160AllReducesOf64MiBAsTheReferenceCounts() {
        TaskGraph g = new TaskGraph();
        InferenceTasks t = InferenceEmitter.emit(g, llama70b(160, 1), new SplittableRandom(1));
        // Ring AllReduce of S over 8 ranks: every rank sends 14 chunks of S/8 per call; one call per 1/160 of the pass.
        long prefillSent = g.flows().stream().filter(f -> f.dst() < 8).mapToLong(FlowSpec::sizeBytes).sum();
        assertThat(prefillSent).isEqualTo(160L * 8 * 14 * (64L << 20) / 8);
        // One decode step: 160 AllReduces of one token's activations (16 KiB at batch 1).
        long decodeSent = g.flows().stream().filter(f -> f.src() >= 8).mapToLong(FlowSpec::sizeBytes).sum();
        assertThat(decodeSent).isEqualTo(160L * 14 * (16 * 1024) / 8 * 8);
        // The KV cache: 8 rank-to-rank streams of 160 MiB.
        List<FlowSpec> kv = g.flows().stream().filter(f -> f.src() < 8 && f.dst() >= 8).toList();
        assertThat(kv).hasSize(8).allSatisfy(f -> {
            assertThat(f.dst()).isEqualTo(f.src() + 8);
            assertThat(f.sizeBytes()).isEqualTo(160L << 20);
        });
        assertThat(t.requests().get(0).calls().get(0).kvBytes()).isEqualTo(1_342_177_280L);
    }

    @Test
    void shouldMergeLayersIntoFewerAllReducesOfTheSameTotalSize() {
        TaskGraph exact = new TaskGraph();
        InferenceEmitter.emit(exact, llama70b(160, 3), new SplittableRandom(1));
        TaskGraph merged = new TaskGraph();
        InferenceEmitter.emit(merged, llama70b(1, 3), new SplittableRandom(1));
        long a = exact.flows().stream().mapToLong(FlowSpec::sizeBytes).sum();
        long b = merged.flows().stream().mapToLong(FlowSpec::sizeBytes).sum();
        assertThat(b).isEqualTo(a);
        assertThat(merged.flowCount()).isLessThan(exact.flowCount() / 100);
        // Compute is the same in total: prefill 4096 x 45 us and 3 decode steps of 25 ms on each of 16 ranks.
        assertThat(computePs(merged)).isEqualTo(computePs(exact))
                .isEqualTo(8 * 4096 * 45_000_000L + 8 * 3 * 25_000_000_000L);
    }

    @Test
    void shouldAddTheExpertAllToAllOfAMixtureOfExpertsModel() {
        TaskGraph dense = new TaskGraph();
        InferenceEmitter.emit(dense, llama70b(2, 1, 0), new SplittableRandom(1));
        TaskGraph moe = new TaskGraph();
        InferenceEmitter.emit(moe, llama70b(2, 1, 2), new SplittableRandom(1));
        // Per layer each rank dispatches tokens x hidden x 2 B x topk / tp and gets as much back in the combine; 1/tp
        // of it stays on the rank, the rest goes to the 7 others in equal parts.
        long perRankPrefill = 2L * 80 * 4096 * 8192 * 2 * 2 / 8;
        long perRankDecode = 2L * 80 * 8192 * 2 * 2 / 8;
        long extra = 8 * 7 * (perRankPrefill / 2 / 8) * 2 + 8 * 7 * (perRankDecode / 2 / 8) * 2;
        long a = dense.flows().stream().mapToLong(FlowSpec::sizeBytes).sum();
        long b = moe.flows().stream().mapToLong(FlowSpec::sizeBytes).sum();
        assertThat(b - a).isEqualTo(extra);
        // Two AlltoAlls per pass (one per part), 56 sends each, on the prefill and on the decode instance.
        assertThat(moe.flowCount() - dense.flowCount()).isEqualTo(4 * 56);
    }

    @Test
    void shouldReplicateKvHeadsWhenThereAreMoreRanksThanHeads() {
        // 2 KV heads on 4 ranks: each rank holds one head's cache and sends half of the total.
        ModelShape model = new ModelShape(2, 64, 4, 2, 16, 2);
        InferenceSpec spec = new InferenceSpec("s", model, List.of(
                new ServingInstance("p", ServingInstance.Role.PREFILL, new int[] {0, 1, 2, 3}),
                new ServingInstance("d", ServingInstance.Role.DECODE, new int[] {4, 5, 6, 7})),
                new CostModel(1, 1), 1, InferenceSpec.Placement.ROUND_ROBIN, 1, new Arrivals.Poisson(1, 0, 0, 1),
                new RequestTemplate(0, List.of(new RequestTemplate.LlmCall(10, false, 1)), 0), -1, -1);
        TaskGraph g = new TaskGraph();
        InferenceEmitter.emit(g, spec, new SplittableRandom(1));
        long total = 10 * model.kvBytesPerToken();
        assertThat(g.flows().stream().filter(f -> f.src() < 4 && f.dst() >= 4).toList()).hasSize(4)
                .allSatisfy(f -> assertThat(f.sizeBytes()).isEqualTo(total / 2));
    }

    private static List<InferenceTasks.Call> firstCalls(InferenceSpec.Placement placement) {
        ModelShape model = new ModelShape(2, 64, 4, 2, 16, 2);
        Arrivals trace = new Arrivals.Trace("t.csv", List.of(new Arrivals.Arrival(0, 1000, 10),
                new Arrivals.Arrival(1_000_000, 10, 10), new Arrivals.Arrival(2_000_000, 10, 10)));
        InferenceSpec spec = new InferenceSpec("s", model, List.of(
                new ServingInstance("p0", ServingInstance.Role.PREFILL, new int[] {0}),
                new ServingInstance("p1", ServingInstance.Role.PREFILL, new int[] {1}),
                new ServingInstance("d0", ServingInstance.Role.DECODE, new int[] {2}),
                new ServingInstance("d1", ServingInstance.Role.DECODE, new int[] {3})),
                new CostModel(1_000_000, 1_000_000), 4, placement, 1, trace,
                new RequestTemplate(0, List.of(new RequestTemplate.LlmCall(1, false, 1)), 0), -1, -1);
        return InferenceEmitter.emit(new TaskGraph(), spec, new SplittableRandom(1)).requests().stream()
                .map(r -> r.calls().get(0)).toList();
    }

    @Test
    void shouldPlaceCallsInTurnOrOnTheInstanceThatFreesUpFirst() {
        // A 1000-token prompt at 0, then two 10-token prompts: in turn, the third waits behind the long one.
        assertThat(firstCalls(InferenceSpec.Placement.ROUND_ROBIN)).extracting(InferenceTasks.Call::prefillInstance)
                .containsExactly(0, 1, 0);
        assertThat(firstCalls(InferenceSpec.Placement.ROUND_ROBIN)).extracting(InferenceTasks.Call::decodeInstance)
                .containsExactly(0, 1, 0);
        // Least loaded: p1 is free long before p0; d1 has nothing queued when the second request is due, and at the
        // third both have queued work and d1 has less (10 decode steps of the short request against 10 after 1000).
        assertThat(firstCalls(InferenceSpec.Placement.LEAST_LOADED)).extracting(InferenceTasks.Call::prefillInstance)
                .containsExactly(0, 1, 1);
        assertThat(firstCalls(InferenceSpec.Placement.LEAST_LOADED)).extracting(InferenceTasks.Call::decodeInstance)
                .containsExactly(0, 1, 1);
    }

    private static long computePs(TaskGraph g) {
        long sum = 0;
        for (int t = 0; t < g.taskCount(); t++) {
            if (g.kind(t) == TaskGraph.Kind.COMPUTE) {
                sum += g.durationPs(t);
            }
        }
        return sum;
    }
}
