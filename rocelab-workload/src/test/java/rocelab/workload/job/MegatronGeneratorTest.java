package rocelab.workload.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import rocelab.workload.collective.CollectiveOp;

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
        // 8 stages x 96 micro-batches x 12 layers x 2 (fwd, bwd) x 2 places x (AG + RS).
        assertThat(tp).hasSize(8 * 96 * 12 * 2 * 2 * 2);
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
}
