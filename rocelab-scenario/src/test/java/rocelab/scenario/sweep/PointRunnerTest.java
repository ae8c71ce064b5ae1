package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A failed point's reason is a sentence: a file's problem names the file and why, not Java's exception text. */
class PointRunnerTest {
    @Test
    void fileProblemsAreWords() {
        assertThat(PointRunner.reason(new FileSystemException("runs/x", "runs/y", "Not a directory")))
                .isEqualTo("cannot read or write runs/x: not a directory");
        assertThat(PointRunner.reason(new UncheckedIOException(new AccessDeniedException("flows.csv"))))
                .isEqualTo("cannot read or write flows.csv: permission denied");
        assertThat(PointRunner.reason(new IllegalStateException("boom"))).isEqualTo(
                "internal error: java.lang.IllegalStateException: boom");
        assertThat(PointRunner.reason(new OutOfMemoryError("Java heap space"))).startsWith(
                "the simulation ran out of memory (give the JVM more with ROCELAB_JAVA_OPTS=-Xmx...");
    }

    @Test
    void aPointFolderProblemNamesThePointFolderNotTheHiddenOneItWasWrittenInto() {
        String id = "cfb55313445b";
        Path out = Path.of("runs", "fail");
        SweepPlan plan = new SweepPlan("s.yaml", "b.yaml", List.of("k"), List.of(List.of()), "grid", "packet", List.of(),
                List.of());
        LocalSweep sweep = new LocalSweep(plan, out, 1, LocalSweep.Listener.NONE);
        String hidden = out.resolve("points").resolve("." + id + ".partial-26114-2").toString();
        assertThat(sweep.ioReason(new FileSystemException(hidden + "/flows.csv", null, "No space left on device"), id))
                .isEqualTo("cannot write the point's run folder: points/" + id + "/flows.csv: no space left on device");
        assertThat(sweep.ioReason(new FileSystemException(hidden, out.resolve("points").resolve(id).toString(),
                "Not a directory"), id)).isEqualTo("cannot write the point's run folder: points/" + id
                        + ": not a directory");
    }
}
