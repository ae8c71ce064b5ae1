package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.graph.TaskGraph;

/**
 * A barrier by dissemination (Hensgen, Finkel and Manber): ceil(log2 N) rounds; in round k rank r sends a 1-byte
 * message to (r + 2^k) mod N once it has entered and has received the messages of all earlier rounds.
 * After the last round every rank has heard, directly or not, from every other, so no rank leaves before all have
 * entered. Time: ceil(log2 N) one-way latencies of a minimum frame; no data moves (nccl-tests has no barrier).
 */
public final class DisseminationBarrier implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        if (call.op() != CollectiveOp.BARRIER) {
            throw new IllegalArgumentException("dissemination runs Barrier only, not " + call.op().title());
        }
    }

    /** Rounds on n ranks: ceil(log2 n). */
    public static int rounds(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        // heard[i]: every round's message rank i has received so far; its next message vouches for all of them.
        List<List<Integer>> heard = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            heard.add(new ArrayList<>());
        }
        for (int k = 0; k < rounds(n); k++) {
            int distance = 1 << k;
            int[] next = new int[n];
            for (int i = 0; i < n; i++) {
                int to = (i + distance) % n;
                next[to] = schedule.send(schedule.connection(0, i, to), 1,
                        heard.get(i).stream().mapToInt(Integer::intValue).toArray());
            }
            for (int i = 0; i < n; i++) {
                heard.get(i).add(next[i]);
            }
        }
        return schedule.done();
    }
}
