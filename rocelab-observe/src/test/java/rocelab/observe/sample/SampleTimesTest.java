package rocelab.observe.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Each row's time is its sample's, also when two readers walk the rows at once (queues.csv and the report do). */
class SampleTimesTest {
    @Test
    void shouldGiveEachRowItsSamplesTime() {
        SampleTimes t = new SampleTimes();
        t.startSample(10, 0);
        t.startSample(20, 3);
        t.startSample(25, 3); // the sample at 20 added no row: its time is replaced
        t.startSample(30, 7);
        assertThat(new long[] {t.timeOfRow(0), t.timeOfRow(2), t.timeOfRow(3), t.timeOfRow(6), t.timeOfRow(7),
            t.timeOfRow(100), t.timeOfRow(1)}).containsExactly(10, 10, 25, 25, 30, 30, 10);
    }

    /**
     * Two threads read every row's time, one forwards and one backwards, so each moves the shared hint away from the
     * other's sample at every row: a time read back from the hint after setting it (as it was) came out as the other
     * reader's sample's, now and then (a row of queues.csv at another sample's time). Only while timeOfRow is
     * interpreted, which this module's tests keep it (its pom): compiled, the value stays in a register.
     */
    @Test
    void shouldGiveEachRowItsSamplesTimeToReadersOnSeveralThreads() throws InterruptedException {
        SampleTimes t = new SampleTimes();
        int samples = 4096;
        for (int s = 0; s < samples; s++) {
            t.startSample(1_000L * s, 2 * s); // two rows a sample
        }
        AtomicLong wrong = new AtomicLong();
        Runnable forwards = () -> {
            for (int pass = 0; pass < 100; pass++) {
                for (int r = 0; r < 2 * samples; r++) {
                    if (t.timeOfRow(r) != 1_000L * (r / 2)) {
                        wrong.incrementAndGet();
                    }
                }
            }
        };
        Runnable backwards = () -> {
            for (int pass = 0; pass < 100; pass++) {
                for (int r = 2 * samples - 1; r >= 0; r--) {
                    if (t.timeOfRow(r) != 1_000L * (r / 2)) {
                        wrong.incrementAndGet();
                    }
                }
            }
        };
        Thread a = new Thread(forwards);
        Thread b = new Thread(backwards);
        a.start();
        b.start();
        a.join();
        b.join();
        assertThat(wrong.get()).isZero();
    }
}
