package rocelab.observe.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Rows of a fixed number of long columns in primitive blocks of {@value #BLOCK_ROWS} rows (no boxing). The blocks
 * never move once filled: growing by doubling one array needed the old and the new copy at once, up to three
 * times the rows' size at the moment of the copy (a 1,024-host all-to-all ran out of heap there), and left up to
 * half of the array unused; blocks hold the rows and at most one block's slack.
 *
 * <p>Only the newest {@code memoryBlocks} blocks stay on the heap: an older one goes whole to a temporary file, at
 * its place there, and its array takes the next rows. The rows are read only once the run is over (its outputs and
 * report), where each reading thread reads the file's blocks into a block of its own, one at a time (readers go
 * through the rows in order): a 1,024-host fabric's links.csv grows by 4,096 rows a sample to over a hundred
 * megabytes, which the heap held to the end beside a million queue pairs. (Mapped instead, the pages read stayed in
 * the process's resident set: 120 MB more at 1,024 hosts.)
 */
final class LongColumns {
    private static final int BLOCK_SHIFT = 12;
    static final int BLOCK_ROWS = 1 << BLOCK_SHIFT;
    private static final int ROW_MASK = BLOCK_ROWS - 1;
    /** Blocks kept on the heap by default: 8 MB of links.csv's six columns. */
    static final int MEMORY_BLOCKS = 40;

    private final int width;
    private final int memoryBlocks;
    /** Block k's rows, or null once it went to {@link #file}. */
    private long[][] blocks = new long[4][];
    private long[] block;
    /** Where the next row starts in {@link #block}. */
    private int at;
    private int rows;
    /** Blocks in the file: the first ones. */
    private int blocksInFile;
    private FileChannel file;
    /** A block's bytes on their way to the file (made with the first). */
    private ByteBuffer transfer;
    /** Per reading thread, the file's block it read last (the outputs' threads read at once). */
    private final ThreadLocal<FileBlock> fileBlock = ThreadLocal.withInitial(FileBlock::new);

    /** A block of the file read back, and which. */
    private final class FileBlock {
        int k = -1;
        final long[] data = new long[BLOCK_ROWS * width];
        final ByteBuffer bytes = ByteBuffer.allocate(data.length * Long.BYTES).order(ByteOrder.nativeOrder());

        long[] of(int block) {
            if (k != block) {
                bytes.clear();
                long position = (long) block * data.length * Long.BYTES;
                try {
                    while (bytes.hasRemaining()) {
                        int n = file.read(bytes, position + bytes.position());
                        if (n < 0) {
                            throw new IOException("the file ends inside block " + block);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read sampled rows back from their temporary file", e);
                }
                bytes.flip();
                bytes.asLongBuffer().get(data);
                k = block;
            }
            return data;
        }
    }

    LongColumns(int width) {
        this(width, MEMORY_BLOCKS);
    }

    LongColumns(int width, int memoryBlocks) {
        if (memoryBlocks < 1) {
            throw new IllegalArgumentException("blocks kept in memory must be at least 1: " + memoryBlocks);
        }
        this.width = width;
        this.memoryBlocks = memoryBlocks;
    }

    void add(long a, long b, long c) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
    }

    void add(long a, long b, long c, long d, long e) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
        data[i + 4] = e;
    }

    void add(long a, long b, long c, long d, long e, long f) {
        int i = next();
        long[] data = block;
        data[i] = a;
        data[i + 1] = b;
        data[i + 2] = c;
        data[i + 3] = d;
        data[i + 4] = e;
        data[i + 5] = f;
    }

    /** The offset of a new row in {@link #block}, starting a block when the current one is full. */
    private int next() {
        if ((rows & ROW_MASK) == 0) {
            int k = rows >>> BLOCK_SHIFT;
            if (k == blocks.length) {
                blocks = Arrays.copyOf(blocks, k * 2);
            }
            block = k - blocksInFile == memoryBlocks ? moveOldestToFile() : new long[BLOCK_ROWS * width];
            blocks[k] = block;
            at = 0;
        }
        rows++;
        int i = at;
        at += width;
        return i;
    }

    int rows() {
        return rows;
    }

    /** Blocks that went to the temporary file. */
    int blocksInFile() {
        return blocksInFile;
    }

    long get(int row, int column) {
        int k = row >>> BLOCK_SHIFT;
        int i = (row & ROW_MASK) * width + column;
        if (k >= blocksInFile) {
            return blocks[k][i];
        }
        return fileBlock.get().of(k)[i];
    }

    /** Writes the oldest block on the heap to its place in the file and hands back its array, for the next rows. */
    private long[] moveOldestToFile() {
        int k = blocksInFile;
        long[] oldest = blocks[k];
        if (transfer == null) {
            transfer = ByteBuffer.allocate(oldest.length * Long.BYTES).order(ByteOrder.nativeOrder());
        }
        ByteBuffer bytes = transfer.clear();
        bytes.asLongBuffer().put(oldest);
        try {
            if (file == null) {
                file = RowSpill.openTemporaryFile("rocelab-samples-");
            }
            long position = (long) k * oldest.length * Long.BYTES;
            while (bytes.hasRemaining()) {
                position += file.write(bytes, position);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write sampled rows to their temporary file", e);
        }
        blocks[k] = null;
        blocksInFile = k + 1;
        return oldest;
    }
}
