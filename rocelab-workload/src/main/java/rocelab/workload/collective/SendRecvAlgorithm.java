package rocelab.workload.collective;

import rocelab.workload.graph.TaskGraph;

/**
 * nccl-tests' SendRecv (src/sendrecv.cu): every rank r sends S to r+1 and receives S from r-1, all at once, split
 * over the call's channels and cut into {@link NcclChunks#P2P_CHUNK_BYTES} messages as NCCL's point-to-point does.
 * On a non-blocking fabric the time is about S/B plus one hop latency.
 */
public final class SendRecvAlgorithm implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        if (call.op() != CollectiveOp.SEND_RECV) {
            throw new IllegalArgumentException("this algorithm runs SendRecv only, not " + call.op().title());
        }
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        int channels = (int) Math.max(1, Math.min(call.channels(), call.sizeBytes()));
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < channels; c++) {
                long bytes = Collective.part(call.sizeBytes(), channels, c);
                Schedule.Connection link = schedule.connect(i, (i + 1) % n);
                for (int m = 0; m < NcclChunks.chunks(bytes, NcclChunks.P2P_CHUNK_BYTES); m++) {
                    schedule.send(link, NcclChunks.chunk(bytes, NcclChunks.P2P_CHUNK_BYTES, m));
                }
            }
        }
        return schedule.done();
    }
}
