package rocelab.scenario.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;

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

    /** Where a sweep stands; sent after each point starts and ends. */
    public record Status(int total, int done, int running, int failed, int reused, double etaSeconds) {}

    /** Hears the sweep's progress (from the worker threads, one call at a time). */
    public interface Listener {
        Listener NONE = s -> {};

        void onStatus(Status status);

        /** A note for the user, once (such as a point folder whose summary.json cannot be read). */
        default void onWarning(String message) {}
    }

    /**
     * What the sweep did: the results; how many points it simulated now; how many were complete before it started;
     * and how many another sweep into the same folder completed while this one ran (taken from their folders).
     */
    public record Outcome(SweepResults results, int ran, int reused, int byOthers) {}

    private final SweepPlan plan;
    private final Path out;
    private final int jobs;
    private final Listener listener;
    private final String sweepFile;
    /** The hidden folders this sweep made: another sweep's (even in this process) mean it is running that point. */
    private final Set<String> ownPartials = ConcurrentHashMap.newKeySet();
    /** What the lint says of each point's scenario: by the worker that runs it, else after the runs. */
    private final Map<String, PointLint> lint = new ConcurrentHashMap<>();

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
        PointFolders.removePartials(points);
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
                Path aside = PointFolders.partialFolder(points, p.id());
                Files.delete(aside);
                Files.move(folder, aside);
                PointFolders.deleteTree(aside);
            }
            pending.add(p);
        }
        int reused = outcomes.size();
        Tracker tracker = new Tracker(plan.points().size(), reused, pending.size());
        tracker.report();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, pending.size())), threads());
        try {
            // Points another live sweep into this folder is running are put off to a second pass, by when it has
            // likely finished them; in the second pass one still unfinished is run here too (the other may be dead).
            List<SweepPoint> later = runAll(pool, pending, points, tracker, true, outcomes);
            runAll(pool, later, points, tracker, false, outcomes);
            lintTheRest(pool);
        } finally {
            pool.shutdownNow();
        }
        // Built from what is on disk: a point this sweep could not finish may have been finished by another sweep.
        for (Map.Entry<String, PointOutcome> e : outcomes.entrySet()) {
            if (!e.getValue().ok()) {
                String done = PointFolders.completeSummary(points.resolve(e.getKey()));
                if (done != null) {
                    e.setValue(PointOutcome.completed(e.getKey(), done));
                }
            }
        }
        SweepResults results = SweepResults.of(plan, outcomes, lint);
        AtomicFiles.write(out.resolve(SweepResults.FILE), results.csv());
        AtomicFiles.write(out.resolve(SweepReport.FILE), SweepReport.html(plan, results));
        // The same sweep run on Spark before left Hadoop's checksum files beside them, which no longer match (Hadoop
        // would refuse to read the new files through them).
        for (String f : new String[] {SweepResults.FILE, SweepReport.FILE}) {
            Files.deleteIfExists(out.resolve("." + f + ".crc"));
        }
        return new Outcome(results, tracker.ranNow(), reused, tracker.byOthers());
    }

    /** Runs {@code todo} on the pool into {@code outcomes}; returns the points put off (only when {@code mayDefer}). */
    private List<SweepPoint> runAll(ExecutorService pool, List<SweepPoint> todo, Path points, Tracker tracker,
            boolean mayDefer, Map<String, PointOutcome> outcomes) throws InterruptedException {
        List<Future<PointOutcome>> futures = new ArrayList<>();
        for (SweepPoint p : todo) {
            futures.add(pool.submit(() -> runPoint(p, points, tracker, mayDefer)));
        }
        List<SweepPoint> deferred = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            PointOutcome o;
            try {
                o = futures.get(i).get();
            } catch (ExecutionException e) {
                // runPoint records every failure itself; this is a bug in the runner.
                throw new IllegalStateException("a sweep worker failed", e.getCause());
            }
            if (o == null) {
                deferred.add(todo.get(i));
            } else {
                outcomes.put(todo.get(i).id(), o);
            }
        }
        return deferred;
    }

    /**
     * Lints, on the pool, the points no worker linted (complete before, completed by another sweep, or failed before
     * their lint): results.csv and sweep.html give every point's. A lint that fails leaves its cells empty and says
     * why once.
     */
    private void lintTheRest(ExecutorService pool) throws InterruptedException {
        List<Future<?>> futures = new ArrayList<>();
        for (SweepPoint p : plan.points()) {
            if (!lint.containsKey(p.id())) {
                futures.add(pool.submit(() -> {
                    try {
                        lint.put(p.id(), PointLint.of(p));
                    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
                        listener.onWarning("warning: the lint of point " + p.id() + " failed: "
                                + PointRunner.reason(e));
                    }
                }));
            }
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a sweep worker failed", e.getCause());
            }
        }
    }

    /** The point's lint, kept for results.csv; null (and a warning) when the lint itself failed: the run goes on. */
    private LintReport lint(SweepPoint p, ScenarioConfig config) {
        try {
            LintReport report = Lint.check(config);
            lint.put(p.id(), PointLint.of(report));
            return report;
        } catch (RuntimeException | StackOverflowError e) {
            listener.onWarning("warning: the lint of point " + p.id() + " failed: " + PointRunner.reason(e));
            return null;
        }
    }

    /** The point's outcome, or null when it is put off because another live sweep is running it. */
    private PointOutcome runPoint(SweepPoint p, Path points, Tracker tracker, boolean mayDefer) {
        Path target = points.resolve(p.id());
        String done = PointFolders.completeSummary(target);
        if (done != null) {
            // Another sweep into this folder completed it since this one looked: the same scenario and seed.
            tracker.finishedElsewhere();
            return PointOutcome.completed(p.id(), done);
        }
        if (mayDefer && runningElsewhere(points, p.id())) {
            return null;
        }
        tracker.started();
        PointOutcome outcome;
        Path partial = null;
        boolean ran = false;
        try {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                // Not ours to remove: the user's file (or link) stands where the point's run folder must go.
                throw new PointFolderTaken(POINTS + "/" + p.id() + " is a file where the point's run folder"
                        + " goes: remove it and run the sweep again to run this point");
            }
            // Made before the run, so that another sweep into this folder sees the point is being run.
            partial = PointFolders.partialFolder(points, p.id());
            ownPartials.add(partial.getFileName().toString());
            ScenarioConfig config = PointRunner.config(p);
            // Linted as rocelab run lints (its manifest and report list the errors and warnings), before the run:
            // a small cost beside it (BENCHMARKS.md#sweeps).
            LintReport report = lint(p, config);
            ran = true;
            RunResult result = PointRunner.run(config, plan.model());
            Files.writeString(partial.resolve("scenario.yaml"), p.scenarioYaml(), StandardCharsets.UTF_8);
            Map<String, Object> extras = RunManifest.extras(config);
            extras.put("scenario_file", "scenario.yaml");
            extras.put("sweep_file", sweepFile);
            extras.put("sweep_point", p.id());
            // Not in the scenario: how the point ran (its id hashes it in for flow and ideal).
            extras.put("model", plan.model());
            if (report != null) {
                extras.put("lint", report.manifestFindings());
            } else {
                extras.put("lint_skipped", "the lint failed");
            }
            new RunWriter().write(partial, result, extras);
            ReportWriter.write(partial);
            String theirs = PointFolders.publish(partial, target);
            outcome = PointOutcome.completed(p.id(), theirs != null ? theirs : RunWriter.summaryJson(result));
        } catch (PointFolderTaken e) {
            outcome = PointOutcome.failed(p.id(), e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            outcome = PointOutcome.failed(p.id(), ioReason(
                    e instanceof UncheckedIOException u ? u.getCause() : (IOException) e, p.id()));
            PointFolders.deleteQuietly(partial);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            outcome = PointOutcome.failed(p.id(), PointRunner.reason(e));
            // A later sweep in another process would remove it, but not one in this process (it is alive).
            PointFolders.deleteQuietly(partial);
        }
        if (partial != null) {
            ownPartials.remove(partial.getFileName().toString());
        }
        tracker.finished(outcome.ok(), ran);
        return outcome;
    }

    /** Whether a hidden folder of another sweep that still runs (in this process or another) holds point {@code id}. */
    private boolean runningElsewhere(Path points, String id) {
        String prefix = "." + id + PointFolders.PARTIAL;
        try (var list = Files.list(points)) {
            return list.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith(prefix) && !ownPartials.contains(n))
                    .anyMatch(n -> PointFolders.isAlive(n.substring(prefix.length())));
        } catch (IOException | UncheckedIOException e) {
            // Cannot tell: run the point (at worst twice; publishing keeps the first).
            return false;
        }
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
                    .replaceAll("\\.[0-9a-f]{" + SweepPoint.ID_LENGTH + "}" + PointFolders.PARTIAL + "[0-9]+-[0-9]+", id);
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
        private int byOthers;

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

        /** A point ended here; {@code ran}: it was simulated (not stopped before, as by a file in its folder's place). */
        synchronized void finished(boolean ok, boolean ran) {
            running--;
            done++;
            if (ran) {
                ranNow++;
            }
            if (!ok) {
                failed++;
            }
            report();
        }

        /** A point another sweep into the same folder completed meanwhile. */
        synchronized void finishedElsewhere() {
            done++;
            byOthers++;
            report();
        }

        synchronized int ranNow() {
            return ranNow;
        }

        synchronized int byOthers() {
            return byOthers;
        }

        synchronized void report() {
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            int left = pending - (done - reused);
            double eta = ranNow == 0 ? Double.NaN : elapsed / ranNow * left;
            listener.onStatus(new Status(total, done, running, failed, reused, eta));
        }
    }
}
