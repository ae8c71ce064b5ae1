package rocelab.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import rocelab.engine.Time;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.RunProgress;

/**
 * Progress of a long run on stderr: simulated time, share of the workload done (bytes delivered of the workload's
 * bytes, tasks done of its tasks), events per second and an ETA. Silent for the first two seconds, so short runs
 * print nothing; then one line rewritten in place on a terminal, or a new line every ten seconds when stderr is a
 * pipe or a file. Never on stdout, so the summary and the nccl-tests table stay clean.
 */
final class Progress implements ProgressListener {
    static final long SILENT_NANOS = 2_000_000_000L;
    static final long TERMINAL_INTERVAL_NANOS = 500_000_000L;
    static final long PIPE_INTERVAL_NANOS = 10_000_000_000L;
    private static final int WIDTH = 118;

    /** The clock every display reads; tests replace it (CLI tests run one at a time). */
    private static LongSupplier clock = System::nanoTime;

    private final PrintWriter out;
    private final boolean terminal;
    private final long startNanos;
    private final long intervalNanos;
    private String label = "";
    private long lastPrintNanos;
    private boolean printed;
    /** Text to print once it is ready (the lint's findings), or null. */
    private Future<String> pending;

    private Progress(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
        this.startNanos = clock.getAsLong();
        this.intervalNanos = terminal ? TERMINAL_INTERVAL_NANOS : PIPE_INTERVAL_NANOS;
    }

    /** The display of one command: nothing with {@code quiet}; a terminal's updating line when stderr is a console. */
    static Progress of(PrintWriter err, boolean quiet) {
        return new Progress(quiet ? null : err, System.console() != null);
    }

    /** Replaces the clock (for tests); returns the previous one. */
    static LongSupplier clock(LongSupplier replacement) {
        LongSupplier previous = clock;
        clock = replacement;
        return previous;
    }

    /** A prefix naming the part of a command that runs now (a fabric of compare, a size of nccl-tests). */
    Progress label(String text) {
        label = text == null || text.isEmpty() ? "" : text + " · ";
        return this;
    }

    /**
     * Prints {@code text} as soon as it is ready: now if it is, else at the first progress report after, and at the
     * latest when the display is done. Nothing when it failed (whoever made it reports that) or is empty.
     */
    void printWhenReady(Future<String> text) {
        pending = text;
        printPending(false);
    }

    private void printPending(boolean wait) {
        if (pending == null || !wait && !pending.isDone()) {
            return;
        }
        String text;
        try {
            text = pending.get();
        } catch (ExecutionException e) {
            text = "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        pending = null;
        if (out == null || text.isEmpty()) {
            return;
        }
        if (printed && terminal) {
            out.print("\r" + " ".repeat(WIDTH) + "\r");
            printed = false;
        }
        out.print(text);
        out.flush();
    }

    @Override
    public void onProgress(RunProgress p) {
        printPending(false);
        if (out == null) {
            return;
        }
        long now = clock.getAsLong();
        long elapsed = now - startNanos;
        if (elapsed < SILENT_NANOS || printed && now - lastPrintNanos < intervalNanos) {
            return;
        }
        lastPrintNanos = now;
        String line = "  " + label + render(p, elapsed);
        if (terminal) {
            out.print("\r" + pad(line));
        } else {
            out.println(line);
        }
        out.flush();
        printed = true;
    }

    /** One progress line (without the label), {@code elapsedNanos} of wall time into the command. */
    static String render(RunProgress p, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        double runSeconds = p.wallNanos() / 1e9;
        double fraction = p.fractionDone();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "simulated %s · %d%% done (", simulated(p.simulatedPs()), percent(p)));
        if (p.bytesTotal() > 0) {
            b.append(bytes(p.bytesDone())).append(" of ").append(bytes(p.bytesTotal())).append(" delivered, ");
        }
        b.append(String.format(Locale.ROOT, "%,d of %,d tasks) · %.2f M events/s · %.0f s elapsed", p.tasksDone(),
                p.tasksTotal(), runSeconds > 0 ? p.events() / runSeconds / 1e6 : 0, seconds));
        if (fraction >= 0.01 && fraction < 1) {
            b.append(String.format(Locale.ROOT, " · ETA ~%s", duration(runSeconds / fraction - runSeconds)));
        }
        return b.toString();
    }

    /**
     * The share done in whole percent, rounded down, so that 100 % means done: 99.7 % of the bytes is 99 %, and so is
     * every byte delivered while a task is still open (its last acknowledgement on the way).
     */
    static int percent(RunProgress p) {
        // The epsilon keeps a share such as 0.29, stored a hair below, at 29.
        int pct = (int) Math.floor(100 * p.fractionDone() + 1e-9);
        return p.tasksDone() < p.tasksTotal() ? Math.min(99, pct) : pct;
    }

    private static String simulated(long ps) {
        if (ps >= Time.ms(1)) {
            return String.format(Locale.ROOT, "%.3f ms", ps / 1e9);
        }
        return String.format(Locale.ROOT, "%.3f us", ps / (double) Time.PS_PER_US);
    }

    private static String bytes(long b) {
        if (b >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
        }
        if (b >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        }
        return String.format(Locale.ROOT, "%,d B", b);
    }

    private static String duration(double s) {
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%.1f h", s / 3600);
        }
        if (s >= 120) {
            return String.format(Locale.ROOT, "%.0f min", s / 60);
        }
        return String.format(Locale.ROOT, "%.0f s", Math.max(1, s));
    }

    private static String pad(String line) {
        return line.length() >= WIDTH ? line : line + " ".repeat(WIDTH - line.length());
    }

    /**
     * Clears a terminal's line, so what the command prints next starts clean; a later report draws it again. What was
     * to be printed once ready is waited for and printed now.
     */
    void done() {
        if (printed && terminal) {
            out.print("\r" + " ".repeat(WIDTH) + "\r");
            out.flush();
            printed = false;
        }
        printPending(true);
    }
}
