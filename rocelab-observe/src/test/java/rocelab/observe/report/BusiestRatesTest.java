package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The QPs drawn: those with most rate changes, ties to the one seen first, as a sort of all of them would pick. */
class BusiestRatesTest {
    @Test
    void shouldPickTheFirstNOfTheSortedOrder() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            int queuePairs = random.nextInt(60);
            int[] changes = new int[queuePairs];
            int[] firstSeen = new int[queuePairs];
            List<Integer> seenOrder = new ArrayList<>();
            for (int q = 0; q < queuePairs; q++) {
                changes[q] = random.nextInt(4) == 0 ? 0 : random.nextInt(5); // many ties
                seenOrder.add(q);
            }
            Collections.shuffle(seenOrder, random);
            for (int i = 0; i < queuePairs; i++) {
                firstSeen[seenOrder.get(i)] = i;
            }
            int n = random.nextInt(8);
            List<Integer> order = new ArrayList<>();
            for (int q = 0; q < queuePairs; q++) {
                if (changes[q] > 0) {
                    order.add(q);
                }
            }
            order.sort(Comparator.comparingInt((Integer q) -> -changes[q]).thenComparingInt(q -> firstSeen[q]));
            assertThat(BusiestRates.busiest(changes, firstSeen, n))
                    .containsExactly(order.subList(0, Math.min(n, order.size())).stream().mapToInt(q -> q).toArray());
        }
    }
}
