package rocelab.scenario.nccl;

import java.util.List;
import java.util.stream.IntStream;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.workload.traffic.RingCollectiveTraffic;

/**
 * nccl-tests over a simulated fabric: one size of one collective, run {@code warmup + iters} times back to back on
 * every host of the scenario's topology (its own traffic replaced), timed over the last {@code iters} runs the way
 * nccl-tests times them, with its algbw and busbw definitions.
 */
public final class NcclTests {
    /** Bytes of one element: nccl-tests' default type is float. */
    public static final int WORD = 4;

    /** The nccl-tests binaries rocelab can stand in for, named without {@code _perf}. */
    public enum Op {
        ALL_REDUCE("all_reduce", RingCollectiveTraffic.Op.ALL_REDUCE, "sum"),
        ALL_GATHER("all_gather", RingCollectiveTraffic.Op.ALL_GATHER, "none"),
        REDUCE_SCATTER("reduce_scatter", RingCollectiveTraffic.Op.REDUCE_SCATTER, "sum");

        private final String key;
        private final RingCollectiveTraffic.Op ring;
        private final String redop;

        Op(String key, RingCollectiveTraffic.Op ring, String redop) {
            this.key = key;
            this.ring = ring;
            this.redop = redop;
        }

        public String key() {
            return key;
        }

        public String redop() {
            return redop;
        }

        public static Op of(String key) {
            for (Op op : values()) {
                if (op.key.equals(key)) {
                    return op;
                }
            }
            return null;
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
     * The size nccl-tests would actually run for a requested size: whole elements, and for AllGather and
     * ReduceScatter whole elements per rank; 0 when not even one element per rank fits.
     */
    public static long alignedSize(Op op, long requested, int ranks) {
        long unit = op == Op.ALL_REDUCE ? WORD : (long) WORD * ranks;
        long size = requested / unit * unit;
        // The ring splits the buffer into one chunk per rank, so it needs at least one byte per rank.
        return size >= Math.max(unit, ranks) ? size : 0;
    }

    /** Runs one size; {@code size} must come from {@link #alignedSize}. */
    public static Row measure(ScenarioConfig fabric, Op op, long size, int warmup, int iters) {
        int n = ranks(fabric);
        int[] ranks = IntStream.range(0, n).toArray();
        RingCollectiveTraffic runs = new RingCollectiveTraffic(op.ring, ranks, size, 0, warmup + iters);
        RunResult r = Simulation.assemble(fabric.withTraffic(List.of(runs))).run(ProgressListener.NONE);
        List<FlowRecord> flows = r.flows();
        int perRun = runs.steps() * n;
        // Timing starts when the warm-up is over everywhere (nccl-tests synchronises before it starts its timer).
        long from = 0;
        for (int f = 0; f < warmup * perRun; f++) {
            from = Math.max(from, flows.get(f).deliveredPs());
        }
        long to = 0;
        boolean done = true;
        for (FlowRecord f : flows) {
            done &= f.deliveredPs() >= 0;
            to = Math.max(to, f.deliveredPs());
        }
        double seconds = (to - from) / 1e12 / iters;
        double algbw = size / seconds / 1e9;
        return new Row(size, size / WORD, seconds * 1e6, algbw, algbw * op.ring.busFactor(n), done);
    }
}
