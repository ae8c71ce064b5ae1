package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskSource;

/**
 * A ring collective (AllReduce, AllGather, ReduceScatter by the ring, or their hierarchical form) written into a
 * streamed {@link TaskGraph} one step at a time: each part is one step of every ring of the current phase (all rails
 * of the hierarchical AllReduce's phase across the servers together, then the next step), so the graph holds a few
 * steps, not the 268 million messages of a 32,768-GPU AllReduce. The tasks are the ones {@link RingAlgorithm} and
 * {@link HierarchicalAlgorithm} write, with the same dependencies; only their order (so their ids) differs: the
 * whole-graph emission writes one ring after the other, which a window cannot hold.
 */
public final class StreamedCollective implements TaskSource {
    private final Collective call;
    private final long startPs;
    private final int iterations;
    /**
     * One communicator for every phase and run, as {@link rocelab.workload.traffic.CollectiveTraffic#emit} and
     * {@link HierarchicalAlgorithm#emit} keep one: each run sends over the first run's queue pairs.
     */
    private final Communicator communicator = Communicator.kept();
    private List<HierarchicalAlgorithm.Phase> phases;
    private int startTask = -1;
    private int iteration;
    private int phase;
    /** Each rank's task the current phase starts after (the previous phase's done, or the start). */
    private int[] entry;
    private int[] lastDone;
    // The current phase: its rings' schedules and connections per channel, the step, and the previous step's tasks.
    private Schedule[] schedules;
    private Schedule.Connection[][][] connections;
    private long[][] channelBytes;
    private int[][][] previous;
    private int steps;
    private int step = -1;
    private boolean finished;

    /** The call run {@code iterations} times back to back from {@code startPs} (as a collective traffic item). */
    public StreamedCollective(Collective call, long startPs, int iterations) {
        if (!supports(call)) {
            throw new IllegalArgumentException(call.op().title() + " by " + call.algorithm().key()
                    + " cannot be streamed; expected a ring or hierarchical AllReduce, AllGather or ReduceScatter");
        }
        this.call = call;
        this.startPs = startPs;
        this.iterations = iterations;
    }

    /** Whether a call can be streamed: the ring and hierarchical forms of AllReduce, AllGather, ReduceScatter. */
    public static boolean supports(Collective call) {
        boolean ringOp = call.op() == CollectiveOp.ALL_REDUCE || call.op() == CollectiveOp.ALL_GATHER
                || call.op() == CollectiveOp.REDUCE_SCATTER;
        return ringOp && (call.algorithm() == Algorithm.RING || call.algorithm() == Algorithm.HIERARCHICAL);
    }

    @Override
    public int largestPart() {
        // One step of every ring: one message per rank and channel, or the done joins of a phase (one per rank).
        return (int) Math.min(Integer.MAX_VALUE / 2, (long) call.rankCount() * Math.max(1, call.channels()) + 64);
    }

    @Override
    public boolean emitMore(TaskGraph graph) {
        if (finished) {
            return false;
        }
        if (startTask < 0) {
            startTask = graph.at(startPs, -1);
            entry = new int[call.rankCount()];
            Arrays.fill(entry, startTask);
            phases = call.algorithm() == Algorithm.HIERARCHICAL ? HierarchicalAlgorithm.plan(graph, call) : null;
            if (phases == null) {
                phases = List.of(new HierarchicalAlgorithm.Phase(call.op(), call.sizeBytes(),
                        List.of(identity(call.rankCount()))));
            }
            return true;
        }
        if (step < 0) {
            open(graph);
            return true;
        }
        if (step < steps) {
            for (int r = 0; r < schedules.length; r++) {
                for (int c = 0; c < connections[r].length; c++) {
                    previous[r][c] = RingAlgorithm.step(schedules[r], connections[r][c], channelBytes[r][c], step,
                            previous[r][c]);
                }
            }
            step++;
            return true;
        }
        // The phase's done joins: each rank's part of it finished.
        HierarchicalAlgorithm.Phase p = phases.get(phase);
        int[] next = new int[call.rankCount()];
        for (int r = 0; r < schedules.length; r++) {
            int[] members = p.rings().get(r);
            int[] done = schedules[r].done();
            for (int i = 0; i < members.length; i++) {
                next[members[i]] = done[i];
            }
        }
        entry = next;
        step = -1;
        schedules = null;
        connections = null;
        previous = null;
        if (++phase == phases.size()) {
            phase = 0;
            lastDone = next;
            if (++iteration == iterations) {
                finished = true;
            }
        }
        return true;
    }

    /** Opens the current phase: a schedule and the connections of every ring, in {@link RingAlgorithm}'s order. */
    private void open(TaskGraph graph) {
        HierarchicalAlgorithm.Phase p = phases.get(phase);
        int rings = p.rings().size();
        schedules = new Schedule[rings];
        connections = new Schedule.Connection[rings][][];
        channelBytes = new long[rings][];
        previous = new int[rings][][];
        steps = -1;
        for (int r = 0; r < rings; r++) {
            int[] members = p.rings().get(r);
            Collective ring = call.algorithm() == Algorithm.HIERARCHICAL && phases.size() > 1
                    ? HierarchicalAlgorithm.ring(call, p, members) : call;
            int[] entries = new int[members.length];
            for (int i = 0; i < members.length; i++) {
                entries[i] = entry[members[i]];
            }
            schedules[r] = new Schedule(graph, ring, entries, communicator);
            int n = ring.rankCount();
            int s = RingAlgorithm.steps(ring.op(), n);
            if (steps >= 0 && s != steps) {
                throw new IllegalStateException("the rings of one phase have different steps");
            }
            steps = s;
            int channels = Collectives.usefulChannels(ring);
            connections[r] = new Schedule.Connection[channels][n];
            channelBytes[r] = new long[channels];
            previous[r] = new int[channels][];
            for (int c = 0; c < channels; c++) {
                channelBytes[r][c] = Collective.part(ring.sizeBytes(), channels, c);
                for (int i = 0; i < n; i++) {
                    connections[r][c][i] = schedules[r].connect(i, (i + 1) % n);
                }
            }
        }
        step = 0;
    }

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /** The start marker task (after the first part). */
    public int startTask() {
        return startTask;
    }

    /** Each rank's done task of the last run, once every part has been added (null before). */
    public int[] lastDone() {
        return finished ? lastDone : null;
    }

    public Collective call() {
        return call;
    }
}
