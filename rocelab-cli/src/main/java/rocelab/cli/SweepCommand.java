package rocelab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.SweepReader;
import rocelab.scenario.sweep.LocalSweep;
import rocelab.scenario.sweep.PointLint;
import rocelab.scenario.sweep.SweepPlan;
import rocelab.scenario.sweep.SweepPoint;
import rocelab.scenario.sweep.SweepResults;

/** {@code rocelab sweep}: many variants of a scenario, in parallel on this machine's cores, resumable. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run a sweep: a base scenario with keys varied over lists of values (grid, zip or a seeded"
                + " random sample), several seeds per point, one simulation per core.",
            "Each point is a normal run in DIR/points/<id>/; points already complete are not run again, so an"
                    + " interrupted sweep resumes and new values run only the new points. Writes DIR/results.csv"
                    + " (one row per point and seed) and DIR/sweep.html.",
            "Exit code 0: no point failed (runs that stopped before their workload completed, at run.stop-at or"
                    + " in a deadlock, are counted apart but do not fail); 1: some failed (each one's reason on stderr,"
                    + " in full in results.csv); 2: bad input, nothing ran."})
final class SweepCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SWEEP", description = "Sweep YAML file (format: docs/sweeps.md).")
    Path sweep;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: out/<sweep file name>/).")
    Path out;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N",
            description = "Simulations at once (default: the machine's cores, ${DEFAULT-VALUE} here).")
    int jobs = Runtime.getRuntime().availableProcessors();

    /**
     * Not an option of a sweep (its points each run on one thread, --jobs at once), but run's: taken so that
     * {@code sweep --threads 2 x.yaml} is told what to use instead of "Unknown options: '--threads', 'x.yaml'" (the
     * parser had read 2 as the sweep file).
     */
    @Option(names = "--threads", paramLabel = "N", hidden = true)
    String threads;

    @Option(names = "--dry-run", description = "Validate and lint every point and list them with their lint errors; run nothing.")
    boolean dryRun;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors (no progress line, no summary).")
    boolean quiet;

    @Option(names = "--debug", description = "Show stack traces of internal errors, and of running out of memory.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        if (threads != null) {
            err.println("error: --threads is run's option: a sweep runs each point on one thread and --jobs N points"
                    + " at once (default: the machine's cores)");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (jobs < 1) {
            err.println("error: --jobs " + jobs + " is too small; expected at least 1");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        SweepPlan plan;
        try {
            plan = new SweepReader().read(sweep);
        } catch (ScenarioException e) {
            err.println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (dryRun) {
            // Each point linted as the sweep would lint it: a combination that breaks a rule is seen before it runs.
            Map<String, PointLint> lints = PointLint.all(plan.points());
            stdout.println(String.join("\t", "point", "seed", String.join("\t", plan.keys()), "lint_errors",
                    "lint_error_rules"));
            Set<String> rules = new LinkedHashSet<>();
            int withErrors = 0;
            for (SweepPoint p : plan.points()) {
                PointLint lint = lints.get(p.id());
                stdout.println(p.id() + "\t" + p.seed() + "\t" + String.join("\t", p.values()) + "\t"
                        + (lint == null ? "\t" : lint.errors() + "\t" + String.join(" ", lint.errorRules())));
                if (lint != null && lint.errors() > 0) {
                    withErrors++;
                    rules.addAll(lint.errorRules());
                }
            }
            stdout.flush();
            if (withErrors > 0) {
                err.println("warning: " + withErrors + " of " + plan.points().size() + " points have lint errors ("
                        + String.join(", ", rules) + "): the lint_error_rules column names them");
            }
            return 0;
        }
        Path dir = out != null ? out : Path.of("out", stem(sweep));
        // A sweep folder grows point by point (it is never replaced whole): it holds results, the report, points/.
        String unusable = OutputFolder.sweepProblem(dir, LocalSweep.POINTS);
        if (unusable != null) {
            err.println("error: " + (out != null ? "--out " : "output folder ") + dir + ": " + unusable);
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        SweepProgress progress = new SweepProgress(quiet ? null : System.err, System.console() != null);
        LocalSweep.Outcome outcome;
        try {
            outcome = new LocalSweep(plan, dir, jobs, progress).run();
        } catch (IOException e) {
            progress.done();
            err.println("error: cannot write the output " + dir + ": " + OutputFolder.describe(e, dir));
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        progress.done();
        SweepResults results = outcome.results();
        for (String f : results.failures()) {
            err.println("error: " + f);
        }
        // As rocelab run prints its lint errors: a sweep's best point may be one of them (an audit's was, L5).
        results.warnings().forEach(err::println);
        if (!quiet) {
            stdout.printf(Locale.ROOT, "sweep %s · %d runs (%d ran now, %d complete before%s) · %d failed%s%n",
                    plan.sweepFile(), plan.points().size(), outcome.ran(), outcome.reused(),
                    outcome.byOthers() == 0 ? "" : ", " + outcome.byOthers() + " completed meanwhile by another sweep"
                            + " into this folder",
                    results.failed(), stoppedEarly(results));
            stdout.println("output    " + dir + " (" + SweepResults.FILE + ", sweep.html, points/<id>/ per run)");
            stdout.flush();
        }
        return results.failed() == 0 ? 0 : RocelabCommand.EXIT_INTERNAL;
    }

    /**
     * " · 2 stopped before their workload completed (2 stop-at)", or "" when every run that did not fail completed
     * its workload. Such runs do not change the exit code: a stop-at is asked for, and a deadlock or stall is what the
     * scenario does (the simulation ran correctly).
     */
    static String stoppedEarly(SweepResults results) {
        return results.stopped() == 0 ? "" : " · " + results.stopped() + " stopped before their workload completed ("
                + results.stoppedText() + ")";
    }

    private static String stem(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".yaml") ? name.substring(0, name.length() - 5)
                : name.endsWith(".yml") ? name.substring(0, name.length() - 4) : name;
    }

    /**
     * The sweep's one progress line on stderr: redrawn in place on a terminal; when piped, a line at most every 10 s
     * (and the last state), so a log stays readable.
     */
    static final class SweepProgress implements LocalSweep.Listener {
        private static final long TERMINAL_NANOS = 250_000_000L;
        private static final long PIPE_NANOS = 10_000_000_000L;
        private final PrintStream out;
        private final boolean terminal;
        private long lastNanos = Long.MIN_VALUE;
        private String pending;
        private String lastLine;
        private boolean printed;
        private int width;

        SweepProgress(PrintStream out, boolean terminal) {
            this.out = out;
            this.terminal = terminal;
        }

        /** Printed even with -q (it names something the user has to know); on a terminal, over the progress line. */
        @Override
        public synchronized void onWarning(String message) {
            PrintStream to = out != null ? out : System.err;
            if (terminal && printed) {
                to.print("\r" + " ".repeat(width) + "\r");
            }
            to.println(message);
            to.flush();
            if (terminal && printed) {
                to.print(pendingOrLast());
                to.flush();
            }
        }

        private String pendingOrLast() {
            return pending != null ? pending : lastLine == null ? "" : lastLine;
        }

        @Override
        public synchronized void onStatus(LocalSweep.Status s) {
            if (out == null) {
                return;
            }
            String line = line(s);
            long now = System.nanoTime();
            boolean last = s.done() == s.total();
            if (!last && lastNanos != Long.MIN_VALUE && now - lastNanos < (terminal ? TERMINAL_NANOS : PIPE_NANOS)) {
                pending = line;
                return;
            }
            lastNanos = now;
            pending = null;
            // On a terminal the line is redrawn in place, padded over whatever the previous one left.
            lastLine = line;
            out.print(terminal ? "\r" + line + " ".repeat(Math.max(0, width - line.length())) : line + "\n");
            width = line.length();
            out.flush();
            printed = true;
        }

        static String line(LocalSweep.Status s) {
            String eta = Double.isNaN(s.etaSeconds()) || s.done() == s.total() ? ""
                    : " · ETA " + duration(s.etaSeconds());
            return String.format(Locale.ROOT, "sweep %d/%d runs done%s · %d running · %d failed%s", s.done(),
                    s.total(), s.reused() > 0 ? " (" + s.reused() + " before)" : "", s.running(), s.failed(), eta);
        }

        static String duration(double seconds) {
            long s = Math.round(seconds);
            return s < 60 ? s + " s" : s < 3600 ? s / 60 + " min " + s % 60 + " s" : s / 3600 + " h " + s % 3600 / 60
                    + " min";
        }

        synchronized void done() {
            if (out == null) {
                return;
            }
            if (pending != null && !terminal) {
                out.println(pending);
            }
            if (printed && terminal) {
                out.println();
            }
            out.flush();
        }
    }
}
