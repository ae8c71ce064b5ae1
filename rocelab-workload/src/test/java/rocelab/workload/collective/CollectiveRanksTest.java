package rocelab.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A call's ranks must be distinct hosts, whatever their order and however large their ids. */
class CollectiveRanksTest {
    private static Collective ring(int... ranks) {
        return new Collective(CollectiveOp.ALL_REDUCE, Algorithm.RING, ranks, 4096);
    }

    @Test
    void shouldKeepTheRanksInTheOrderGiven() {
        assertThat(ring(4095, 3, 70_000, 0).ranks()).containsExactly(4095, 3, 70_000, 0);
    }

    @Test
    void shouldRejectARepeatedHostWhereverItIs() {
        assertThatThrownBy(() -> ring(5, 1, 9, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ranks must be distinct hosts, got [5, 1, 9, 1]");
        assertThatThrownBy(() -> ring(7, 7)).hasMessage("ranks must be distinct hosts, got [7, 7]");
    }

    @Test
    void shouldRejectANegativeHost() {
        assertThatThrownBy(() -> ring(2, -1, 3)).hasMessage("ranks must be distinct hosts, got [2, -1, 3]");
    }
}
