package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The loop calls handlers from one call site per handler class (the first seven classes of the JVM, the rest sharing
 * the last): every handler still gets exactly its own events, in the calendar's order, however many classes and
 * handlers there are (more than the sites, and more handlers than the first table holds).
 */
class SimulatorCallSitesTest {
    private record Seen(long nowPs, int handler, int kind, long arg) {}

    @Test
    void everyHandlerOfEveryClassGetsItsOwnEvents() {
        List<Seen> seen = new ArrayList<>();
        // Twelve handler classes (each lambda below is a class of its own), ten handlers of each.
        List<IntFunction<EventHandler>> classes = List.of(
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)),
                n -> (t, k, a) -> seen.add(new Seen(t, n, k, a)));
        Simulator sim = new Simulator();
        int handlers = 120;
        int[] ids = new int[handlers];
        for (int n = 0; n < handlers; n++) {
            ids[n] = sim.register(classes.get(n % classes.size()).apply(n));
        }
        List<Seen> expected = new ArrayList<>();
        for (int n = handlers - 1; n >= 0; n--) {
            // Later handlers earlier in time, two events each, so the order is the calendar's, not registration's.
            long at = 1_000L * (handlers - n);
            sim.schedule(at, ids[n], n % 5, 100L + n);
            sim.schedule(at + 1, ids[n], 7, -n);
            expected.add(new Seen(at, n, n % 5, 100L + n));
            expected.add(new Seen(at + 1, n, 7, -n));
        }
        sim.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(seen).containsExactlyElementsOf(expected);
    }
}
