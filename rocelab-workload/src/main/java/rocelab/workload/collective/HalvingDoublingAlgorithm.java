package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.List;
import rocelab.workload.graph.TaskGraph;

/**
 * Rabenseifner's halving-doubling, in ASTRA-sim's order (HalvingDoubling.cc). The buffer of each channel is cut into
 * p blocks (p the number of ranks taking part, a power of two). ReduceScatter by recursive halving: at step k = 0,
 * 1, ..., log2 p - 1 rank r sends to r XOR 2^k the half of its working set that the partner keeps (S/2, S/4, ...,
 * S/p; the biggest message to the nearest partner) after the data of every earlier step has arrived. AllGather by
 * recursive doubling, the mirror: partners at distance p/2, ..., 2, 1, sending everything gathered so far (S/p,
 * 2S/p, ..., S/2). AllReduce is the one then the other: 2 log2 p steps, 2(p-1)/p x S per rank. For an AllReduce
 * over a number of ranks N that is not a power of two, the first 2(N-p) ranks fold in pairs first (each even one
 * sends its whole buffer to the odd one after it, which reduces it and takes part; the even one waits) and unfold
 * at the end (the odd one sends the result back): two more steps. AllGather and ReduceScatter need a power of two.
 * <p>
 * As {@link Algorithm#RECURSIVE_DOUBLING} (AllReduce only, for latency-bound sizes): the same partners and folding,
 * but every step exchanges the whole buffer: log2 p steps (+2), S log2 p bytes per rank.
 */
public final class HalvingDoublingAlgorithm implements CollectiveAlgorithm {
    private final boolean wholeBuffer;

    /** Halving-doubling; with {@code wholeBuffer}, recursive doubling of the whole buffer (AllReduce). */
    public HalvingDoublingAlgorithm(boolean wholeBuffer) {
        this.wholeBuffer = wholeBuffer;
    }

    public HalvingDoublingAlgorithm() {
        this(false);
    }

    @Override
    public void check(Collective call) {
        int n = call.rankCount();
        if (wholeBuffer && call.op() != CollectiveOp.ALL_REDUCE) {
            throw new IllegalArgumentException("recursive doubling runs AllReduce only, not " + call.op().title());
        }
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
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        check(call);
        Schedule schedule = new Schedule(graph, call, entry, communicator);
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
            // held[v]: every message participant v has received so far; its next send carries data reduced or
            // gathered from all of them, so it waits for all of them (not only the last one).
            Received held = new Received(p);
            for (int i = 0; i < 2 * rem; i += 2) {
                held.add(i / 2, schedule.send(schedule.connection(c, i, i + 1), channelBytes));
            }
            if (wholeBuffer) {
                for (int k = 0; k < log; k++) {
                    int[] got = new int[p];
                    for (int v = 0; v < p; v++) {
                        int partner = v ^ (1 << k);
                        got[partner] = schedule.send(schedule.connection(c, rank(v, rem), rank(partner, rem)),
                                channelBytes, held.of(v));
                    }
                    held.addAll(got);
                }
            } else if (reduce) {
                for (int k = 0; k < log; k++) {
                    held.addAll(exchange(schedule, c, block, held, rem, 1 << k, k, false));
                }
            }
            if (gather && !wholeBuffer) {
                for (int k = log - 1; k >= 0; k--) {
                    held.addAll(exchange(schedule, c, block, held, rem, 1 << k, k + 1, true));
                }
            }
            for (int i = 0; i < 2 * rem; i += 2) {
                schedule.send(schedule.connection(c, i + 1, i), channelBytes, held.of(i / 2));
            }
        }
        return schedule.done();
    }

    /**
     * One step among the p participants: v sends to v XOR {@code distance} the blocks b whose lowest {@code bits}
     * bits equal v's (gathering: what v holds) or those of them the partner keeps (halving: bit log2(distance) is
     * the partner's). Returns, per participant, the message it received.
     */
    private static int[] exchange(Schedule s, int channel, long[] block, Received held, int rem, int distance,
            int bits, boolean gathering) {
        int p = block.length;
        int[] received = new int[p];
        int mask = bits == 0 ? 0 : (1 << bits) - 1;
        for (int v = 0; v < p; v++) {
            int partner = v ^ distance;
            long bytes = 0;
            for (int b = 0; b < p; b++) {
                boolean mine = (b & mask) == (v & mask);
                boolean theirs = gathering || (b & distance) == (partner & distance);
                if (mine && theirs) {
                    bytes += block[b];
                }
            }
            received[partner] = s.send(s.connection(channel, rank(v, rem), rank(partner, rem)), bytes, held.of(v));
        }
        return received;
    }

    /** The messages each participant has received so far. */
    private static final class Received {
        private final List<List<Integer>> of = new ArrayList<>();

        Received(int participants) {
            for (int v = 0; v < participants; v++) {
                of.add(new ArrayList<>());
            }
        }

        void add(int v, int task) {
            of.get(v).add(task);
        }

        /** Adds message {@code got[v]} to each participant v. */
        void addAll(int[] got) {
            for (int v = 0; v < got.length; v++) {
                add(v, got[v]);
            }
        }

        int[] of(int v) {
            return of.get(v).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** The rank index of participant v: the odd one of a folded pair, or the rank past the folded ones. */
    static int rank(int v, int rem) {
        return v < rem ? 2 * v + 1 : v + rem;
    }
}
