package rocelab.observe.victim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Places numbered in the order first seen, each number giving its place back, across the tables' growth. */
class PlaceNumbersTest {
    @Test
    void shouldNumberPlacesInTheOrderFirstSeen() {
        PlaceNumbers p = new PlaceNumbers();
        Map<List<Integer>, Integer> expected = new HashMap<>();
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            int kind = random.nextInt(4);
            int node = random.nextInt(3_000) - 1; // -1: none
            int port = random.nextInt(10) == 0 ? random.nextInt(5_000) : random.nextInt(65) - 1;
            int n = p.numberOf(kind, node, port);
            Integer before = expected.putIfAbsent(List.of(kind, node, port), expected.size());
            assertThat(n).isEqualTo(before == null ? expected.size() - 1 : before);
            assertThat(new int[] {p.kind(n), p.node(n), p.port(n)}).containsExactly(kind, node, port);
        }
        assertThat(p.size()).isEqualTo(expected.size());
        expected.forEach((place, n) -> assertThat(p.numberOf(place.get(0), place.get(1), place.get(2))).isEqualTo(n));
    }

    @Test
    void shouldRefuseAPlaceBelowNone() {
        assertThatThrownBy(() -> new PlaceNumbers().numberOf(0, -2, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PlaceNumbers().numberOf(0, 0, -2)).isInstanceOf(IllegalArgumentException.class);
    }
}
