package rocelab.observe.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file is written whole, and no write reaches the file's stream in more than a chunk. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteContentLargerThanAChunkIntact() throws IOException {
        byte[] content = new byte[5 * AtomicFiles.CHUNK_BYTES + 123];
        new Random(7).nextBytes(content);
        Path file = dir.resolve("big.bin");
        AtomicFiles.write(file, content);
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(Files.list(dir)).as("no partial file left").containsExactly(file);
    }

    @Test
    void shouldHandOnALongWriteAChunkAtATime() throws IOException {
        List<Integer> writes = new ArrayList<>();
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
                writes.add(len);
                super.write(b, off, len);
            }
        };
        byte[] content = new byte[2 * AtomicFiles.CHUNK_BYTES + 10];
        new Random(8).nextBytes(content);
        try (AtomicFiles.Chunked out = new AtomicFiles.Chunked(sink)) {
            out.write(content, 5, content.length - 5);
        }
        assertThat(writes).containsExactly(AtomicFiles.CHUNK_BYTES, AtomicFiles.CHUNK_BYTES, 5);
        assertThat(sink.toByteArray()).isEqualTo(java.util.Arrays.copyOfRange(content, 5, content.length));
    }
}
