package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import rocelab.workload.graph.TaskGraph;

/**
 * AlltoAll and AlltoAllv. Rank i sends {@code bytes(i, j)} to every other rank j (AlltoAll: S/N each; AlltoAllv:
 * the call's {@link PairSizes}; a pair of 0 bytes sends nothing), split over the call's channels, each channel its
 * own connection, in {@link NcclChunks#P2P_CHUNK_BYTES} messages as NCCL's point-to-point does. The copy to itself
 * does not touch the network. {@link Algorithm#DIRECT}: every message to all N-1 peers posted at once, as NCCL's
 * grouped ncclSend/ncclRecv (every receiver has N-1 senders: incast is inherent). {@link Algorithm#PAIRWISE}: N-1
 * steps; at step k = 1..N-1 rank r sends to (r+k) mod N and receives from (r-k) mod N, and starts step k+1 when both
 * its send of step k is acknowledged and its receive of step k has arrived.
 */
public final class AllToAllAlgorithm implements CollectiveAlgorithm {
    private final boolean pairwise;

    public AllToAllAlgorithm(boolean pairwise) {
        this.pairwise = pairwise;
    }

    @Override
    public void check(Collective call) {
        if (call.op() != CollectiveOp.ALL_TO_ALL && call.op() != CollectiveOp.ALL_TO_ALLV) {
            throw new IllegalArgumentException("this algorithm runs AlltoAll only, not " + call.op().title());
        }
    }

    /** Bytes rank index i sends to rank index j in a call. */
    public static long pairBytes(Collective call, int i, int j) {
        return call.pairs() != null ? call.pairs().bytes(i, j)
                : Collective.part(call.sizeBytes(), call.rankCount(), j);
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        // stepDone[i]: rank i has finished its previous pairwise step (-1 before the first).
        int[] stepDone = new int[n];
        Arrays.fill(stepDone, -1);
        for (int k = 1; k < n; k++) {
            // Pairwise: what each rank's step k consists of, so that step k+1 can wait for it. (Direct needs no step
            // bookkeeping: every message is posted at once and Schedule.done() collects each rank's ends.)
            List<List<Integer>> ends = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ends.add(new ArrayList<>());
            }
            for (int i = 0; i < n; i++) {
                int j = (i + k) % n;
                long pair = pairBytes(call, i, j);
                int channels = (int) Math.max(1, Math.min(call.channels(), pair));
                for (int c = 0; c < channels && pair > 0; c++) {
                    long bytes = Collective.part(pair, channels, c);
                    Schedule.Connection link = schedule.connect(i, j);
                    for (int m = 0; m < NcclChunks.chunks(bytes, NcclChunks.P2P_CHUNK_BYTES); m++) {
                        int t = schedule.send(link, NcclChunks.chunk(bytes, NcclChunks.P2P_CHUNK_BYTES, m),
                                pairwise ? new int[] {stepDone[i], stepDone[j]} : new int[0]);
                        if (pairwise) {
                            // Every message, not just the last: with several queue pairs they complete out of order.
                            ends.get(i).add(TaskGraph.acked(t));
                            ends.get(j).add(t);
                        }
                    }
                }
            }
            if (pairwise) {
                for (int i = 0; i < n; i++) {
                    ends.get(i).add(stepDone[i]);
                    stepDone[i] = graph.join(call.host(i), ends.get(i).stream().mapToInt(Integer::intValue).toArray());
                }
            }
        }
        return schedule.done();
    }
}
