package rocelab.workload.collective;

import java.util.Arrays;
import rocelab.workload.graph.TaskGraph;

/**
 * NCCL's ring Broadcast and Reduce: a pipelined chain along the ring. Broadcast runs root, root+1, ..., root-1
 * (the last rank only receives); Reduce runs root+1, ..., root-1, root (the root only receives). The buffer of each
 * channel moves in chunks of {@link NcclChunks#STEP_BYTES}; a rank forwards chunk k as soon as chunk k has arrived
 * from the rank before it (reduced with its own data, for Reduce), and frees that chunk's buffer slot (NCCL's
 * credit, {@link NcclChunks#WINDOW} per connection) when it has forwarded it. Every rank but the last sends S, so on a
 * non-blocking fabric the time is about S/B + (N-1)(hop latency + chunk/B).
 */
public final class ChainAlgorithm implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        if (!call.op().rooted()) {
            throw new IllegalArgumentException("the chain runs Broadcast and Reduce only, not " + call.op().title());
        }
    }

    /** Rank index at position p of the chain of a call. */
    public static int position(Collective call, int p) {
        int first = call.op() == CollectiveOp.BROADCAST ? call.root() : call.root() + 1;
        return (first + p) % call.rankCount();
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        int channels = (int) Math.max(1, Math.min(call.channels(), call.sizeBytes()));
        for (int c = 0; c < channels; c++) {
            long bytes = Collective.part(call.sizeBytes(), channels, c);
            int chunks = NcclChunks.chunks(bytes, NcclChunks.STEP_BYTES);
            Schedule.Connection[] link = new Schedule.Connection[n - 1];
            for (int p = 0; p + 1 < n; p++) {
                link[p] = schedule.connect(position(call, p), position(call, p + 1));
            }
            // Per position, the task after which its rank forwards the latest chunk, where that chunk came over
            // NVLink: NVLink transfers share their ports rather than queue, so a smaller last chunk can arrive before
            // the one ahead of it; the rank still forwards the chunks in order (NCCL's steps are sequential), so a
            // connection's messages are posted in the order they were added, as each rank's done assumes.
            int[] forwarded = new int[n];
            Arrays.fill(forwarded, -1);
            for (int k = 0; k < chunks; k++) {
                long size = NcclChunks.chunk(bytes, NcclChunks.STEP_BYTES, k);
                int arrived = -1;
                for (int p = 0; p + 1 < n; p++) {
                    if (arrived >= 0 && graph.kind(arrived) == TaskGraph.Kind.NVLINK) {
                        forwarded[p] = graph.join(call.host(position(call, p)), arrived, forwarded[p]);
                        arrived = forwarded[p];
                    }
                    int sent = schedule.send(link[p], size, arrived);
                    if (p > 0) {
                        // Forwarding chunk k frees its buffer slot at this rank (NCCL's credit).
                        schedule.consumedBy(link[p - 1], k, sent);
                    }
                    arrived = sent;
                }
            }
        }
        return schedule.done();
    }
}
