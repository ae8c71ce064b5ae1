package rocelab.engine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The barrier at the end of every window of a {@link PartitionedSimulator}: the threads spin briefly (a window is
 * short, and parking costs more than most windows) and then yield, so a loaded machine is not burnt. The last
 * thread to arrive opens the next generation; its volatile write publishes every thread's window to every other.
 * A failing thread breaks the barrier, and the others leave it with {@link Broken}.
 */
final class WindowBarrier {
    private static final int SPINS_BEFORE_YIELD = 2_000;

    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;
    private volatile boolean broken;

    WindowBarrier(int parties) {
        this.parties = parties;
    }

    void await() {
        int g = generation;
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            generation = g + 1;
            return;
        }
        int spins = 0;
        while (generation == g) {
            if (broken) {
                throw new Broken();
            }
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    void breakBarrier() {
        broken = true;
    }

    /** Another thread failed; this one stops too (its failure is the one reported). */
    static final class Broken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Broken() {
            super("another partition's thread failed", null, false, false);
        }
    }
}
