package rocelab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;

/** Test helper: runs {@link RocelabCommand#execute} in-process and captures what it printed. */
record CliRun(int exitCode, String out, String err) {

    /**
     * Runs the CLI with System.out and System.err redirected, and restores them afterwards. The progress display's
     * clock stands still, so a run slowed down by a busy machine prints no progress line.
     */
    static CliRun of(String... args) {
        return withClock(() -> 0L, args);
    }

    /** The same, with the progress display reading {@code clock} (nanoseconds). */
    static CliRun withClock(LongSupplier clock, String... args) {
        LongSupplier previousClock = Progress.clock(clock);
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = RocelabCommand.execute(args);
            System.out.flush();
            System.err.flush();
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
            Progress.clock(previousClock);
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The lines of stderr that start with {@code error: }. */
    List<String> errorLines() {
        return err.lines().filter(l -> l.startsWith("error: ")).toList();
    }
}
