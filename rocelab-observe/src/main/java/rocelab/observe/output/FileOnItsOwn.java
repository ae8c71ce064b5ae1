package rocelab.observe.output;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;

/**
 * One output file written on a thread of its own, beside the files its caller writes: a large run's flows.csv and
 * rates.csv are seconds each, and the report and the other files leave the second core idle for that long. The
 * caller must {@link #await} it (errors come out there) or {@link #close} it, so that nothing writes into the folder
 * after the caller is done with it.
 */
public final class FileOnItsOwn implements AutoCloseable {
    private final String name;
    private final Thread thread;
    private volatile Throwable failed;

    private FileOnItsOwn(Path file, AtomicFiles.Content content) {
        this.name = file.getFileName().toString();
        this.thread = new Thread(() -> {
            try {
                AtomicFiles.write(file, content);
            } catch (IOException | RuntimeException | Error e) {
                failed = e;
            }
        }, name);
        // Not a reason to keep the JVM alive: whoever started it waits for it on every path that writes a folder.
        thread.setDaemon(true);
    }

    /** Starts writing {@code file} with {@code content} (which must not depend on anything changed from now on). */
    public static FileOnItsOwn start(Path file, AtomicFiles.Content content) {
        FileOnItsOwn w = new FileOnItsOwn(file, content);
        w.thread.start();
        return w;
    }

    /** Waits until the file is written, and throws what writing it threw. */
    public void await() throws IOException {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + name + " was written");
        }
        Throwable t = failed;
        if (t instanceof IOException e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /**
     * Waits for the thread without throwing, so that nothing writes into the folder once the caller has closed it
     * (an error elsewhere, after which the folder is discarded).
     */
    @Override
    public void close() {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
