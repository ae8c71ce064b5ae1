package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.scenario.RunProgress;

/**
 * The progress display of long runs, on a clock the test drives (never the wall clock): silent at first, then a line
 * every ten seconds on a pipe; nothing with -q; on stderr only.
 */
class ProgressTest {
    @TempDir
    Path dir;

    /** A clock that moves on by {@code stepSeconds} every time it is read. */
    private static LongSupplier ticking(long stepSeconds) {
        long[] now = {0};
        return () -> now[0] += stepSeconds * 1_000_000_000L;
    }

    private static List<String> progressLines(String err) {
        return err.lines().filter(l -> l.startsWith("  ") && l.contains("% done")).toList();
    }

    @Test
    void shouldTellSimulatedTimeShareDoneEventRateAndEta() {
        RunProgress p = new RunProgress(2_500_000_000L, 3_000_000, 2_000_000_000L, 250_000_000, 1_000_000_000,
                40, 100);
        String line = Progress.render(p, 12_000_000_000L);
        assertThat(line).isEqualTo("simulated 2.500 ms · 25% done (250.0 MB of 1.00 GB delivered, 40 of 100 tasks)"
                + " · 1.50 M events/s · 12 s elapsed · ETA ~6 s");
        // Without bytes (a workload of computes and waits only), the share is by tasks.
        assertThat(Progress.render(new RunProgress(5_000_000, 10, 1_000_000_000L, 0, 0, 1, 4), 3_000_000_000L))
                .startsWith("simulated 5.000 us · 25% done (1 of 4 tasks)");
        // 99.7 % of the bytes with a task still open is not done: never rounded up to 100 %.
        assertThat(Progress.render(new RunProgress(5_000_000, 10, 1_000_000_000L, 31_900_000, 32_000_000, 15, 16),
                3_000_000_000L)).startsWith("simulated 5.000 us · 99% done (31.9 MB of 32.0 MB delivered, 15 of 16");
        // Every byte delivered but the last acknowledgement not yet back: still 99 %.
        assertThat(Progress.render(new RunProgress(5_000_000, 10, 1_000_000_000L, 32_000_000, 32_000_000, 15, 16),
                3_000_000_000L)).startsWith("simulated 5.000 us · 99% done (");
        assertThat(Progress.render(new RunProgress(5_000_000, 10, 1_000_000_000L, 32_000_000, 32_000_000, 16, 16),
                3_000_000_000L)).startsWith("simulated 5.000 us · 100% done (");
        assertThat(Progress.render(new RunProgress(5_000_000, 10, 1_000_000_000L, 29, 100, 0, 16),
                3_000_000_000L)).startsWith("simulated 5.000 us · 29% done (");
    }

    @Test
    void shouldPrintALineEveryTenSecondsWhenStderrIsNotATerminal() {
        // Each reading of the clock is 4 s later: the first report comes after the silent 2 s, the next ones at
        // least 10 s apart. The demo reports about once per simulated millisecond, about seven times.
        CliRun run = CliRun.withClock(ticking(4), "run", "--out", dir.resolve("demo").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = progressLines(run.err());
        assertThat(lines).hasSizeBetween(2, 4);
        assertThat(lines.get(0)).startsWith("  simulated ").contains(" of 55.0 MB delivered, ", " tasks) · ",
                " M events/s · ", " s elapsed");
        assertThat(run.err()).doesNotContain("\r");
        assertThat(run.out()).doesNotContain("% done");
    }

    @Test
    void shouldPrintNoProgressWhenQuiet() {
        CliRun run = CliRun.withClock(ticking(4), "run", "--out", dir.resolve("quiet").toString(), "-q");
        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEmpty();
    }

    @Test
    void shouldPrintNothingDuringTheFirstTwoSeconds() {
        CliRun run = CliRun.withClock(ticking(0), "run", "--out", dir.resolve("short").toString());
        assertThat(progressLines(run.err())).isEmpty();
    }

    @Test
    void shouldLabelEachFabricOfACompare() throws Exception {
        Path file = dir.resolve("cmp.yaml");
        Files.writeString(file, """
                name: cmp
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1MB, ecn: {marking: none}}
                nic: {cc: none, timeout: 8}
                traffic:
                  - {kind: incast, senders: 1-7, receiver: 0, size: 300KB}
                """);
        CliRun run = CliRun.withClock(ticking(4), "compare", file.toString(), "--out", dir.resolve("cmp").toString(),
                "--modes", "roce-lossless,infiniband");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = progressLines(run.err());
        assertThat(lines).anyMatch(l -> l.startsWith("  roce-lossless · simulated "))
                .anyMatch(l -> l.startsWith("  infiniband · simulated "));
    }

    @Test
    void shouldReportNcclTestsSizesOnStderrAndKeepTheTableClean() {
        CliRun run = CliRun.withClock(ticking(6), "nccl-tests", "all_reduce", "-b", "1M", "-e", "2M", "-f", "2",
                "-n", "1", "-w", "0");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(progressLines(run.err())).isNotEmpty()
                .allMatch(l -> l.startsWith("  size 1048576 B (1 of 2) · ") || l.startsWith("  size 2097152 B (2 of 2) · "));
        assertThat(run.out()).doesNotContain("% done").contains("Avg bus bandwidth");
    }

    @Test
    void shouldPrintTextOnceItIsReadyAndAtTheLatestWhenDone() throws Exception {
        // The lint's findings: the run does not wait for them, they are printed at the first progress report after
        // they are there, once, and a run that ends first waits for them before its summary.
        RunProgress p = new RunProgress(5_000_000, 10, 1_000_000_000L, 0, 0, 1, 4);
        StringWriter text = new StringWriter();
        Progress progress = Progress.of(new PrintWriter(text), false);
        CompletableFuture<String> lint = new CompletableFuture<>();
        progress.printWhenReady(lint);
        progress.onProgress(p);
        assertThat(text.toString()).isEmpty();
        lint.complete("lint: 0 errors, 1 warning, 0 info - running anyway\n");
        progress.onProgress(p);
        progress.onProgress(p);
        progress.done();
        assertThat(text.toString()).isEqualTo("lint: 0 errors, 1 warning, 0 info - running anyway\n");

        StringWriter late = new StringWriter();
        Progress ended = Progress.of(new PrintWriter(late), false);
        CompletableFuture<String> slow = new CompletableFuture<>();
        ended.printWhenReady(slow);
        Thread finisher = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            slow.complete("lint: 1 error\n");
        });
        finisher.start();
        ended.done();
        finisher.join();
        assertThat(late.toString()).isEqualTo("lint: 1 error\n");

        // A failed lint prints nothing here (the run reports its failure where it reads the lint for its files).
        StringWriter none = new StringWriter();
        Progress failed = Progress.of(new PrintWriter(none), false);
        failed.printWhenReady(CompletableFuture.failedFuture(new IllegalStateException("x")));
        failed.done();
        assertThat(none.toString()).isEmpty();
    }
}
