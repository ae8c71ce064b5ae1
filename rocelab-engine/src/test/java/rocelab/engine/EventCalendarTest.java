package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The timing-wheel calendar pops exactly what a plain heap in the canonical order (time, tie hash, handler, kind,
 * argument)
 * pops, whatever the pattern, and equal times never depend on the order of scheduling.
 */
class EventCalendarTest {
    @Test
    void shouldPopInTimeOrderFirst() {
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
        int first = EventCalendar.tieHash(100, 2) < EventCalendar.tieHash(100, 4) ? 2 : 4;
        int third = EventCalendar.tieHash(500, 1) < EventCalendar.tieHash(500, 3) ? 1 : 3;
        assertThat(order).containsExactly(first, 6 - first, third, 4 - third);
        assertThat(c.isEmpty()).isTrue();
    }

    @Test
    void shouldPopEqualTimesInTheSameOrderWhateverOrderTheyWereScheduledIn() {
        // (handler, kind, arg) triples at one picosecond, scheduled forwards and backwards, near and far.
        long[][] events = {{3, 1, 9}, {1, 2, 0}, {3, 1, 2}, {1, 1, 5}, {2, 7, -4}, {3, 0, 100}, {1, 1, 4}};
        for (long at : new long[] {700, 50_000_000}) {
            EventCalendar forwards = new EventCalendar(4);
            EventCalendar backwards = new EventCalendar(4);
            for (int i = 0; i < events.length; i++) {
                long[] e = events[i];
                long[] r = events[events.length - 1 - i];
                forwards.add(at, (int) e[0], (int) e[1], e[2]);
                backwards.add(at, (int) r[0], (int) r[1], r[2]);
            }
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            while (!forwards.isEmpty()) {
                a.append(forwards.firstHandlerId()).append('/').append(forwards.firstKind()).append('/')
                        .append(forwards.firstArg()).append(' ');
                b.append(backwards.firstHandlerId()).append('/').append(backwards.firstKind()).append('/')
                        .append(backwards.firstArg()).append(' ');
                forwards.removeFirst();
                backwards.removeFirst();
            }
            // Handlers in the order of their tie hash at this time; each one's events by kind, then argument.
            Integer[] handlers = {1, 2, 3};
            Arrays.sort(handlers, Comparator.comparingInt(h -> EventCalendar.tieHash(at, h)));
            String[] eventsOf = {"", "1/1/4 1/1/5 1/2/0 ", "2/7/-4 ", "3/0/100 3/1/2 3/1/9 "};
            assertThat(a.toString()).isEqualTo(b.toString())
                    .isEqualTo(eventsOf[handlers[0]] + eventsOf[handlers[1]] + eventsOf[handlers[2]]);
        }
    }

    @Test
    void shouldPopEndOfInstantEventsAfterEveryOrdinaryEventOfTheirTimeAndBeforeLaterOnes() {
        for (long at : new long[] {700, 50_000_000}) {
            for (int handler = 0; handler < 64; handler++) {
                // scheduled first, by a handler whatever its hash: still after the instant's ordinary events
                EventCalendar c = new EventCalendar(4);
                c.addAtEndOfInstant(at, handler, 2, 0);
                c.add(at + 1, 99, 0, 0);
                c.add(at, 7, 5, 1);
                c.add(at, handler, 1, 3);
                c.add(at, 1_000, 0, 0);
                StringBuilder order = new StringBuilder();
                while (!c.isEmpty()) {
                    order.append(c.firstTimePs() - at).append(':').append(c.firstHandlerId()).append('/')
                            .append(c.firstKind()).append(' ');
                    c.removeFirst();
                }
                assertThat(order.toString()).as("handler %d at %d", handler, at)
                        .endsWith("0:" + handler + "/2 1:99/0 ")
                        .contains("0:7/5 ", "0:" + handler + "/1 ", "0:1000/0 ");
            }
        }
    }

    @Test
    void shouldLetDifferentHandlersWinTiesAtDifferentTimes() {
        // Fairness: over many picoseconds each of two handlers goes first about half of the time.
        int firstWins = 0;
        for (long t = 0; t < 10_000; t++) {
            EventCalendar c = new EventCalendar(4);
            c.add(t * 1_000, 8, 1, 0);
            c.add(t * 1_000, 9, 1, 0);
            if (c.firstHandlerId() == 8) {
                firstWins++;
            }
        }
        assertThat(firstWins).isBetween(4_500, 5_500);
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
                wheel.add(t, id % 40, i % 7, t % 3);
                heap.add(t, id % 40, i % 7, t % 3);
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
                    // Within the fine wheel, about its end (8.4 us), within the coarse wheel (a DCQCN timer's
                    // 300 us), about the coarse wheel's end (17.2 ms), and beyond it (the heap).
                    long delta = switch (r.nextInt(9)) {
                        case 0 -> 0;
                        case 1 -> r.nextLong(1_000);
                        case 2 -> r.nextLong(100_000);
                        case 3 -> r.nextLong(20_000_000);
                        case 4 -> r.nextLong(5_000_000_000L);
                        case 5 -> r.nextLong(400_000_000);
                        case 6 -> 17_000_000_000L + r.nextLong(400_000_000);
                        case 7 -> r.nextLong(60_000_000_000L);
                        default -> r.nextLong(2_000_000);
                    };
                    if (action == 9 && !heap.isEmpty()) {
                        // Peek, then schedule earlier than what was peeked (but not before now).
                        wheel.firstTimePs();
                    }
                    // Few handlers, kinds and arguments: many exact ties, broken by the later fields.
                    wheel.add(now + delta, id % 40, step % 5, delta % 3);
                    heap.add(now + delta, id % 40, step % 5, delta % 3);
                    id++;
                }
                assertThat(wheel.size()).isEqualTo(heap.size());
            }
        }
    }

    @Test
    void shouldNameTheNextEventWhenItSharesTheCursorsBucket() {
        SplittableRandom r = new SplittableRandom(7);
        EventCalendar wheel = new EventCalendar(16);
        ReferenceHeapCalendar heap = new ReferenceHeapCalendar(16);
        long now = 0;
        int named = 0;
        for (int step = 0; step < 200_000; step++) {
            if (r.nextInt(2) == 0 && !heap.isEmpty()) {
                wheel.firstTimePs();
                now = heap.firstTimePs();
                wheel.removeFirst();
                heap.removeFirst();
                int n = wheel.following();
                if (n >= 0) {
                    // Nothing was added since: the node named is the one popped next.
                    named++;
                    assertThat(wheel.firstTimePs()).isEqualTo(heap.firstTimePs());
                    assertThat(wheel.handlerOf(n)).isEqualTo(heap.firstHandlerId());
                    assertThat(wheel.kindOf(n)).isEqualTo(heap.firstKind());
                    assertThat(wheel.argOf(n)).isEqualTo(heap.firstArg());
                }
            } else {
                // Dense: a few hundred picoseconds ahead, so buckets (128 ps) often hold several entries, and now
                // and then far ahead (the coarse wheel, the heap), whose entries join buckets later.
                long delta = r.nextInt(20) == 0 ? r.nextLong(30_000_000_000L) : r.nextLong(600);
                int handler = r.nextInt(50);
                wheel.add(now + delta, handler, step % 3, delta % 5);
                heap.add(now + delta, handler, step % 3, delta % 5);
            }
        }
        assertThat(named).isGreaterThan(10_000);
    }

    /**
     * A run's end drops what is pending, near, far and beyond the wheels; the calendar then works as a new one from
     * where its clock was, agreeing with the reference heap.
     */
    @Test
    void shouldWorkAsNewAfterDiscardingEverythingPending() {
        SplittableRandom r = new SplittableRandom(11);
        EventCalendar wheel = new EventCalendar(16);
        long now = 0;
        for (int i = 0; i < 100_000; i++) {
            wheel.add(now + r.nextLong(60_000_000_000L), i % 40, i % 5, i);
            if (i % 3 == 0) {
                now = wheel.firstTimePs();
                wheel.removeFirst();
            }
        }
        wheel.discardAll();
        assertThat(wheel.isEmpty()).isTrue();
        assertThat(wheel.size()).isZero();
        ReferenceHeapCalendar heap = new ReferenceHeapCalendar(16);
        for (int i = 0; i < 5_000; i++) {
            long t = now + r.nextLong(i % 2 == 0 ? 2_000_000 : 30_000_000_000L);
            wheel.add(t, i % 40, i % 5, i);
            heap.add(t, i % 40, i % 5, i);
        }
        while (!heap.isEmpty()) {
            assertThat(wheel.firstTimePs()).isEqualTo(heap.firstTimePs());
            assertThat(wheel.firstHandlerId()).isEqualTo(heap.firstHandlerId());
            assertThat(wheel.firstArg()).isEqualTo(heap.firstArg());
            wheel.removeFirst();
            heap.removeFirst();
        }
        assertThat(wheel.isEmpty()).isTrue();
    }
}
