package rocelab.observe.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;

/** Writes a file so that readers see either the old content or the complete new one, never a partial file. */
public final class AtomicFiles {
    private AtomicFiles() {}

    public static void write(Path target, String content) throws IOException {
        write(target, content.getBytes(StandardCharsets.UTF_8));
    }

    /** What writes a file's content into a stream (buffered by the caller or not). */
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    public static void write(Path target, byte[] content) throws IOException {
        write(target, out -> out.write(content));
    }

    /**
     * The most handed to the file's channel at once. The JDK copies a write from the heap through a direct buffer of
     * its size, which the writing thread then keeps: a 1,024-host all-to-all's pfc.csv (60 MB) written whole kept
     * 60 MB of native memory to the end of the run, at the peak of its resident set.
     */
    static final int CHUNK_BYTES = 1 << 16;

    /** The file's stream, which hands on a long write {@link #CHUNK_BYTES} at a time. */
    static final class Chunked extends FilterOutputStream {
        Chunked(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            for (int at = 0; at < len; at += CHUNK_BYTES) {
                out.write(b, off + at, Math.min(CHUNK_BYTES, len - at));
            }
        }
    }

    /** As {@link #write(Path, byte[])}, the content streamed into the file as it is made. */
    public static void write(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".partial");
        try {
            try (OutputStream out = new Chunked(Files.newOutputStream(tmp))) {
                content.writeTo(out);
            }
            if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                // Temporary files are private; outputs are ordinary files (rw-r--r--).
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
