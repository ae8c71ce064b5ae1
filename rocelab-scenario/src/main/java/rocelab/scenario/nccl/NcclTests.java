package rocelab.scenario.nccl;

import java.util.List;
import java.util.stream.IntStream;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
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

    /** How to run: the algorithm (NCCL_ALGO), channels per collective and the root of Broadcast and Reduce. */
    public record Options(Algorithm algorithm, int channels, int root) {}

    /** One line of the table; {@code completed} is false if the run ended before the last iteration did. */
    public record Row(long sizeBytes, long count, double timeUs, double algbwGBps, double busbwGBps,
            boolean completed) {}

    private NcclTests() {}

    /** Ranks the scenario offers: every host of its topology. */
    public static int ranks(ScenarioConfig fabric) {
        return fabric.topology().hostCount();
    }

    /**
     * The size nccl-tests would actually run for a requested size: whole elements, and for AllGather, ReduceScatter
     * and AlltoAll whole elements per rank; 0 when not even that fits.
     */
    public static long alignedSize(CollectiveOp op, long requested, int ranks) {
        long unit = op.totalFromPerRank(WORD, ranks);
        long size = requested / unit * unit;
        return size >= unit ? size : 0;
    }

    /** Runs one size; {@code size} must come from {@link #alignedSize}. */
    public static Row measure(ScenarioConfig fabric, CollectiveOp op, long size, int warmup, int iters, Options o) {
        int n = ranks(fabric);
        int[] ranks = IntStream.range(0, n).toArray();
        Collective call = new Collective(op, o.algorithm(), ranks, size, o.root(), o.channels(), -1);
        CollectiveTraffic runs = new CollectiveTraffic(call, 0, warmup + iters);
        Simulation sim = Simulation.assemble(fabric.withTraffic(List.of(runs)));
        sim.run(ProgressListener.NONE);
        WorkloadDriver d = sim.driver();
        int[][] done = sim.collectiveTasks().get(0).done();
        // Timing starts when the warm-up is over everywhere (nccl-tests synchronises before it starts its timer).
        long from = warmup == 0 ? 0 : latest(d, done[warmup - 1]);
        long to = latest(d, done[done.length - 1]);
        boolean completed = to >= 0;
        double seconds = (to - from) / 1e12 / iters;
        double algbw = size / seconds / 1e9;
        return new Row(size, size / WORD, seconds * 1e6, algbw, algbw * op.busFactor(n), completed);
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
