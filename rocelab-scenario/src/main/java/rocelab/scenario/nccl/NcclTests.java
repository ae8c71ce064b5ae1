package rocelab.scenario.nccl;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.PairSizes;
import rocelab.workload.graph.WorkloadDriver;
import rocelab.workload.traffic.CollectiveTraffic;

/**
 * nccl-tests over a simulated fabric: one size of one collective, run {@code warmup + iters} times back to back on
 * every host of the scenario's topology (its own traffic replaced), timed over the last {@code iters} runs the way
 * nccl-tests times them, with its algbw and busbw definitions.
 */
public final class NcclTests {
    /** Bytes of one element: nccl-tests' default type is float. */
    public static final int WORD = 4;

    /**
     * What nccl-tests trims each rank's share of a divided buffer to a multiple of (AllGather, ReduceScatter, AlltoAll,
     * AlltoAllv: {@code (count/nranks) & ~(16/eltSize - 1)} in their {@code GetCollByteCount}), so that every rank's
     * part starts aligned for the GPU whatever the number of ranks.
     */
    public static final int PER_RANK_ALIGN_BYTES = 16;

    /**
     * How to run: the algorithm (NCCL_ALGO), channels per collective, the root of Broadcast and Reduce, queue pairs
     * per connection (NCCL_IB_QPS_PER_CONNECTION), and for AlltoAllv the Zipf exponent of its destinations (0: even)
     * and the seed that places the hot ones.
     */
    public record Options(Algorithm algorithm, int channels, int root, int qpsPerConnection, double zipf,
            long skewSeed) {
        public Options(Algorithm algorithm, int channels, int root) {
            this(algorithm, channels, root, 1, 0, 1);
        }
    }

    /**
     * nccl-tests' {@code -a}: how the ranks' own times (each from the barrier to its own last iteration's end) make
     * the one reported, as its {@code Allreduce(args, &deltaSec, average)}: rank 0's, their mean (its default), the
     * least or the most.
     */
    public enum Average {
        RANK0, AVG, MIN, MAX;

        /** By nccl-tests' number, 0..3. */
        public static Average of(int code) {
            return values()[code];
        }
    }

    /** One line of the table; {@code completed} is false if the run ended before the last iteration did. */
    public record Row(long sizeBytes, long count, double timeUs, double algbwGBps, double busbwGBps,
            boolean completed) {}

    private NcclTests() {}

    /** Ranks the scenario offers: every host of its topology. */
    public static int ranks(ScenarioConfig fabric) {
        return fabric.topology().hostCount();
    }

    /**
     * The size nccl-tests would actually run for a requested size: whole elements, and for AllGather, ReduceScatter,
     * AlltoAll and AlltoAllv each rank's share a multiple of {@link #PER_RANK_ALIGN_BYTES} (12 ranks, 1 MiB: 21,844
     * elements per rank, 1,048,512 bytes); 0 when not even that fits.
     */
    public static long alignedSize(CollectiveOp op, long requested, int ranks) {
        long elements = requested / WORD;
        return switch (op) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, ALL_TO_ALLV ->
                (elements / ranks & -(PER_RANK_ALIGN_BYTES / WORD)) * ranks * WORD;
            default -> elements * WORD;
        };
    }

    /** The smallest size nccl-tests runs {@code op} with on {@code ranks} ranks (see {@link #alignedSize}). */
    public static long smallestSize(CollectiveOp op, int ranks) {
        return op.totalFromPerRank(1, ranks) == 1 ? WORD : (long) PER_RANK_ALIGN_BYTES * ranks;
    }

    /** Runs one size; {@code size} must come from {@link #alignedSize}. */
    public static Row measure(ScenarioConfig fabric, CollectiveOp op, long size, int warmup, int iters, Options o) {
        return measure(fabric, op, size, warmup, iters, o, ProgressListener.NONE);
    }

    /**
     * Runs one size, reporting the simulation's progress, timed until the last rank is done ({@link Average#MAX}, the
     * whole collective's time); {@code size} must come from {@link #alignedSize}.
     */
    public static Row measure(ScenarioConfig fabric, CollectiveOp op, long size, int warmup, int iters, Options o,
            ProgressListener progress) {
        return measure(fabric, op, size, warmup, iters, o, Average.MAX, progress);
    }

    /** Runs one size with the ranks' times combined as nccl-tests' {@code -a} says. */
    public static Row measure(ScenarioConfig fabric, CollectiveOp op, long size, int warmup, int iters, Options o,
            Average average, ProgressListener progress) {
        int n = ranks(fabric);
        Collective call = call(op, n, size, o);
        // nccl-tests synchronises every rank after the warm-up and only then starts its timer: the timed runs start
        // together (without the barrier, ranks done early began the timed runs before the timer, and a pipelined
        // broadcast's single timed run came out 4 % below its own lower bound).
        CollectiveTraffic runs = new CollectiveTraffic(call, 0, warmup + iters, warmup);
        Simulation sim = Simulation.assemble(fabric.withTraffic(List.of(runs)));
        sim.run(progress);
        WorkloadDriver d = sim.driver();
        int[][] done = sim.collectiveTasks().get(0).done();
        // Timing starts when the warm-up is over everywhere, at the barrier the timed runs wait for.
        long from = warmup == 0 ? 0 : latest(d, done[warmup - 1]);
        int[] last = done[done.length - 1];
        boolean completed = latest(d, last) >= 0;
        // Each rank's timer runs from the barrier to its own end; nccl-tests combines the ranks' times after.
        double[] rankPs = new double[last.length];
        for (int r = 0; r < last.length; r++) {
            rankPs[r] = d.taskEndPs(last[r]) - from;
        }
        double ps = switch (average) {
            case RANK0 -> rankPs[0];
            case AVG -> Arrays.stream(rankPs).average().orElse(0);
            case MIN -> Arrays.stream(rankPs).min().orElse(0);
            case MAX -> Arrays.stream(rankPs).max().orElse(0);
        };
        double seconds = ps / 1e12 / iters;
        long s = call.sizeBytes();
        double algbw = s / seconds / 1e9;
        return new Row(s, count(op, s, n), seconds * 1e6, algbw, algbw * op.busFactor(n), completed);
    }

    /**
     * The {@code count} column as nccl-tests prints it: the element count each rank passes to the NCCL call (its
     * {@code paramcount}), which for AllGather, ReduceScatter and AlltoAll is the per-rank share of the size (the
     * size column being the larger buffer), for the others the whole size in elements. AlltoAllv (not an nccl-tests
     * binary) counts as AlltoAll does, per peer of its size (the largest send or receive): an audit's uniform
     * AlltoAllv on 16 ranks read 16 times AlltoAll's count for the same traffic.
     */
    public static long count(CollectiveOp op, long sizeBytes, int ranks) {
        long elements = sizeBytes / WORD;
        return switch (op) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, ALL_TO_ALLV -> elements / ranks;
            default -> elements;
        };
    }

    /**
     * The call nccl-tests makes for {@code size} on n ranks (every host a rank, in host order). For AlltoAllv,
     * {@code size} is what each rank sends (itself included) before the skew, and the call's size is the nccl-tests
     * one, the largest send or receive.
     */
    public static Collective call(CollectiveOp op, int n, long size, Options o) {
        int[] ranks = IntStream.range(0, n).toArray();
        if (op == CollectiveOp.ALL_TO_ALLV) {
            PairSizes pairs = o.zipf() == 0 ? PairSizes.uniform(n, size) : PairSizes.zipf(n, size, o.zipf(),
                    o.skewSeed());
            return new Collective(op, o.algorithm(), ranks, pairs.ncclSize(), 0, o.channels(), -1,
                    o.qpsPerConnection(), pairs);
        }
        return new Collective(op, o.algorithm(), ranks, size, o.root(), o.channels(), -1, o.qpsPerConnection(), null);
    }

    /** When the last of these tasks ended, or -1 if one has not. */
    private static long latest(WorkloadDriver d, int[] tasks) {
        long t = 0;
        for (int task : tasks) {
            if (d.taskEndPs(task) < 0) {
                return -1;
            }
            t = Math.max(t, d.taskEndPs(task));
        }
        return t;
    }
}
