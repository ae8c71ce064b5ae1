package rocelab.scenario.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import rocelab.observe.RunResult;
import rocelab.observe.output.AtomicFiles;
import rocelab.observe.output.IoProblem;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.RunManifest;
import rocelab.scenario.ScenarioConfig;

/**
 * Runs a sweep on this machine: every point not yet complete, on a pool of threads (one simulation per thread), each
 * into its own run folder {@code points/<id>/}. A folder appears only once its run is complete (the run is written
 * into a hidden folder next to it, then renamed), so an interrupted sweep resumes where it stopped and a sweep given
 * new values runs only the new points. A point that fails is recorded with its error and does not stop the others.
 */
public final class LocalSweep {
    /** The folder holding one run folder per point. */
    public static final String POINTS = "points";
    /** Stack of a simulation thread (deep task graphs recurse; as the test JVMs' -Xss). */
    private static final long STACK_BYTES = 16L << 20;
    private static final String PARTIAL = ".partial-";
    /** Numbers this process's partial folders, so that two threads never pick the same name. */
    private static final AtomicInteger PARTIAL_COUNT = new AtomicInteger();

    /** Where a sweep stands; sent after each point starts and ends. */
    public record Status(int total, int done, int running, int failed, int reused, double etaSeconds) {}

    /** Hears the sweep's progress (from the worker threads, one call at a time). */
    public interface Listener {
        Listener NONE = s -> {};

        void onStatus(Status status);

        /** A note for the user, once (such as a point folder whose summary.json cannot be read). */
        default void onWarning(String message) {}
    }

    /** What the sweep did: the results, how many points ran now and how many were complete before. */
    public record Outcome(SweepResults results, int ran, int reused) {}

    private final SweepPlan plan;
    private final Path out;
    private final int jobs;
    private final Listener listener;
    private final String sweepFile;

    public LocalSweep(SweepPlan plan, Path out, int jobs, Listener listener) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1");
        }
        this.plan = plan;
        this.out = out;
        this.jobs = jobs;
        this.listener = listener;
        this.sweepFile = plan.sweepFile();
    }

    /** Runs what is missing, then writes results.csv and sweep.html. */
    public Outcome run() throws IOException, InterruptedException {
        Path points = out.resolve(POINTS);
        Files.createDirectories(points);
        removePartials(points);
        Map<String, PointOutcome> outcomes = new LinkedHashMap<>();
        List<SweepPoint> pending = new ArrayList<>();
        for (SweepPoint p : plan.points()) {
            Path folder = points.resolve(p.id());
            Path summary = folder.resolve(RunWriter.SUMMARY);
            if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                String text = null;
                String problem;
                try {
                    text = Files.readString(summary, StandardCharsets.UTF_8);
                    problem = SummaryMetrics.problem(text);
                } catch (NoSuchFileException e) {
                    problem = "missing";
                } catch (IOException e) {
                    problem = "it cannot be read as UTF-8 text";
                }
                if (problem == null) {
                    outcomes.put(p.id(), PointOutcome.completed(p.id(), text));
                    continue;
                }
                // Not a complete run: set it aside (the rerun's folder takes its name), then run the point again.
                listener.onWarning("warning: " + (problem.equals("missing")
                        ? POINTS + "/" + p.id() + " has no " + RunWriter.SUMMARY
                        : POINTS + "/" + p.id() + "/" + RunWriter.SUMMARY + " is damaged (" + problem + ")")
                        + ": running point " + p.id() + " again");
                Path aside = partialFolder(points, p.id());
                Files.delete(aside);
                Files.move(folder, aside);
                deleteTree(aside);
            }
            pending.add(p);
        }
        int reused = outcomes.size();
        Tracker tracker = new Tracker(plan.points().size(), reused, pending.size());
        tracker.report();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, pending.size())), threads());
        List<Future<PointOutcome>> futures = new ArrayList<>();
        try {
            for (SweepPoint p : pending) {
                futures.add(pool.submit(() -> runPoint(p, points, tracker)));
            }
            for (int i = 0; i < pending.size(); i++) {
                try {
                    outcomes.put(pending.get(i).id(), futures.get(i).get());
                } catch (ExecutionException e) {
                    // runPoint records every failure itself; this is a bug in the runner.
                    throw new IllegalStateException("a sweep worker failed", e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        SweepResults results = SweepResults.of(plan, outcomes);
        AtomicFiles.write(out.resolve(SweepResults.FILE), results.csv());
        AtomicFiles.write(out.resolve(SweepReport.FILE), SweepReport.html(plan, results));
        return new Outcome(results, pending.size(), reused);
    }

    private PointOutcome runPoint(SweepPoint p, Path points, Tracker tracker) {
        tracker.started();
        PointOutcome outcome;
        Path partial = null;
        try {
            Path target = points.resolve(p.id());
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                // Not ours to remove: the user's file (or link) stands where the point's run folder must go.
                throw new PointFolderTaken(POINTS + "/" + p.id() + " is a file where the point's run folder"
                        + " goes: remove it and run the sweep again to run this point");
            }
            ScenarioConfig config = PointRunner.config(p);
            RunResult result = PointRunner.run(config, plan.model());
            partial = partialFolder(points, p.id());
            Files.writeString(partial.resolve("scenario.yaml"), p.scenarioYaml(), StandardCharsets.UTF_8);
            Map<String, Object> extras = RunManifest.extras(config);
            extras.put("scenario_file", "scenario.yaml");
            extras.put("sweep_file", sweepFile);
            extras.put("sweep_point", p.id());
            // Not in the scenario: how the point ran (its id hashes it in for flow and ideal).
            extras.put("model", plan.model());
            new RunWriter().write(partial, result, extras);
            ReportWriter.write(partial);
            publish(partial, points.resolve(p.id()));
            outcome = PointOutcome.completed(p.id(), RunWriter.summaryJson(result));
        } catch (PointFolderTaken e) {
            outcome = PointOutcome.failed(p.id(), e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            outcome = PointOutcome.failed(p.id(), ioReason(
                    e instanceof UncheckedIOException u ? u.getCause() : (IOException) e, p.id()));
            deleteQuietly(partial);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            outcome = PointOutcome.failed(p.id(), PointRunner.reason(e));
            // A later sweep in another process would remove it, but not one in this process (it is alive).
            deleteQuietly(partial);
        }
        tracker.finished(outcome.ok());
        return outcome;
    }

    /**
     * Why writing a point's run folder failed, in words: the file as the user sees it (relative to the sweep's
     * output, the hidden folder it was written into named as the point folder it becomes) and the cause.
     */
    String ioReason(IOException e, String id) {
        String file = null;
        if (e instanceof FileSystemException f) {
            file = f.getOtherFile() != null ? f.getOtherFile() : f.getFile();
        }
        String where = POINTS + "/" + id;
        if (file != null) {
            Path p = Path.of(file);
            Path base = out.toAbsolutePath().normalize();
            Path full = p.toAbsolutePath().normalize();
            where = (full.startsWith(base) ? base.relativize(full).toString() : file)
                    .replaceAll("\\.[0-9a-f]{" + SweepPoint.ID_LENGTH + "}" + PARTIAL + "[0-9]+-[0-9]+", id);
        }
        return "cannot write the point's run folder: " + where + ": " + IoProblem.cause(e);
    }

    /** Something that is not a run folder stands where a point's folder must go. */
    private static final class PointFolderTaken extends Exception {
        private static final long serialVersionUID = 1L;

        PointFolderTaken(String message) {
            super(message, null, false, false);
        }
    }

    /** Renames a finished run folder into place; the point folder exists only when complete. */
    private static void publish(Path partial, Path target) throws IOException {
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, target);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            // Another sweep into the same folder finished this point first: same scenario and seed, same run.
            deleteTree(partial);
        }
    }

    /**
     * A new hidden folder {@code .ID.partial-PID-N} to write point {@code id}'s run into. Made as any folder is (not
     * as a temporary one, which is private), so the point folder it becomes has the permissions the umask gives.
     */
    private static Path partialFolder(Path points, String id) throws IOException {
        String prefix = "." + id + PARTIAL + ProcessHandle.current().pid() + "-";
        while (true) {
            try {
                return Files.createDirectory(points.resolve(prefix + PARTIAL_COUNT.incrementAndGet()));
            } catch (FileAlreadyExistsException e) {
                // Left by an earlier process that had this process id: try the next number.
            }
        }
    }

    /**
     * Folders of runs a killed sweep left half written: those of processes that no longer run (another sweep into
     * the same folder may be writing its own).
     */
    private static void removePartials(Path points) throws IOException {
        try (var list = Files.list(points)) {
            for (Path p : list.toList()) {
                String n = p.getFileName().toString();
                int at = n.indexOf(PARTIAL);
                if (!n.startsWith(".") || at < 0) {
                    continue;
                }
                String pid = n.substring(at + PARTIAL.length()).replaceFirst("-[0-9]+$", "");
                boolean running = pid.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isPresent();
                if (!running) {
                    deleteTree(p);
                }
            }
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            if (dir != null) {
                deleteTree(dir);
            }
        } catch (IOException | UncheckedIOException e) {
            // Best effort: the next sweep into this folder from another process removes it.
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static ThreadFactory threads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(null, r, "sweep-" + n.incrementAndGet(), STACK_BYTES);
            t.setDaemon(true);
            return t;
        };
    }

    /** Counts points and estimates the time left from this session's pace. */
    private final class Tracker {
        private final int total;
        private final int reused;
        private final int pending;
        private final long startNanos = System.nanoTime();
        private int done;
        private int running;
        private int failed;
        private int ranNow;

        Tracker(int total, int reused, int pending) {
            this.total = total;
            this.reused = reused;
            this.pending = pending;
            this.done = reused;
        }

        synchronized void started() {
            running++;
            report();
        }

        synchronized void finished(boolean ok) {
            running--;
            done++;
            ranNow++;
            if (!ok) {
                failed++;
            }
            report();
        }

        synchronized void report() {
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            double eta = ranNow == 0 ? Double.NaN : elapsed / ranNow * (pending - ranNow);
            listener.onStatus(new Status(total, done, running, failed, reused, eta));
        }
    }
}
