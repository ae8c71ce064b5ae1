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

/** The driver's files are written whole or not at all, as rocelab sweep's: no half-written results.csv. */
class SweepAppWriteTest {
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
