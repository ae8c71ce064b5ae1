package rocelab.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The barrier at the end of every window of a {@link PartitionedSimulator}: the threads spin briefly (a window is
 * often short, and waking a parked thread costs tens of microseconds) and then park until the last thread arrives.
 * Parking, not yielding: a thread that yields stays runnable, so on a machine with as many cores as workers the log
 * replay's thread (and the JIT's) shares a working thread's core instead of taking the waiting one's, and the working
 * thread's window gets longer for everyone. The last thread to arrive opens the next generation (its volatile write
 * publishes every thread's window to every other) and unparks the others. A failing thread breaks the barrier, and
 * the others leave it with {@link Broken}.
 */
final class WindowBarrier {
    private static final int SPINS_BEFORE_PARK = 2_000;
    /** A parked thread looks again after this long even unwoken (a lost wake-up costs at most this). */
    private static final long PARK_NANOS = 1_000_000;

    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;
    private volatile boolean broken;
    /** The thread of each party that may be parked (by party index), for the last arriver to wake. */
    private final AtomicReferenceArray<Thread> parked;

    WindowBarrier(int parties) {
        this.parties = parties;
        this.parked = new AtomicReferenceArray<>(parties);
    }

    /** Party {@code party} (0 .. parties - 1, each thread its own) arrives and waits for the others. */
    void await(int party) {
        int g = generation;
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            generation = g + 1;
            wakeAll();
            return;
        }
        int spins = 0;
        while (generation == g) {
            if (broken) {
                throw new Broken();
            }
            if (++spins < SPINS_BEFORE_PARK) {
                Thread.onSpinWait();
            } else {
                // Seen by the last arriver either before it wakes everyone (then it unparks this thread) or after
                // (then generation has moved and the loop ends without parking for long).
                parked.set(party, Thread.currentThread());
                if (generation == g && !broken) {
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
            }
        }
        parked.set(party, null);
    }

    private void wakeAll() {
        for (int i = 0; i < parties; i++) {
            Thread t = parked.get(i);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    void breakBarrier() {
        broken = true;
        wakeAll();
    }

    /** Another thread failed; this one stops too (its failure is the one reported). */
    static final class Broken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Broken() {
            super("another partition's thread failed", null, false, false);
        }
    }
}
