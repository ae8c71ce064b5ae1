package rocelab.workload.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Rank numbering and derived groups, as Megatron lays them out. */
class LayoutTest {
    private static Layout layout(int tp, int pp, int dp) {
        return new Layout(Map.of(Dim.TP, tp, Dim.PP, pp, Dim.DP, dp), Layout.MEGATRON_ORDER,
                IntStream.range(0, tp * pp * dp).toArray());
    }

    @Test
    void shouldVaryTensorParallelFastestThenDataThenPipeline() {
        Layout l = layout(8, 8, 16);
        assertThat(l.size()).isEqualTo(1024);
        // GPT-3 on 1024 GPUs: rank = tp + 8 dp + 128 pp, so a TP group is one 8-GPU server.
        assertThat(l.coords(8 * 3 + 128 * 5 + 2)).containsEntry(Dim.TP, 2).containsEntry(Dim.DP, 3)
                .containsEntry(Dim.PP, 5);
        for (int r = 0; r < l.size(); r += 37) {
            assertThat(l.rank(l.coords(r))).isEqualTo(r);
        }
        assertThat(l.group(0, EnumSet.of(Dim.TP))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        // A DP group: the same TP rank and stage on every replica, so the same rail of 16 servers.
        assertThat(l.group(3, EnumSet.of(Dim.DP))).hasSize(16).startsWith(3, 11, 19).endsWith(123);
        assertThat(l.group(0, EnumSet.of(Dim.PP))).containsExactly(0, 128, 256, 384, 512, 640, 768, 896);
        assertThat(l.group(5, EnumSet.allOf(Dim.class))).hasSize(1024);
    }

    @Test
    void shouldFollowAnotherOrder() {
        Layout l = new Layout(Map.of(Dim.TP, 2, Dim.PP, 2, Dim.DP, 2),
                List.of(Dim.PP, Dim.TP, Dim.CP, Dim.EP, Dim.DP), new int[] {10, 11, 12, 13, 14, 15, 16, 17});
        assertThat(l.group(0, EnumSet.of(Dim.PP))).containsExactly(0, 1);
        assertThat(l.group(0, EnumSet.of(Dim.TP))).containsExactly(0, 2);
        assertThat(l.host(5)).isEqualTo(15);
        assertThat(l.variables(7)).containsEntry("pp", 1L).containsEntry("tp", 1L).containsEntry("dp", 1L)
                .containsEntry("PP", 2L);
    }

    @Test
    void shouldRejectAHostCountThatDoesNotMatchTheDegrees() {
        assertThatThrownBy(() -> new Layout(Map.of(Dim.TP, 4), Layout.MEGATRON_ORDER, new int[] {0, 1, 2}))
                .hasMessageContaining("the layout has 4 ranks but 3 hosts are placed");
    }

    /** Groups come from strides (issue 12: no scan of every rank per group); the definition is such a scan. */
    @Test
    void shouldMatchTheScanOfEveryRankWhenGroupsComeFromStrides() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            Map<Dim, Integer> degrees = new EnumMap<>(Dim.class);
            int size = 1;
            for (Dim d : Dim.values()) {
                int v = 1 + random.nextInt(3);
                degrees.put(d, v);
                size *= v;
            }
            List<Dim> order = new ArrayList<>(List.of(Dim.values()));
            Collections.shuffle(order, new Random(random.nextLong()));
            Layout l = new Layout(degrees, order, IntStream.range(0, size).toArray());
            EnumSet<Dim> dims = EnumSet.noneOf(Dim.class);
            for (Dim d : Dim.values()) {
                if (random.nextBoolean()) {
                    dims.add(d);
                }
            }
            int rank = random.nextInt(size);
            List<Integer> expected = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                boolean same = true;
                for (Dim d : Dim.values()) {
                    same &= dims.contains(d) || l.coord(r, d) == l.coord(rank, d);
                }
                if (same) {
                    expected.add(r);
                }
            }
            assertThat(l.group(rank, dims)).as(degrees + " " + order + " " + dims + " rank " + rank)
                    .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
    }
}
