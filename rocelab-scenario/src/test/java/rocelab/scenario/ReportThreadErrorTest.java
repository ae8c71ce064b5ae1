package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;

/**
 * The report is made on a thread of its own while the other files are written: an error there (running out of heap
 * is the one users meet, on a 1,024-host all-to-all) must reach the caller, which turns it into one line and an exit
 * code, and not die on that thread with a stack trace printed and the run's folder finished as if it were whole.
 */
class ReportThreadErrorTest {
    @TempDir
    Path tmp;

    /** A manifest that only the report's thread cannot read: the error is the report's, not the files'. */
    private static final class FailsOnTheReportsThread extends AbstractMap<String, Object> {
        @Override
        public Set<Entry<String, Object>> entrySet() {
            if (Thread.currentThread().getName().equals("report")) {
                throw new OutOfMemoryError("Java heap space (a test's)");
            }
            return Map.<String, Object>of().entrySet();
        }
    }

    @Test
    void shouldThrowTheReportThreadsErrorOnTheCallersThreadAndPrintNoStackTrace() throws Exception {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: report-error
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 3, size: 64KB}
                """)).run(ProgressListener.NONE);
        List<Throwable> uncaught = new ArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            synchronized (uncaught) {
                uncaught.add(e);
            }
        });
        try {
            Path dir = tmp.resolve("run");
            assertThatThrownBy(() -> ReportWriter.writeRun(dir, r, new FailsOnTheReportsThread()))
                    .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("a test's");
            assertThat(uncaught).as("errors that died on a thread of their own").isEmpty();
            // summary.json, the last file, marks a whole folder: a folder whose report failed has none.
            assertThat(Files.exists(dir.resolve(RunWriter.SUMMARY))).isFalse();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
