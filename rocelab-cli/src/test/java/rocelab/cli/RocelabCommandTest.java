package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command-line handling: help, version, and flags or arguments that picocli rejects. */
class RocelabCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldPrintUsageAndExitZeroWhenHelpIsAsked() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: rocelab", "run");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void shouldPrintRunUsageAndExitZeroWhenRunHelpIsAsked() {
        CliRun run = CliRun.of("run", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: rocelab run", "--out", "--seed", "SCENARIO");
    }

    @Test
    void shouldPrintTheVersionWhenVersionIsAsked() {
        CliRun run = CliRun.of("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip()).isEqualTo("rocelab 0.1.0");
    }

    @Test
    void shouldExitWithBadInputWhenOptionIsUnknown() {
        CliRun run = CliRun.of("--no-such-option");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--no-such-option");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void shouldExitWithBadInputAndCreateNothingWhenRunOptionIsUnknown() {
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", "--out", out.toString(), "--colour", "blue");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--colour");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void shouldExitWithBadInputWhenSeedIsNotANumber() {
        Path out = dir.resolve("out");

        CliRun run = CliRun.of("run", "--out", out.toString(), "--seed", "five");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("--seed", "five");
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void shouldExitWithBadInputWhenCommandIsUnknown() {
        CliRun run = CliRun.of("simulate");

        assertThat(run.exitCode()).isEqualTo(RocelabCommand.EXIT_BAD_INPUT);
        assertThat(run.errorLines()).singleElement().asString().contains("simulate");
    }
}
