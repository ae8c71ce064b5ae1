package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The loop tells a {@link Prefetching} handler of its event one event early, with that event's kind and argument,
 * and never changes what runs: handlers that read ahead and handlers that do not see the same events in the same order.
 */
class SimulatorPrefetchTest {
    /** Records its events. */
    private static class Recorder implements EventHandler {
        final List<String> log;
        final int name;

        Recorder(List<String> log, int name) {
            this.log = log;
            this.name = name;
        }

        @Override
        public void onEvent(long nowPs, int kind, long arg) {
            log.add(nowPs + " " + name + " " + kind + " " + arg);
        }
    }

    /** Notes what it is told: of the event after the one about to run, which will be log entry size() + 1. */
    private static final class AheadRecorder extends Recorder implements Prefetching {
        final List<String> told;

        AheadRecorder(List<String> log, List<String> told, int name) {
            super(log, name);
            this.told = told;
        }

        @Override
        public void prefetch(int kind, long arg) {
            told.add((log.size() + 1) + " " + name + " " + kind + " " + arg);
        }
    }

    private static List<String> run(boolean ahead, List<String> told) {
        List<String> log = new ArrayList<>();
        Simulator sim = new Simulator();
        List<Recorder> handlers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Recorder h = ahead && i % 2 == 0 ? new AheadRecorder(log, told, i) : new Recorder(log, i);
            assertThat(sim.register(h)).isEqualTo(i);
            handlers.add(h);
        }
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            // Dense in time (many share a 128 ps bucket), few kinds and arguments.
            sim.schedule(r.nextLong(2_000_000), r.nextInt(20), r.nextInt(4), r.nextLong(3));
        }
        sim.runUntil(Long.MAX_VALUE);
        return log;
    }

    @Test
    void shouldTellTheNextEventAheadAndRunTheSameEvents() {
        List<String> told = new ArrayList<>();
        List<String> withAhead = run(true, told);
        List<String> without = run(false, new ArrayList<>());
        assertThat(withAhead).hasSize(50_000).isEqualTo(without);
        // Half the handlers read ahead, and most events share their bucket with the next: many were told.
        assertThat(told).hasSizeGreaterThan(10_000);
        for (String t : told) {
            int at = Integer.parseInt(t.substring(0, t.indexOf(' ')));
            // Log entries are "time handler kind arg"; what was told is "index handler kind arg".
            String event = withAhead.get(at);
            assertThat(event.substring(event.indexOf(' '))).as(t).isEqualTo(t.substring(t.indexOf(' ')));
        }
    }
}
