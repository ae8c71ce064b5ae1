package rocelab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The windows' barrier lets no thread into a generation before every thread has left the previous one, whether the
 * others spin or park meanwhile, and a thread that fails releases the others, parked or not.
 */
class WindowBarrierTest {
    @Test
    void noThreadPassesBeforeEveryThreadArrivesWhetherTheOthersSpinOrPark() throws InterruptedException {
        int parties = 3;
        int generations = 400;
        WindowBarrier barrier = new WindowBarrier(parties);
        AtomicLongArray done = new AtomicLongArray(parties);
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread[] threads = new Thread[parties];
        for (int p = 0; p < parties; p++) {
            int party = p;
            threads[p] = new Thread(() -> {
                for (int g = 0; g < generations; g++) {
                    // Now and then one party is late by far more than the spinning lasts: the others park.
                    if (g % 50 == party) {
                        sleepMillis(3);
                    }
                    done.set(party, g + 1);
                    barrier.await(party);
                    for (int q = 0; q < parties; q++) {
                        if (done.get(q) < g + 1) {
                            wrong.compareAndSet(null, "party " + party + " passed generation " + g + " before party "
                                    + q + " arrived");
                        }
                    }
                    // The second barrier of each window: nobody starts the next generation's work while another
                    // still checks this one's.
                    barrier.await(party);
                }
            });
            threads[p].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(wrong.get()).isNull();
        for (int p = 0; p < parties; p++) {
            assertThat(done.get(p)).isEqualTo(generations);
        }
    }

    @Test
    void aBrokenBarrierReleasesAThreadParkedAtIt() throws InterruptedException {
        WindowBarrier barrier = new WindowBarrier(2);
        AtomicInteger broken = new AtomicInteger();
        Thread waiting = new Thread(() -> {
            try {
                barrier.await(0);
            } catch (WindowBarrier.Broken e) {
                broken.incrementAndGet();
            }
        });
        waiting.start();
        // Long past the spinning: the thread is parked when the other party fails.
        sleepMillis(50);
        barrier.breakBarrier();
        waiting.join();
        assertThat(broken.get()).isEqualTo(1);
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
