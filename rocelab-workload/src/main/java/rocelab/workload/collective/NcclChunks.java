package rocelab.workload.collective;

/**
 * How NCCL (Simple protocol) cuts a collective into network writes, where that matters for pipelining: each
 * connection's 4 MiB buffer is 8 steps of 512 KiB ({@code DEFAULT_BUFFSIZE}, {@code NCCL_STEPS}), so at most 8
 * messages are in flight per connection; the chain of Broadcast and Reduce moves one step per message
 * ({@code BROADCAST_CHUNKSTEPS = REDUCE_CHUNKSTEPS = 1}); the tree moves one step per message, halved for small
 * calls so the pipeline stays full (enqueue.cc); point-to-point (SendRecv, AlltoAll) moves 128 KiB per message
 * ({@code NCCL_P2P_NET_CHUNKSIZE}).
 */
public final class NcclChunks {
    /** Messages in flight per connection (NCCL_STEPS): a message waits for the delivery of the one 8 before it. */
    public static final int WINDOW = 8;
    /** One step of the 4 MiB Simple buffer: the chunk of chain Broadcast/Reduce and the largest tree chunk. */
    public static final long STEP_BYTES = 512 << 10;
    /** Point-to-point network chunk (NCCL_P2P_NET_CHUNKSIZE default 1 << 17). */
    public static final long P2P_CHUNK_BYTES = 128 << 10;

    private NcclChunks() {}

    /**
     * NCCL's tree chunk for {@code bytes} over {@code channels} tree channels of a tree {@code depth} deep: a step,
     * halved while there would be fewer than 8 x depth chunks per channel (down to 128 KiB), then 4 x depth (down to
     * 64 KiB), then depth (down to 32 KiB).
     */
    public static long treeChunk(long bytes, int channels, int depth) {
        long chunk = STEP_BYTES;
        while (bytes / (channels * chunk) < depth * 8L && chunk > 131072) {
            chunk /= 2;
        }
        while (bytes / (channels * chunk) < depth * 4L && chunk > 65536) {
            chunk /= 2;
        }
        while (bytes / (channels * chunk) < depth && chunk > 32768) {
            chunk /= 2;
        }
        return chunk;
    }

    /** Number of messages of at most {@code chunk} bytes for {@code bytes} (at least one). */
    static int chunks(long bytes, long chunk) {
        return (int) Math.max(1, (bytes + chunk - 1) / chunk);
    }

    /** Size of message k of {@code bytes} cut into {@code chunk}-byte messages (the last one smaller). */
    static long chunk(long bytes, long chunk, int k) {
        return Math.min(chunk, bytes - k * chunk);
    }
}
