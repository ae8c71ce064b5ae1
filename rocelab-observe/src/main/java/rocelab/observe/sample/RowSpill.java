package rocelab.observe.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Rates rows moved off the heap: an append-only temporary file of (int, long, int) records, read back in the order
 * written. The file is unlinked as soon as it is open (where the platform allows), so it disappears with the
 * channel, even if the process dies; elsewhere it is deleted on exit.
 */
final class RowSpill {
    static final int RECORD_BYTES = Integer.BYTES + Long.BYTES + Integer.BYTES;
    private static final int BUFFER_BYTES = RECORD_BYTES * 4096;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
    private long records;
    /** Bytes in the file: the records before those still in {@link #buffer}. */
    private long fileBytes;

    RowSpill() {
        try {
            channel = openTemporaryFile("rocelab-rates-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary file for rates.csv's rows", e);
        }
    }

    /**
     * A temporary file open to read and write, unlinked as soon as it is open (where the platform allows), so it goes
     * with the channel even if the process dies; elsewhere it is deleted on exit.
     */
    static FileChannel openTemporaryFile(String prefix) throws IOException {
        Path path = Files.createTempFile(prefix, ".rows");
        FileChannel opened = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            Files.delete(path);
        } catch (IOException openFilesCannotBeDeletedHere) {
            path.toFile().deleteOnExit();
        }
        return opened;
    }

    void append(int a, long b, int c) {
        if (buffer.remaining() < RECORD_BYTES) {
            flush();
        }
        buffer.putInt(a).putLong(b).putInt(c);
        records++;
    }

    long records() {
        return records;
    }

    /** Every record in the order appended; several threads may read at once (once appending is over). */
    void forEach(Record visitor) throws IOException {
        flushBeforeReading();
        ByteBuffer in = ByteBuffer.allocate(BUFFER_BYTES);
        long position = 0;
        long end = records * RECORD_BYTES;
        while (position < end) {
            in.clear();
            in.limit((int) Math.min(BUFFER_BYTES, end - position));
            while (in.hasRemaining()) {
                int n = channel.read(in, position + in.position());
                if (n < 0) {
                    throw new IOException("rates.csv's temporary rows ended early");
                }
            }
            position += in.limit();
            in.flip();
            while (in.hasRemaining()) {
                visitor.accept(in.getInt(), in.getLong(), in.getInt());
            }
        }
    }

    /**
     * The rows still in the buffer go to the file once; readers on two threads (rates.csv's and the report's) would
     * otherwise both write the buffer out, one of them what the other's clear left.
     */
    private synchronized void flushBeforeReading() {
        flush();
    }

    private void flush() {
        buffer.flip();
        try {
            while (buffer.hasRemaining()) {
                fileBytes += channel.write(buffer, fileBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write rates.csv's rows to their temporary file", e);
        }
        buffer.clear();
    }

    interface Record {
        void accept(int a, long b, int c) throws IOException;
    }
}
