package rocelab.workload.collective;

import rocelab.workload.graph.TaskGraph;

/**
 * Rabenseifner's halving-doubling, in ASTRA-sim's order (HalvingDoubling.cc). The buffer of each channel is cut into
 * p blocks (p the number of ranks taking part, a power of two). ReduceScatter by recursive halving: at step k = 0,
 * 1, ..., log2 p - 1 rank r sends to r XOR 2^k the half of its working set that the partner keeps (S/2, S/4, ...,
 * S/p; the biggest message to the nearest partner) after the previous step's data has arrived. AllGather by
 * recursive doubling, the mirror: partners at distance p/2, ..., 2, 1, sending everything gathered so far (S/p,
 * 2S/p, ..., S/2). AllReduce is the one then the other: 2 log2 p steps, 2(p-1)/p x S per rank. For an AllReduce
 * over a number of ranks N that is not a power of two, the first 2(N-p) ranks fold in pairs first (each even one
 * sends its whole buffer to the odd one after it, which reduces it and takes part; the even one waits) and unfold
 * at the end (the odd one sends the result back): two more steps. AllGather and ReduceScatter need a power of two.
 */
public final class HalvingDoublingAlgorithm implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        int n = call.rankCount();
        if (call.op() != CollectiveOp.ALL_REDUCE && Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException(call.op().title() + " halving-doubling needs a power-of-two number of "
                    + "ranks, got " + n + "; expected 2, 4, 8, ... ranks, or algorithm ring");
        }
    }

    /** Steps of a call on n ranks: 2 log2 p (+2 to fold when N is not a power of two), or log2 N. */
    public static int steps(CollectiveOp op, int n) {
        int log = 31 - Integer.numberOfLeadingZeros(n);
        return switch (op) {
            case ALL_REDUCE -> 2 * log + (Integer.bitCount(n) == 1 ? 0 : 2);
            case ALL_GATHER, REDUCE_SCATTER -> log;
            default -> throw new IllegalArgumentException("no halving-doubling schedule for " + op.title());
        };
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry);
        int n = call.rankCount();
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        int log = Integer.numberOfTrailingZeros(p);
        int channels = Collectives.usefulChannels(call);
        boolean reduce = call.op() != CollectiveOp.ALL_GATHER;
        boolean gather = call.op() != CollectiveOp.REDUCE_SCATTER;
        for (int c = 0; c < channels; c++) {
            long channelBytes = Collective.part(call.sizeBytes(), channels, c);
            long[] block = new long[p];
            for (int b = 0; b < p; b++) {
                block[b] = Collective.part(channelBytes, p, b);
            }
            // arrived[v]: the last message participant v received, which its next send waits for.
            int[] arrived = new int[p];
            java.util.Arrays.fill(arrived, -1);
            for (int i = 0; i < 2 * rem; i += 2) {
                arrived[i / 2] = schedule.send(schedule.connection(c, i, i + 1), channelBytes);
            }
            if (reduce) {
                for (int k = 0; k < log; k++) {
                    arrived = exchange(schedule, c, block, arrived, rem, 1 << k, k, false);
                }
            }
            if (gather) {
                for (int k = log - 1; k >= 0; k--) {
                    arrived = exchange(schedule, c, block, arrived, rem, 1 << k, k + 1, true);
                }
            }
            for (int i = 0; i < 2 * rem; i += 2) {
                schedule.send(schedule.connection(c, i + 1, i), channelBytes, arrived[i / 2]);
            }
        }
        return schedule.done();
    }

    /**
     * One step among the p participants: v sends to v XOR {@code distance} the blocks b whose lowest {@code bits}
     * bits equal v's (gathering: what v holds) or those of them the partner keeps (halving: bit log2(distance) is
     * the partner's). Returns, per participant, the message it received.
     */
    private static int[] exchange(Schedule s, int channel, long[] block, int[] arrived, int rem, int distance,
            int bits, boolean gathering) {
        int p = block.length;
        int[] received = new int[p];
        int mask = bits == 0 ? 0 : (1 << bits) - 1;
        for (int v = 0; v < p; v++) {
            int partner = v ^ distance;
            long bytes = 0;
            for (int b = 0; b < p; b++) {
                boolean held = (b & mask) == (v & mask);
                boolean theirs = gathering || (b & distance) == (partner & distance);
                if (held && theirs) {
                    bytes += block[b];
                }
            }
            received[partner] = s.send(s.connection(channel, rank(v, rem), rank(partner, rem)), bytes, arrived[v]);
        }
        return received;
    }

    /** The rank index of participant v: the odd one of a folded pair, or the rank past the folded ones. */
    static int rank(int v, int rem) {
        return v < rem ? 2 * v + 1 : v + rem;
    }
}
