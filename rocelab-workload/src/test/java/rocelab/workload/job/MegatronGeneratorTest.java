package rocelab.workload.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.graph.TaskGraph;

/** The generator's message sizes and schedule against the worked GPT-3 175B example of the reference. */
class MegatronGeneratorTest {
    /** GPT-3 175B: L 96, h 12288, s 2048, V 51200, bf16; TP 8, PP 8, DP 16; GBS 1536, b 1; SP and dist. optimizer. */
    private static final MegatronModel GPT3 = new MegatronModel(96, 12288, 4 * 12288, 2048, 51200, 2, 1, 1536, true,
            true, 0, 1_200_000_000L, 2_400_000_000L, 20_000_000_000L, 0);

    private static Layout layout(int tp, int pp, int dp) {
        return new Layout(Map.of(Dim.TP, tp, Dim.PP, pp, Dim.DP, dp), Layout.MEGATRON_ORDER,
                IntStream.range(0, tp * pp * dp).toArray());
    }

    private static boolean onStage(Step s, int stage) {
        return s.meta().when().test(Map.of("pp", (long) stage));
    }

    @Test
    void shouldReproduceTheMessageSizesOfTheGpt3Example() {
        Layout l = layout(8, 8, 16);
        assertThat(MegatronGenerator.microBatches(GPT3, l)).isEqualTo(96);
        List<Step> program = MegatronGenerator.expand(GPT3, l);
        // TP: AllGather + ReduceScatter of b s h d = 48 MiB (sequence parallel), twice per layer each way.
        List<Step.Collective> tp = program.stream().filter(s -> s instanceof Step.Collective c
                && c.dims().equals(EnumSet.of(Dim.TP))).map(s -> (Step.Collective) s).toList();
        assertThat(tp).allSatisfy(c -> assertThat(c.sizeBytes()).isEqualTo(50_331_648L));
        // 8 stages x 96 micro-batches x 12 layers x 2 (fwd, bwd) x 2 places x (AG + RS), and per micro-batch the
        // embedding's RS and AG (first stage) and the output layer's AG and RS (last stage).
        assertThat(tp).hasSize(8 * 96 * 12 * 2 * 2 * 2 + 2 * 96 * 2);
        // PP: 48 MiB / t = 6 MiB per send with sequence parallelism; 96 forward and 96 backward per boundary.
        List<Step.Transfer> sends = program.stream().filter(s -> s instanceof Step.Transfer t && t.send())
                .map(s -> (Step.Transfer) s).toList();
        assertThat(sends).allSatisfy(t -> assertThat(t.sizeBytes()).isEqualTo(6_291_456L));
        assertThat(sends).hasSize(7 * 96 * 2);
        // DP on a middle stage: fp32 gradients of 12 layers / 8 = 2.718e9 parameters reduce-scattered (10.87 GB) in
        // buckets of 40 M parameters (about 68 of them), then bf16 parameters all-gathered (5.44 GB).
        List<Step.Collective> rs = program.stream().filter(s -> s instanceof Step.Collective c
                && c.op() == CollectiveOp.REDUCE_SCATTER && c.dims().contains(Dim.DP) && onStage(s, 3))
                .map(s -> (Step.Collective) s).toList();
        long rsBytes = rs.stream().mapToLong(Step.Collective::sizeBytes).sum();
        assertThat(rsBytes).isEqualTo(12L * 12 * 12288L * 12288 / 8 * 4);
        assertThat(rsBytes / 1e9).isBetween(10.86, 10.88);
        assertThat(rs).hasSize(68);
        assertThat(rs.subList(0, 67)).allSatisfy(c -> assertThat(c.sizeBytes()).isEqualTo(160_000_000L));
        long ag = program.stream().filter(s -> s instanceof Step.Collective c && c.op() == CollectiveOp.ALL_GATHER
                && c.dims().contains(Dim.DP) && onStage(s, 3)).mapToLong(s -> ((Step.Collective) s).sizeBytes()).sum();
        assertThat(ag / 1e9).isBetween(5.43, 5.45);
    }

    @Test
    void shouldScheduleOneForwardOneBackwardAfterTheWarmUp() {
        MegatronModel small = new MegatronModel(4, 1024, 4096, 128, 0, 2, 1, 8, false, false, 0, 1000, 2000, 0, 0);
        List<Step> program = MegatronGenerator.expand(small, layout(1, 4, 2));
        // Stage 1 of 4 warms up with 2 forwards, then alternates, then drains the backwards.
        List<String> order = program.stream()
                .filter(s -> s instanceof Step.Compute && onStage(s, 1) && s.meta().id().endsWith("-l0-attn"))
                .map(s -> s.meta().id().substring(0, 3) + s.meta().id().split("-mb")[1].split("-")[0]).toList();
        assertThat(order).containsExactly("fwd0", "fwd1", "fwd2", "bwd0", "fwd3", "bwd1", "bwd2", "bwd3");
        // No TP collectives with TP = 1; a DDP AllReduce of bf16 gradients over DP.
        assertThat(program).noneMatch(s -> s instanceof Step.Collective c && c.dims().equals(
                EnumSet.of(Dim.TP)));
        assertThat(program).anyMatch(s -> s instanceof Step.Collective c && c.op() == CollectiveOp.ALL_REDUCE);
    }

    @Test
    void shouldRejectABatchThatDoesNotSplit() {
        MegatronModel odd = new MegatronModel(4, 1024, 4096, 128, 0, 2, 1, 9, false, false, 0, 1000, 2000, 0, 0);
        assertThatThrownBy(() -> MegatronGenerator.expand(odd, layout(1, 4, 2)))
                .hasMessageContaining("global batch 9 is not a multiple of micro batch x dp x ep = 2");
    }

    @Test
    void shouldDispatchTokensToHotExpertsAsAnAlltoAllv() {
        MegatronModel moe = new MegatronModel(2, 1024, 4096, 128, 0, 2, 1, 8, false, false, 0, 1000, 2000, 0, 2,
                new Step.Skew(1.2, 5));
        Layout l = new Layout(Map.of(Dim.EP, 4, Dim.DP, 2), Layout.MEGATRON_ORDER, IntStream.range(0, 8).toArray());
        List<Step.Collective> experts = MegatronGenerator.expand(moe, l).stream()
                .filter(s -> s instanceof Step.Collective c && c.dims().equals(EnumSet.of(Dim.EP)))
                .map(s -> (Step.Collective) s).toList();
        // Per layer and micro-batch: dispatch and combine, forward and backward; b s topk h d / tp bytes each.
        assertThat(experts).hasSize(2 * 1 * 2 * 2).allSatisfy(c -> {
            assertThat(c.op()).isEqualTo(CollectiveOp.ALL_TO_ALLV);
            assertThat(c.skew()).isEqualTo(new Step.Skew(1.2, 5));
            assertThat(c.sizeBytes()).isEqualTo(128L * 2 * 1024 * 2);
        });
    }

    private static List<Step.Collective> collectives(List<Step> program, CollectiveOp op, Set<Dim> group, int stage) {
        return program.stream().filter(s -> s instanceof Step.Collective c && c.op() == op && c.dims().equals(group)
                && (c.meta().when() == null || onStage(s, stage))).map(s -> (Step.Collective) s).toList();
    }

    private static long bytes(List<Step.Collective> calls) {
        return calls.stream().mapToLong(Step.Collective::sizeBytes).sum();
    }

    /** The audit's meg2: L 16, h 2048, ffn 8192, s 1024, no vocabulary; TP 2, EP 2, DP 2, top-2; DDP in bf16. */
    private static MegatronModel moe(int experts) {
        return new MegatronModel(16, 2048, 8192, 1024, 0, 2, 1, 4, false, false, 0, 100_000_000L, 200_000_000L, 0,
                2, null, experts, true);
    }

    @Test
    void shouldReduceExpertGradientsOverTheReplicasHoldingTheSameExpertsWhenTheMlpIsAMixture() {
        Layout l = new Layout(Map.of(Dim.TP, 2, Dim.EP, 2, Dim.DP, 2), Layout.MEGATRON_ORDER,
                IntStream.range(0, 8).toArray());
        List<Step> program = MegatronGenerator.expand(moe(8), l);
        // Experts: 16 layers x 8/2 experts per rank x 2 h ffn / tp parameters, in bf16, over dp only.
        List<Step.Collective> experts = collectives(program, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.DP), 0);
        assertThat(bytes(experts)).isEqualTo(16L * 4 * (2L * 2048 * 8192 / 2) * 2);
        // Dense: 16 layers x (attention 4h^2 / tp + router h x 8 experts), over every replica (dp and ep).
        List<Step.Collective> dense = collectives(program, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.DP, Dim.EP), 0);
        assertThat(bytes(dense)).isEqualTo(16L * (4L * 2048 * 2048 / 2 + 2048 * 8) * 2);
        // Both in buckets of Megatron's max(40M, 1M x 4) parameters: 80 MB in bf16, the last of each smaller.
        assertThat(experts).hasSize(27);
        assertThat(dense).hasSize(4);
        assertThat(experts.subList(0, 26)).allSatisfy(c -> assertThat(c.sizeBytes()).isEqualTo(80_000_000L));
        // One expert per EP rank by default: the expert bytes of a dense MLP, now over dp alone.
        List<Step> one = MegatronGenerator.expand(moe(0), l);
        assertThat(bytes(collectives(one, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.DP), 0)))
                .isEqualTo(16L * (2L * 2048 * 8192 / 2) * 2);
        assertThatThrownBy(() -> MegatronGenerator.expand(moe(3), l))
                .hasMessageContaining("3 experts do not split evenly over ep = 2");
    }

    /** L 6 on 3 stages, h 1024, V 12288 (so the output layer costs one layer's compute), TP 2, DP 2; DDP in bf16. */
    private static MegatronModel vocab(boolean tied) {
        return new MegatronModel(6, 1024, 4096, 128, 12288, 2, 1, 4, false, false, 0, 1_000_000L, 2_000_000L, 0, 0,
                null, 0, tied);
    }

    @Test
    void shouldGiveTheLastStageTheOutputLayerAndAllReduceTheTiedEmbeddingBetweenTheEnds() {
        Layout l = new Layout(Map.of(Dim.TP, 2, Dim.PP, 3, Dim.DP, 2), Layout.MEGATRON_ORDER,
                IntStream.range(0, 12).toArray());
        List<Step> program = MegatronGenerator.expand(vocab(true), l);
        long layers = 2L * (4 * 1024 * 1024 + 2 * 1024 * 4096) / 2;
        long vocabParams = 12288L * 1024 / 2;
        // DP gradients in bf16: the first stage has the embedding, the last the output layer, the middle neither.
        for (int s = 0; s < 3; s++) {
            long expected = (layers + (s == 1 ? 0 : vocabParams)) * 2;
            assertThat(bytes(collectives(program, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.DP, Dim.EP), s)))
                    .isEqualTo(expected);
        }
        // The logits: forward and backward of the output layer, V h = 12 h^2 FLOPs per token, as a layer's.
        assertThat(program).filteredOn(s -> s.meta().id().equals("fwd-s2-mb0-out"))
                .containsExactly(new Step.Compute(program.stream().filter(s -> s.meta().id().equals("fwd-s2-mb0-out"))
                        .findFirst().orElseThrow().meta(), 1_000_000L));
        assertThat(program).filteredOn(s -> s.meta().id().startsWith("bwd-s2-mb") && s.meta().id().endsWith("-out"))
                .hasSize(2).allSatisfy(s -> assertThat(((Step.Compute) s).durationPs()).isEqualTo(2_000_000L));
        // The tied embedding: one AllReduce of V h / tp bf16 gradients between the first and last stage only.
        List<Step.Collective> emb = collectives(program, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.PP), 0);
        assertThat(emb).hasSize(1).allSatisfy(c -> assertThat(c.sizeBytes()).isEqualTo(vocabParams * 2));
        JobTasks tasks = JobEmitter.emit(new TaskGraph(), new JobSpec("j", l, program, 1, 0, 0, -1));
        List<JobTasks.Call> calls = tasks.calls().stream().filter(c -> c.name().startsWith("j/emb-ar/")).toList();
        assertThat(calls).hasSize(4).allSatisfy(c -> assertThat(c.call().ranks()).hasSize(2));
        assertThat(calls.get(0).call().ranks()).containsExactly(0, 8);
        // Untied, the last stage keeps its output layer but nothing is all-reduced between the stages.
        List<Step> untied = MegatronGenerator.expand(vocab(false), l);
        assertThat(collectives(untied, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.PP), 0)).isEmpty();
        assertThat(bytes(collectives(untied, CollectiveOp.ALL_REDUCE, EnumSet.of(Dim.DP, Dim.EP), 2)))
                .isEqualTo((layers + vocabParams) * 2);
    }

    @Test
    void shouldGatherBeforeAndScatterAfterEachOfAttentionAndMlpWithSequenceParallelism() {
        MegatronModel sp = new MegatronModel(2, 1024, 4096, 128, 0, 2, 1, 2, true, false, 0, 1000, 2000, 0, 0);
        List<Step> program = MegatronGenerator.expand(sp, layout(2, 1, 2));
        List<String> forward = program.stream().filter(s -> s.meta().id().startsWith("fwd-s0-mb0-l0-"))
                .map(MegatronGeneratorTest::kind).toList();
        assertThat(forward).containsExactly("allgather", "compute", "reduce-scatter", "allgather", "compute",
                "reduce-scatter");
        // Backward mirrors it: the MLP first, each again AllGather, compute, ReduceScatter.
        List<String> backward = program.stream().filter(s -> s.meta().id().startsWith("bwd-s0-mb0-l0-"))
                .map(s -> kind(s) + ":" + s.meta().id().replace("bwd-s0-mb0-l0-", "")).toList();
        assertThat(backward).containsExactly("allgather:mlp-ag", "compute:mlp", "reduce-scatter:mlp-rs",
                "allgather:attn-ag", "compute:attn", "reduce-scatter:attn-rs");
        assertThat(program).filteredOn(s -> s instanceof Step.Collective c && c.dims().equals(EnumSet.of(Dim.TP)))
                .allSatisfy(s -> assertThat(((Step.Collective) s).sizeBytes()).isEqualTo(128L * 1024 * 2));
    }

    private static String kind(Step s) {
        return s instanceof Step.Collective c ? c.op().key() : "compute";
    }
}
