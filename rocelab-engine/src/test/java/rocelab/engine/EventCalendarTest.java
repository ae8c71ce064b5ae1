package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The timing-wheel calendar pops exactly what a plain (time, sequence) heap pops, whatever the pattern. */
class EventCalendarTest {
    @Test
    void shouldPopInTimeThenInsertionOrderWhenTimesTie() {
        EventCalendar c = new EventCalendar(4);
        c.add(500, 1, 0, 0);
        c.add(100, 2, 0, 0);
        c.add(500, 3, 0, 0);
        c.add(100, 4, 0, 0);
        int[] order = new int[4];
        for (int i = 0; i < 4; i++) {
            order[i] = c.firstHandlerId();
            c.removeFirst();
        }
        assertThat(order).containsExactly(2, 4, 1, 3);
        assertThat(c.isEmpty()).isTrue();
    }

    @Test
    void shouldAgreeWithReferenceHeapWhenEventsMixNearFarAndEarlierThanPeeked() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            EventCalendar wheel = new EventCalendar(16);
            ReferenceHeapCalendar heap = new ReferenceHeapCalendar(16);
            long now = 0;
            int id = 0;
            for (int i = 0; i < 300; i++) {
                long t = r.nextLong(1_000_000_000L);
                wheel.add(t, id, i % 7, t);
                heap.add(t, id, i % 7, t);
                id++;
            }
            for (int step = 0; step < 200_000; step++) {
                int action = r.nextInt(10);
                if (action < 5 && !heap.isEmpty()) {
                    assertThat(wheel.firstTimePs()).isEqualTo(heap.firstTimePs());
                    assertThat(wheel.firstHandlerId()).isEqualTo(heap.firstHandlerId());
                    assertThat(wheel.firstKind()).isEqualTo(heap.firstKind());
                    assertThat(wheel.firstArg()).isEqualTo(heap.firstArg());
                    now = heap.firstTimePs();
                    wheel.removeFirst();
                    heap.removeFirst();
                } else {
                    long delta = switch (r.nextInt(6)) {
                        case 0 -> 0;
                        case 1 -> r.nextLong(1_000);
                        case 2 -> r.nextLong(100_000);
                        case 3 -> r.nextLong(20_000_000);
                        case 4 -> r.nextLong(5_000_000_000L);
                        default -> r.nextLong(2_000_000);
                    };
                    if (action == 9 && !heap.isEmpty()) {
                        // Peek, then schedule earlier than what was peeked (but not before now).
                        wheel.firstTimePs();
                    }
                    wheel.add(now + delta, id, step % 5, delta);
                    heap.add(now + delta, id, step % 5, delta);
                    id++;
                }
                assertThat(wheel.size()).isEqualTo(heap.size());
            }
        }
    }
}
