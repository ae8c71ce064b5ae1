package rocelab.workload.collective;

import rocelab.workload.graph.TaskGraph;

/**
 * NCCL's ring for AllReduce, AllGather and ReduceScatter, per channel: the buffer of the channel is cut into N
 * chunks; at every step each rank writes one chunk to its ring successor and goes on to its next step when the
 * chunk of the previous step has arrived from its predecessor. AllReduce is 2(N-1) steps (reduce-scatter, then
 * all-gather), AllGather and ReduceScatter N-1 steps. Each ring connection of each channel is one queue pair. Per
 * rank this moves exactly steps x S/N bytes, so on a non-blocking fabric the time is steps x (S/N / B + step
 * latency) and the bus bandwidth approaches the payload rate of one link.
 */
public final class RingAlgorithm implements CollectiveAlgorithm {
    /** Ring steps of a collective on n ranks. */
    public static int steps(CollectiveOp op, int n) {
        return switch (op) {
            case ALL_REDUCE -> 2 * (n - 1);
            case ALL_GATHER, REDUCE_SCATTER -> n - 1;
            default -> throw new IllegalArgumentException("no ring schedule for " + op.title());
        };
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        Schedule schedule = new Schedule(graph, call, entry, communicator);
        int n = call.rankCount();
        int steps = steps(call.op(), n);
        int channels = Collectives.usefulChannels(call);
        for (int c = 0; c < channels; c++) {
            long channelBytes = Collective.part(call.sizeBytes(), channels, c);
            Schedule.Connection[] connection = new Schedule.Connection[n];
            for (int i = 0; i < n; i++) {
                connection[i] = schedule.connect(i, (i + 1) % n);
            }
            int[] previous = null;
            for (int s = 0; s < steps; s++) {
                previous = step(schedule, connection, channelBytes, s, previous);
            }
        }
        return schedule.done();
    }

    /**
     * Step {@code s} of one channel of a ring: every rank writes its chunk to its successor, after the chunk of step
     * s - 1 arrived from its predecessor ({@code previous}, null at step 0). Returns the step's flow tasks.
     */
    static int[] step(Schedule schedule, Schedule.Connection[] connection, long channelBytes, int s, int[] previous) {
        int n = connection.length;
        int[] current = new int[n];
        for (int i = 0; i < n; i++) {
            // At step s rank i forwards chunk (i - s) mod N: its own at step 0, then what it just received.
            long bytes = Collective.part(channelBytes, n, Math.floorMod(i - s, n));
            current[i] = previous == null ? schedule.send(connection[i], bytes)
                    : schedule.send(connection[i], bytes, previous[Math.floorMod(i - 1, n)]);
        }
        return current;
    }
}
