package rocelab.workload.traffic;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.Collectives;
import rocelab.workload.collective.Communicator;
import rocelab.workload.graph.TaskGraph;

/**
 * A collective as a traffic item: the call, started at {@code startPs} and run {@code iterations} times back to
 * back (each rank starts run k+1 as soon as its part of run k is done, as nccl-tests' loop does).
 */
public record CollectiveTraffic(Collective call, long startPs, int iterations, int barrierAfter)
        implements TrafficSpec {
    /**
     * @param barrierAfter after this many runs every rank waits until all have finished them before the next run
     *     starts (0: none, each rank goes on as soon as its own part is done): nccl-tests synchronises after its
     *     warm-up before it starts its timer
     */
    public CollectiveTraffic {
        if (iterations < 1) {
            throw new IllegalArgumentException("a collective runs at least once");
        }
        if (startPs < 0) {
            throw new IllegalArgumentException("start must not be negative");
        }
        if (barrierAfter < 0 || barrierAfter >= iterations && barrierAfter != 0) {
            throw new IllegalArgumentException("a barrier after run " + barrierAfter + " of " + iterations);
        }
    }

    public CollectiveTraffic(Collective call, long startPs, int iterations) {
        this(call, startPs, iterations, 0);
    }

    public CollectiveTraffic(Collective call, long startPs) {
        this(call, startPs, 1);
    }

    /** Tasks of one item in a graph: the start marker and, per iteration, each rank's done task. */
    public record Emitted(int startTask, int firstTask, int endTask, int[][] done) {}

    /** Adds every run to the graph. */
    public Emitted emit(TaskGraph graph) {
        int first = graph.taskCount();
        int start = graph.at(startPs, -1);
        int n = call.rankCount();
        int[] entry = new int[n];
        Arrays.fill(entry, start);
        int[][] done = new int[iterations][];
        // One communicator for every run, as nccl-tests' loop: each run reuses the first run's queue pairs.
        Communicator communicator = Communicator.kept();
        for (int k = 0; k < iterations; k++) {
            done[k] = Collectives.emit(graph, call, entry, communicator);
            entry = done[k];
            if (k + 1 == barrierAfter) {
                // Every rank enters the next run only when all have finished this one.
                int all = graph.join(-1, done[k]);
                entry = new int[n];
                Arrays.fill(entry, all);
            }
        }
        return new Emitted(start, first, graph.taskCount(), done);
    }

    @Override
    public void addTo(TaskGraph graph, int hostCount, SplittableRandom random) {
        emit(graph);
    }

    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        TaskGraph g = new TaskGraph();
        emit(g);
        return g.flows();
    }

    @Override
    public long flowCount(int hostCount) {
        long perRun = Collectives.estimatedMessages(call);
        return perRun > Long.MAX_VALUE / iterations ? Long.MAX_VALUE : perRun * iterations;
    }

    @Override
    public int maxHostIndex() {
        int max = -1;
        for (int r : call.ranks()) {
            max = Math.max(max, r);
        }
        return max;
    }

    @Override
    public long earliestStartPs() {
        return startPs;
    }
}
