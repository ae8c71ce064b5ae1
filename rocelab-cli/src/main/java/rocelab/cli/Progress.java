package rocelab.cli;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import rocelab.engine.Time;
import rocelab.scenario.ProgressListener;

/** A one-line progress display on an interactive terminal: simulated time, events/s, flows done, elapsed. */
final class Progress implements ProgressListener {
    private static final long INTERVAL_NANOS = 500_000_000L;
    private final PrintStream out;
    private long lastPrintNanos;
    private boolean printed;

    private Progress(PrintStream out) {
        this.out = out;
    }

    static Progress forTerminal(boolean quiet) {
        Console console = System.console();
        return new Progress(quiet || console == null ? null : System.err);
    }

    @Override
    public void onProgress(long simulatedPs, long events, long wallNanos, int flowsFinished, int flowsTotal) {
        if (out == null || wallNanos - lastPrintNanos < INTERVAL_NANOS) {
            return;
        }
        lastPrintNanos = wallNanos;
        double seconds = wallNanos / 1e9;
        double fraction = flowsTotal == 0 ? 0 : flowsFinished / (double) flowsTotal;
        String eta = fraction > 0.05 ? String.format(Locale.ROOT, " · ETA ~%.0f s", seconds / fraction - seconds) : "";
        out.printf(Locale.ROOT, "\r  simulated %.3f us · %.2f M events/s · %d/%d flows done · %.1f s elapsed%s   ",
                simulatedPs / (double) Time.PS_PER_US, events / seconds / 1e6, flowsFinished, flowsTotal, seconds,
                eta);
        out.flush();
        printed = true;
    }

    void done() {
        if (printed) {
            out.print("\r" + " ".repeat(110) + "\r");
            out.flush();
        }
    }
}
