package rocelab.scenario;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Work started on a daemon thread of its own, joined when its result is needed. The work must read only what nobody
 * writes meanwhile: the thread's start and {@link #join} order everything else.
 */
final class Aside<T> {
    private final FutureTask<T> task;

    Aside(String name, Supplier<T> work) {
        task = new FutureTask<>(work::get);
        Thread t = new Thread(task, name);
        // A run that fails on the main thread must not be kept alive by this work.
        t.setDaemon(true);
        t.start();
    }

    /** The result, once made; a failure in the work is thrown here, as if it had been made on this thread. */
    T join() {
        return await(task);
    }

    /**
     * The result of {@code future}, waited for through interrupts (the interrupt kept for the caller); a failure in the
     * work is thrown as itself, as if it had been made on this thread.
     */
    static <V> V await(Future<V> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
