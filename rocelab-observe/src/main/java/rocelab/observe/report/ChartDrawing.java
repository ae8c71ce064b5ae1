package rocelab.observe.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import rocelab.observe.output.AtomicFiles;

/**
 * The chart images of one report ({@code charts/<id>.svg} and {@code .png}), drawn by whichever of two threads is
 * free: the report's own and, once it has written the run's other files, the thread that wrote them
 * ({@link #help}). The page hands each chart over as it adds it, so the helper draws while the page is still being
 * built.
 *
 * <p>Why: at the end of a short run the files take a third of the report's time, and their thread then waited for
 * the report with nothing to do while the report drew its charts one after the other (bench-B: files 60 ms, report
 * 220 ms of which the images 95 ms). On two cores the gain is small, since the JIT's threads want the second core
 * too: with the launcher's ahead-of-time cache on Java 25, bench-B's outputs 165 -> 157 ms and bench-B2's 324 -> 307
 * ms (means of interleaved runs); on Java 17 none (BENCHMARKS.md, 2026-12-06); with more cores, the charts' share of
 * the report. A chart's images are a function of the chart alone, which nobody changes once it is on the page, so they
 * are the same bytes whichever thread draws them.
 */
final class ChartDrawing {
    private final Path dir;
    private final List<Chart> charts = new ArrayList<>();
    /** Charts handed to a thread to draw, and of those, charts whose files are written. */
    private int taken;
    private int drawn;
    /** The page is built: no chart will come. */
    private boolean closed;
    /** What failed on the helper's thread, thrown again by {@link #finish} on the report's. */
    private Throwable failed;

    /** Images into {@code dir}, made now if it is missing. */
    ChartDrawing(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
    }

    /** A chart of the page: one of the two threads draws it. */
    synchronized void add(Chart c) {
        if (closed) {
            throw new IllegalStateException("chart " + c.id + " added after the page was finished");
        }
        charts.add(c);
        notifyAll();
    }

    /** No more charts will come (also when the page failed half-way: a helper waiting for charts returns). */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /**
     * Another thread helps: draws charts as the page adds them, until the page is built and none is left. Never
     * throws; what fails is thrown by {@link #finish} on the report's thread.
     */
    void help() {
        try {
            drawWhileAny(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            synchronized (this) {
                if (failed == null) {
                    failed = t;
                }
                notifyAll();
            }
        }
    }

    /**
     * The report's thread, with the page built: draws the charts not taken yet, waits for the one the helper may
     * still be drawing, writes the fabric's drawing ({@code null}: none), and removes the images of charts this run
     * does not have (left by an earlier run into the same folder).
     */
    void finish(String fabricSvg) throws IOException {
        close();
        try {
            drawWhileAny(false);
            synchronized (this) {
                while (drawn < taken && failed == null) {
                    wait();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the charts were drawn");
        }
        Throwable t;
        synchronized (this) {
            t = failed;
        }
        if (t instanceof IOException e) {
            throw e;
        }
        if (t instanceof UncheckedIOException e) {
            throw e.getCause();
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        Set<String> names = new TreeSet<>();
        for (Chart c : charts) {
            names.add(c.id + ".svg");
            names.add(c.id + ".png");
        }
        if (fabricSvg != null) {
            AtomicFiles.write(dir.resolve("fabric.svg"), "<?xml version='1.0' encoding='UTF-8'?>\n" + fabricSvg + "\n");
            names.add("fabric.svg");
        }
        try (var old = Files.list(dir)) {
            for (Path f : old.toList()) {
                String n = f.getFileName().toString();
                if ((n.endsWith(".svg") || n.endsWith(".png")) && !names.contains(n)) {
                    Files.delete(f);
                }
            }
        }
    }

    /** Takes and draws charts while any is waiting; {@code waitForMore}: also while the page may add more. */
    private void drawWhileAny(boolean waitForMore) throws IOException, InterruptedException {
        while (true) {
            Chart c;
            synchronized (this) {
                while (waitForMore && taken == charts.size() && !closed) {
                    wait();
                }
                if (taken == charts.size() || failed != null) {
                    return;
                }
                c = charts.get(taken++);
            }
            ChartImage.write(dir, c);
            synchronized (this) {
                drawn++;
                notifyAll();
            }
        }
    }
}
