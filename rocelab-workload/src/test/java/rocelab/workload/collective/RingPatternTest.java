package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** NCCL's ring from the task graph: at step s rank r sends chunk (r - s) mod N to r + 1. */
class RingPatternTest {
    @Test
    void shouldForwardChunkRMinusSToTheNextRankAtStepS() {
        int n = 5;
        long s = 5003;
        Sends x = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.RING, n, s);
        assertThat(x.steps()).isEqualTo(2 * (n - 1));
        for (int step = 0; step < 2 * (n - 1); step++) {
            assertThat(x.atStep(step)).hasSize(n);
            for (Sends.Send f : x.atStep(step)) {
                assertThat(f.dst()).isEqualTo((f.src() + 1) % n);
                assertThat(f.bytes()).isEqualTo(Collective.part(s, n, Math.floorMod(f.src() - step, n)));
            }
        }
        // Every chunk crosses every ring link twice but the one it starts from: 2(N-1) x S in all.
        assertThat(x.sends.stream().mapToLong(Sends.Send::bytes).sum()).isEqualTo(2L * (n - 1) * s);
        Sends even = Sends.of(CollectiveOp.ALL_REDUCE, Algorithm.RING, n, 5000);
        for (int r = 0; r < n; r++) {
            assertThat(even.sentBy(r)).isEqualTo(2 * (n - 1) * 5000 / n);
        }
    }
}
