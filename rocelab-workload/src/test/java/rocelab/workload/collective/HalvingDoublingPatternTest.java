package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Halving-doubling against the reference's per-step pattern (ASTRA-sim's order: distance 1, 2, 4, ...). */
class HalvingDoublingPatternTest {
    private static final long S = 8192;

    @Test
    void shouldHalveToTheNearestPartnerFirstThenDoubleBackForAllReduceOnEightRanks() {
        Sends s = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.HALVING_DOUBLING, 8, S);
        assertThat(s.steps()).isEqualTo(6).isEqualTo(HalvingDoublingAlgorithm.steps(CollectiveOp.ALL_REDUCE, 8));
        int[] distance = {1, 2, 4, 4, 2, 1};
        long[] bytes = {S / 2, S / 4, S / 8, S / 8, S / 4, S / 2};
        for (int k = 0; k < 6; k++) {
            List<Sends.Send> step = s.atStep(k);
            assertThat(step).as("step %d", k).hasSize(8);
            for (Sends.Send x : step) {
                assertThat(x.dst()).as("step %d from %d", k, x.src()).isEqualTo(x.src() ^ distance[k]);
                assertThat(x.bytes()).as("step %d", k).isEqualTo(bytes[k]);
            }
        }
        for (int r = 0; r < 8; r++) {
            // 2(N-1)/N of the buffer out and in, exactly as the ring.
            assertThat(s.sentBy(r)).isEqualTo(2 * 7 * S / 8);
            assertThat(s.receivedBy(r)).isEqualTo(2 * 7 * S / 8);
        }
    }

    @Test
    void shouldFoldTheExtraRanksFirstAndUnfoldLastOnSixRanks() {
        Sends s = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.HALVING_DOUBLING, 6, S);
        assertThat(s.steps()).isEqualTo(2 * 2 + 2).isEqualTo(HalvingDoublingAlgorithm.steps(CollectiveOp.ALL_REDUCE, 6));
        // Ranks 0 and 2 fold into 1 and 3; participants 1, 3, 4, 5 halve (S/2 then S/4) and double (S/4 then
        // S/2) with partners v XOR 1, v XOR 2 among themselves; 1 and 3 unfold. Each rank's sends, in order:
        assertThat(sequence(s, 0)).containsExactly("1:8192");
        assertThat(sequence(s, 1)).containsExactly("3:4096", "4:2048", "4:2048", "3:4096", "0:8192");
        assertThat(sequence(s, 2)).containsExactly("3:8192");
        assertThat(sequence(s, 3)).containsExactly("1:4096", "5:2048", "5:2048", "1:4096", "2:8192");
        assertThat(sequence(s, 4)).containsExactly("5:4096", "1:2048", "1:2048", "5:4096");
        assertThat(sequence(s, 5)).containsExactly("4:4096", "3:2048", "3:2048", "4:4096");
        assertThat(pairs(s, 0)).contains("0>1:8192", "2>3:8192");
        assertThat(pairs(s, 5)).containsExactlyInAnyOrder("1>0:8192", "3>2:8192");
    }

    @Test
    void shouldRecursivelyDoubleAllGatherAndHalveReduceScatter() {
        Sends ag = Sends.of(CollectiveOp.ALL_GATHER, Algorithm.HALVING_DOUBLING, 8, S);
        Sends rs = Sends.of(CollectiveOp.REDUCE_SCATTER, Algorithm.HALVING_DOUBLING, 8, S);
        assertThat(ag.steps()).isEqualTo(3);
        assertThat(rs.steps()).isEqualTo(3);
        for (int k = 0; k < 3; k++) {
            for (Sends.Send x : ag.atStep(k)) {
                assertThat(x.dst()).isEqualTo(x.src() ^ (4 >> k));
                assertThat(x.bytes()).isEqualTo((S / 8) << k);
            }
            for (Sends.Send x : rs.atStep(k)) {
                assertThat(x.dst()).isEqualTo(x.src() ^ (1 << k));
                assertThat(x.bytes()).isEqualTo(S / 2 >> k);
            }
        }
        for (int r = 0; r < 8; r++) {
            assertThat(ag.sentBy(r)).isEqualTo(7 * S / 8);
            assertThat(rs.sentBy(r)).isEqualTo(7 * S / 8);
        }
    }

    @Test
    void shouldExchangeTheWholeBufferWithRXor2kForRecursiveDoubling() {
        Sends s = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.RECURSIVE_DOUBLING, 8, S);
        assertThat(s.steps()).isEqualTo(3);
        for (int k = 0; k < 3; k++) {
            assertThat(s.atStep(k)).hasSize(8);
            for (Sends.Send x : s.atStep(k)) {
                assertThat(x.dst()).isEqualTo(x.src() ^ (1 << k));
                assertThat(x.bytes()).isEqualTo(S);
            }
        }
        for (int r = 0; r < 8; r++) {
            assertThat(s.sentBy(r)).isEqualTo(3 * S);
        }
        // Six ranks: 0 and 2 fold into 1 and 3, which exchange with 4 and 5, then unfold.
        Sends six = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.RECURSIVE_DOUBLING, 6, S);
        assertThat(sequence(six, 0)).containsExactly("1:8192");
        assertThat(sequence(six, 1)).containsExactly("3:8192", "4:8192", "0:8192");
        assertThat(sequence(six, 4)).containsExactly("5:8192", "1:8192");
        assertThat(sequence(six, 2)).containsExactly("3:8192");
    }

    @Test
    void shouldRejectAllGatherOnANumberOfRanksThatIsNotAPowerOfTwo() {
        Collective call = new Collective(CollectiveOp.ALL_GATHER, Algorithm.HALVING_DOUBLING, Sends.range(6), 6000);
        assertThatThrownBy(() -> Collectives.check(call)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power-of-two");
    }

    @Test
    void shouldSendEachStepOnlyAfterEveryEarlierStepsDataArrived() {
        Sends s = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.HALVING_DOUBLING, 8, S);
        for (int k = 1; k < 6; k++) {
            for (Sends.Send x : s.atStep(k)) {
                for (int j = 0; j < k; j++) {
                    Sends.Send before = s.atStep(j).stream().filter(y -> y.dst() == x.src()).findFirst().orElseThrow();
                    assertThat(s.waitsFor(x.task(), before.task())).isTrue();
                }
            }
        }
        // Six ranks: rank 1's result (sent back to rank 0) holds what rank 0 folded into it, whatever came later.
        Sends six = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.RECURSIVE_DOUBLING, 6, S);
        Sends.Send fold = six.sends.stream().filter(y -> y.src() == 0).findFirst().orElseThrow();
        Sends.Send unfold = six.sends.stream().filter(y -> y.src() == 1 && y.dst() == 0).findFirst().orElseThrow();
        assertThat(six.waitsFor(unfold.task(), fold.task())).isTrue();
    }

    private static List<String> sequence(Sends s, int src) {
        return s.sends.stream().filter(x -> x.src() == src).map(x -> x.dst() + ":" + x.bytes()).toList();
    }

    private static List<String> pairs(Sends s, int step) {
        return s.atStep(step).stream().map(x -> x.src() + ">" + x.dst() + ":" + x.bytes()).toList();
    }
}
