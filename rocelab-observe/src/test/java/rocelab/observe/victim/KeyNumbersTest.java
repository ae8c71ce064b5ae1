package rocelab.observe.victim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Keys numbered in the order first seen, each number giving its key back, across the table's growth. */
class KeyNumbersTest {
    @Test
    void shouldNumberKeysInTheOrderFirstSeen() {
        KeyNumbers k = new KeyNumbers();
        Map<Long, Integer> expected = new HashMap<>();
        Random random = new Random(3);
        long[] keys = new long[5_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextInt(3) == 0 && i > 0 ? keys[random.nextInt(i)] : random.nextLong() >>> 1;
        }
        for (long key : keys) {
            int n = k.numberOf(key);
            Integer before = expected.putIfAbsent(key, expected.size());
            assertThat(n).isEqualTo(before == null ? expected.size() - 1 : before);
            assertThat(k.numberOf(key)).as("asked twice in a row").isEqualTo(n);
            assertThat(k.key(n)).isEqualTo(key);
        }
        assertThat(k.size()).isEqualTo(expected.size());
        expected.forEach((key, n) -> assertThat(k.numberOf(key)).isEqualTo(n));
        assertThat(k.numberOf(-7L)).isEqualTo(expected.size()); // negative keys too
    }

    @Test
    void shouldRefuseTheKeyItMarksFreeSlotsWith() {
        KeyNumbers k = new KeyNumbers();
        assertThatThrownBy(() -> k.numberOf(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }
}
