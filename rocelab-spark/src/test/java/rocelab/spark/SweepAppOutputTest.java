package rocelab.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's output, as rocelab sweep's: files written whole or not at all (no half-written results.csv), and a
 * folder that is new, empty or an earlier sweep's.
 */
class SweepAppOutputTest {
    @TempDir
    File folder;

    @Test
    void aWriteCutShortLeavesTheEarlierFileWhole() throws Exception {
        var dir = folder.toPath();
        Configuration conf = new Configuration();
        LocalFileSystem local = FileSystem.getLocal(conf);
        Path file = new Path(dir.resolve("results.csv").toUri());
        String before = "point,seed\nabc,1\n";
        String after = "point,seed\nabc,1\ndef,2\n";
        SweepApp.write(local, file, before);
        assertThat(dir.resolve("results.csv")).hasContent(before);

        CutShort cut = new CutShort(local);
        cut.setConf(conf);
        assertThatThrownBy(() -> SweepApp.write(cut, file, after)).isInstanceOf(IOException.class)
                .hasMessageContaining("No space left on device");
        assertThat(dir.resolve("results.csv")).hasContent(before);

        // The next whole write replaces it, and leaves nothing beside it but Hadoop's checksum file.
        SweepApp.write(local, file, after);
        assertThat(dir.resolve("results.csv")).hasContent(after);
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("results.csv", ".results.csv.crc");
        }
        // Hadoop reads it back through its checksum: the checksum file moved with it.
        try (var in = local.open(file)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(after);
        }
    }

    @Test
    void theOutputIsNewEmptyOrAnEarlierSweepsFolder() throws Exception {
        var dir = folder.toPath();
        LocalFileSystem local = FileSystem.getLocal(new Configuration());
        assertThat(SweepApp.outputProblem(local, new Path(dir.resolve("new").toUri()))).isNull();
        // An earlier sweep's, on Spark or with rocelab sweep (its files being written are hidden .partial ones).
        var sweep = dir.resolve("sweep");
        Files.createDirectories(sweep.resolve("points/0123456789ab"));
        Files.createDirectories(sweep.resolve("results.parquet"));
        for (String f : new String[] {"results.csv", ".results.csv.crc", "sweep.html", ".sweep.html.partial"}) {
            Files.writeString(sweep.resolve(f), "");
        }
        assertThat(SweepApp.outputProblem(local, new Path(sweep.toUri()))).isNull();

        var run = dir.resolve("run");
        Files.createDirectories(run.resolve("charts"));
        Files.writeString(run.resolve("flows.csv"), "");
        Files.writeString(run.resolve("summary.json"), "{}");
        assertThat(SweepApp.outputProblem(local, new Path(run.toUri()))).isEqualTo("is an earlier run's output folder"
                + " (it holds summary.json): a sweep adds its points to its folder and replaces nothing, so its files"
                + " would be left mixed with the sweep's; expected a new or empty folder, or an earlier sweep's output"
                + " folder (it goes on there)");
        Files.writeString(sweep.resolve("notes.txt"), "");
        assertThat(SweepApp.outputProblem(local, new Path(sweep.toUri())))
                .startsWith("holds notes.txt, which rocelab did not write; expected a new or empty folder");
        assertThat(SweepApp.outputProblem(local, new Path(sweep.resolve("results.csv").toUri())))
                .startsWith("exists and is not a directory");
    }

    /** The local file system, but a file written through it fails after its first 12 bytes (a disk that fills up). */
    private static final class CutShort extends FilterFileSystem {
        CutShort(FileSystem fs) {
            super(fs);
        }

        @Override
        public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                short replication, long blockSize, Progressable progress) throws IOException {
            FSDataOutputStream real = super.create(f, permission, overwrite, bufferSize, replication, blockSize,
                    progress);
            return new FSDataOutputStream(new OutputStream() {
                private int written;

                @Override
                public void write(int b) throws IOException {
                    if (written++ == 12) {
                        throw new IOException("No space left on device");
                    }
                    real.write(b);
                }

                @Override
                public void close() throws IOException {
                    real.close();
                }
            }, null);
        }
    }
}
