package rocelab.workload.flow;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.Rates;
import rocelab.engine.Saturating;
import rocelab.engine.Time;
import rocelab.fabric.network.PathTiming;
import rocelab.workload.graph.Dependents;
import rocelab.workload.graph.LocalLinks;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;

/**
 * The ideal network as a lower bound: for every task of a {@link TaskGraph}, a time before which no run on any fabric
 * whose RNICs and NVLink ports have the {@link IdealNetwork}'s capacities can finish it, whatever the schedule. It is a
 * relaxation, not a simulation: no sharing rule is assumed, so no sharing rule can beat it (the packet level's queue
 * pairs taking turns included, which a max-min fair fluid is not a bound of).
 *
 * <ul>
 *   <li><b>Earliest finish along dependencies.</b> A task starts no earlier than its earliest start and than every
 *       task it waits on; a compute or delay task then takes its duration; a message takes its time alone: every
 *       wire byte (real headers, {@link PathTiming#wireBytes}) at the slowest link of its path, plus the path's
 *       fixed latency ({@link PathTiming#deliveryLatencyPs}); its ACK the path's ACK latency after that. An NVLink
 *       transfer takes its bytes at the NVLink rate plus the NVLink latency. A message on a connection is sent no
 *       earlier than the one added before it on that connection has left the sender's RNIC (an NVLink transfer: the
 *       sending GPU's NVLink).</li>
 *   <li><b>Port work.</b> Messages through one port (an RNIC's egress or ingress, a GPU's NVLink out or in) are
 *       served by one server of the port's rate. Each message j of a set is a job of one machine with a head r_j (the
 *       earliest time its bits can be at the port: its earliest send, plus at an ingress port the latency before it),
 *       a processing time (its wire bytes at the port's rate) and a tail q_j (the least time from its last bit at the
 *       port to the end bounded); whatever order the port serves them in, sliced as finely as its frames, the end is
 *       no earlier than the optimum of 1|r_j, q_j, pmtn|Cmax, which Jackson's preemptive schedule (at every release,
 *       the released job with the largest tail) reaches exactly ({@link #jacksonPs}). It is applied where the last
 *       of a set is what counts: every task that waits on two or more transfers directly (a join: over those
 *       transfers, and again with each connection's messages up to the latest it waits on; tails are the latency
 *       to the join; its bound then propagates to everything after it), and the groups the outputs report
 *       ({@link #lastEndPs}: a collective call, an iteration, a job, a request, all the traffic), over the transfers
 *       the group's end waits on: those it depends on, and on each connection every message added before one of
 *       those (a queue pair sends, delivers and completes in order, and a connection's messages are posted in the
 *       order they were added). There each tail also holds the longest chain of least durations (computes, delays,
 *       messages alone, ACKs) from the message to the group's end.</li>
 * </ul>
 *
 * <p>It ignores, as the ideal network does, everything between the RNICs: queues, ECN marks, rate cuts, pauses,
 * drops, ECMP collisions. Its message times are the closed form, so a flow alone, an incast into one port and a ring
 * AllReduce on one channel get their closed forms; with several queue pairs between two RNICs it is the work of the
 * ports, not a fair share of them, that bounds the time. Cost: one pass over the tasks in dependency order (each
 * join's transfers sorted and scheduled), and per reported group one walk over its tasks and one schedule per port.
 */
public final class IdealBound implements TaskTimes {
    private static final long NEVER = -1;

    private final TaskGraph graph;
    private final PathTiming timing;
    private final IdealNetwork network;
    private final int hosts;
    private final int[] groupOfTask;
    private final long[] rnicBps;
    /** Each RNIC's ingress: its rate, or its receive pipeline's ({@code nic.rx}) when slower. */
    private final long[] ingressBps;
    private final long nvlinkBps;
    private final long nvlinkLatencyPs;
    /** Whether a connection's series is also bounded at its path's slowest link ({@link #seriesAtBottleneckPs}). */
    private final boolean seriesAtBottleneck;
    private final long[] startPs;
    private final long[] endPs;
    private final long[] completedPs;
    private final int[] lateStart;
    private final int[] lateList;
    /**
     * Recent paths by (src, dst), direct-mapped: most workloads have far fewer host pairs than messages, and an
     * all-to-all of thousands of GPUs, which has millions, costs a walk of the switches' routes per miss rather than
     * a map of every pair. A pure cache: what it holds never changes a bound.
     */
    private static final int PATH_CACHE = 1 << 16;
    private Path[] paths = new Path[PATH_CACHE];
    private final long[] pathRates;
    private final long[] pathDelays;
    /** The widest one-path bottleneck of the pair {@link #path} asks for ({@link IdealNetwork#path}). */
    private final long[] onePathBps = new long[1];
    private Path[] pathOfConnection = new Path[64];
    /** Scratch: the held transfers the task being bounded waits on (dependencies as given, ACKs as acked). */
    private int[] joinDeps = new int[16];
    /** The last message size and its wire bytes: a collective's messages come in a few sizes. */
    private long wireSize = -1;
    private long wireOfSize;
    /**
     * The bound's serialisations, exact ({@link #serializationPs}): the NVLink rate's on a memo of their own, so that
     * the RNICs' and paths' rates (most of them whole picoseconds per byte) and NVLink's (20 / 9 ps per byte at
     * 3.6 Tb/s), which alternate from task to task, each keep theirs.
     */
    private final Rates.Memo serialization = new Rates.Memo();
    private final Rates.Memo nvlinkSerialization = new Rates.Memo();

    // Scratch for port-work bounds: one entry per (transfer, port).
    private int entries;
    private long[] entryKey = new long[64];
    private long[] entryRelease = new long[64];
    private long[] entryBytes = new long[64];
    private long[] entryTail = new long[64];
    private int[] order = new int[64];
    private int[] sortScratch = new int[64];
    private long[] packed = new long[64];
    // Scratch for walks over a group's dependencies: per task its index in the walk (a sparse set), per walk entry
    // its task and its tail (STOP for a task the walk does not go past); tasks whose tail grew after they were taken.
    private static final long STOP = -1;
    private final int[] mark;
    private int walked;
    private int[] walkTask = new int[64];
    private long[] walkTail = new long[64];
    /** Per walk entry, in a graph with promises: the tasks of the walk that raise its tail ({@link #passOnInOrder}). */
    private int[] walkWaits = new int[64];
    /**
     * Whether the current walk is dense: {@link #walkTail} and {@link #walkWaits} are then indexed by task less
     * {@link #walkBase} (not by discovery through {@link #mark}), {@link #ABSENT} for a task not in the walk, and the
     * walk's lowest and highest tasks are {@link #denseLow} and {@link #denseHigh}.
     */
    private boolean dense;
    private int walkBase;
    private int denseLow;
    private int denseHigh;
    private static final long ABSENT = Long.MIN_VALUE;
    /**
     * A group walk from the graph's first task, with no stops, whose ends reach at least this task id is made dense
     * ({@link #denseWalk}): a job's end walks back over most of tens of millions of tasks, where the sparse set's two
     * scattered accesses per wait (its slot, then the slot's entry) and its growing copies cost more than a sweep down
     * the task ids and two arrays that long. A walk cut at stops (an iteration from its gates, a call from its
     * entries) or above a lowest task (a request from its arrival) is likely to cover a small part of its span, which
     * the sweep and the arrays would pay for whole, once per group.
     */
    static final int DENSE_RANGE = 1 << 20;
    private int[] pending = new int[64];
    /** Tasks whose tails the last group walk passed on, repeats included: the walk's work (a test's measure). */
    private long passes;
    private long lastFinishPs = NEVER;
    /** Each connection's flow tasks in the order added, and each flow's position among them. */
    private final int[] connectionStart;
    private final int[] connectionTasks;
    private int[] positionOfFlow;
    /** Per flow: when its queue pair can start sending it; on its connection up to it, wire bytes and least latency. */
    private final long[] sendStartPs;
    private final long[] prefixBytes;
    private final long[] prefixLatencyPs;
    /**
     * Per connection: the next position the pass expects (-1: met out of order), when its queue pair is free, when
     * its first message was sent, the wire bytes and least latency of its messages so far (kept per connection, not
     * read back from its last flow: in a streamed graph that flow may have left the window, a connection being reused
     * by every run of a collective), and scratch for a join's latest message on it.
     */
    private int[] nextPosition;
    private long[] queuePairFreePs;
    private long[] firstSendPs;
    private long[] connectionBytes;
    private long[] connectionLatencyPs;
    private int[] connectionStamp;
    private int[] latestOnConnection;
    private boolean[] latestAcked;
    /**
     * A streamed graph ({@link #streamed}): the per-task and per-flow arrays are rings over the graph's window, indexed
     * with these masks (-1, the identity, for a whole graph); the tasks are given as they are added ({@link #advance}).
     */
    private final int taskMask;
    private final int flowMask;
    private final boolean streamed;
    /** Whether a small set is sorted in place and a port with one entry bounded in closed form. */
    private final boolean closedForms;
    private int processed;
    private long streamedLastFinishPs;

    /** A host pair's path on the ideal network: its links' rates and delays. */
    private record Path(int src, int dst, long[] rates, long[] delays, int hops, long bottleneckBps,
            long ackLatencyPs, long lastDelayPs, long fullFrameLatencyPs, int id, long receiveBps,
            boolean noPathHasHopBest) {}

    /**
     * Per flow, the id of its path (-1: none kept), set when the pass meets it: every later use of the flow (a join's
     * port work, a group walk's) reads its path from {@link #pathById} instead of looking it up by its connection or
     * host pair again, which cost three scattered reads per use (a quarter of a 4,096-GPU job's bound). A pure cache.
     */
    private final int[] pathOfFlow;
    /** The paths made, by id; at most {@link #KEPT_PATHS} (later ones get none: their flows look theirs up). */
    private Path[] pathById = new Path[64];
    private int pathCount;
    private static final int KEPT_PATHS = 1 << 18;

    /**
     * The bounds of every task of {@code graph} on {@code network}; {@code groupOfTask} (null: all one group) puts
     * tasks on copies of the capacities of their own, as if each group ran alone.
     */
    public IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask) {
        this(graph, network, hostCount, groupOfTask, null, true, List.of());
    }

    /**
     * As above, with the graph's {@link Dependents} already made (by the run's driver): the pass's order, which a
     * graph with promises needs, is taken from them instead of a second inverse of the dependencies.
     */
    public IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask, Dependents dependents) {
        this(graph, network, hostCount, groupOfTask, dependents, true, List.of());
    }

    /**
     * As above, and the end of each task of {@code ownEnds} bounded in the pass by a walk over everything it waits on
     * ({@link #lastEndPs}), before any task after it is bounded: what those take from it is then the work of every
     * port before it, not only of the ports of the transfers it waits on directly.
     */
    public IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask, Dependents dependents,
            List<OwnEnds> ownEnds) {
        this(graph, network, hostCount, groupOfTask, dependents, true, ownEnds);
    }

    /**
     * Tasks whose own ends the pass bounds by a walk back to {@code stops} (tasks the walk does not go past, their
     * bounds already final): a job's iteration ends, each rank's, walked back to the iteration before. Without them
     * a job of several iterations, whose ranks each wait on two streams sharing their RNIC (a tensor-parallel
     * AllReduce beside a data-parallel one), gets each iteration's heads from its dependencies alone, raised only at
     * joins by the ports of the transfers the join waits on directly; an audit found such a job's bound 0.47 ms (3 %)
     * below a hand bound over three iterations, and a network penalty ten times what the run lost.
     */
    public record OwnEnds(int[] tasks, int[] stops) {}

    /** As above; without {@code closedForms} every port's set goes through the sort and Jackson's schedule (tests). */
    IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask, boolean closedForms) {
        this(graph, network, hostCount, groupOfTask, null, closedForms, List.of());
    }

    private IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask, Dependents dependents,
            boolean closedForms, List<OwnEnds> ownEnds) {
        this.closedForms = closedForms;
        if (graph.openPromises() > 0) {
            throw new IllegalArgumentException(graph.openPromises() + " promised tasks were never given dependencies");
        }
        if (graph.tasksInCycles() > 0) {
            throw new IllegalArgumentException("the workload waits on itself: " + graph.tasksInCycles()
                    + " tasks can never start (a cycle of dependencies)");
        }
        this.graph = graph;
        this.taskMask = -1;
        this.flowMask = -1;
        this.streamed = false;
        this.network = network;
        this.timing = network.timing();
        this.hosts = hostCount;
        this.groupOfTask = groupOfTask;
        this.rnicBps = new long[hostCount];
        this.ingressBps = new long[hostCount];
        for (int h = 0; h < hostCount; h++) {
            rnicBps[h] = network.rnicRateBps(h);
            ingressBps[h] = network.ingressRateBps(h);
        }
        this.seriesAtBottleneck = network.queuePairKeepsPath();
        LocalLinks local = graph.localLinks();
        this.nvlinkBps = local == null ? 1 : local.rateBps();
        this.nvlinkLatencyPs = local == null ? 0 : local.latencyPs();
        this.pathRates = new long[network.maxHops()];
        this.pathDelays = new long[network.maxHops()];
        int n = graph.taskCount();
        this.startPs = new long[n];
        this.endPs = new long[n];
        this.completedPs = new long[graph.flowCount()];
        this.pathOfFlow = new int[graph.flowCount()];
        Arrays.fill(pathOfFlow, -1);
        this.mark = new int[n];
        int late = graph.lateDependencyCount();
        this.lateStart = new int[n + 1];
        this.lateList = new int[late];
        for (int i = 0; i < late; i++) {
            lateStart[graph.lateTask(i) + 1]++;
        }
        for (int t = 0; t < n; t++) {
            lateStart[t + 1] += lateStart[t];
        }
        int[] fill = Arrays.copyOf(lateStart, n);
        for (int i = 0; i < late; i++) {
            lateList[fill[graph.lateTask(i)]++] = graph.lateDependency(i);
        }
        int connections = graph.connectionCount();
        this.connectionStart = new int[connections + 1];
        this.positionOfFlow = new int[graph.flowCount()];
        for (int f = 0; f < graph.flowCount(); f++) {
            if (graph.connection(f) >= 0) {
                connectionStart[graph.connection(f) + 1]++;
            }
        }
        for (int c = 0; c < connections; c++) {
            connectionStart[c + 1] += connectionStart[c];
        }
        this.connectionTasks = new int[connectionStart[connections]];
        int[] at = Arrays.copyOf(connectionStart, connections);
        for (int f = 0; f < graph.flowCount(); f++) {
            int c = graph.connection(f);
            if (c >= 0) {
                positionOfFlow[f] = at[c] - connectionStart[c];
                connectionTasks[at[c]++] = graph.flowTask(f);
            }
        }
        this.sendStartPs = new long[graph.flowCount()];
        this.prefixBytes = new long[graph.flowCount()];
        this.prefixLatencyPs = new long[graph.flowCount()];
        this.nextPosition = new int[connections];
        this.queuePairFreePs = new long[connections];
        this.firstSendPs = new long[connections];
        this.connectionBytes = new long[connections];
        this.connectionLatencyPs = new long[connections];
        this.connectionStamp = new int[connections];
        this.latestOnConnection = new int[connections];
        this.latestAcked = new boolean[connections];
        int[] ownEndOf = null;
        if (!ownEnds.isEmpty()) {
            ownEndOf = new int[n];
            Arrays.fill(ownEndOf, -1);
            for (int i = 0; i < ownEnds.size(); i++) {
                for (int t : ownEnds.get(i).tasks()) {
                    ownEndOf[t] = i;
                }
            }
        }
        int[] one = new int[1];
        for (int t : dependencyOrder(dependents)) {
            earliest(t);
            if (ownEndOf != null && ownEndOf[t] >= 0 && !transfer(t)) {
                // Every task it waits on is bounded (the pass is in dependency order), so the walk's heads are final.
                one[0] = t;
                endPs[t] = Math.max(endPs[t], lastEndPs(one, ownEnds.get(ownEndOf[t]).stops(), 0, false));
            }
        }
    }

    /**
     * A second walker over this bound, for {@link #lastEndPs} on another thread at the same time as on this one: it
     * shares the per-task and per-flow bounds (final once the bound is made: only the pass writes them) and has its
     * own scratch, memos and path caches (what a walk writes: the walk's sets and tails, the port entries and their
     * orders, the sweep's, the latency, wire-size and serialization memos, the path caches). Its bounds are this
     * one's. Not for a streamed bound (its tasks' slots are reused as it advances).
     */
    public IdealBound walker() {
        if (streamed) {
            throw new IllegalStateException("a streamed bound has no group walks");
        }
        return new IdealBound(this);
    }

    private IdealBound(IdealBound o) {
        this.graph = o.graph;
        this.timing = o.timing;
        this.network = o.network;
        this.hosts = o.hosts;
        this.groupOfTask = o.groupOfTask;
        this.rnicBps = o.rnicBps;
        this.ingressBps = o.ingressBps;
        this.nvlinkBps = o.nvlinkBps;
        this.nvlinkLatencyPs = o.nvlinkLatencyPs;
        this.seriesAtBottleneck = o.seriesAtBottleneck;
        this.startPs = o.startPs;
        this.endPs = o.endPs;
        this.completedPs = o.completedPs;
        this.lateStart = o.lateStart;
        this.lateList = o.lateList;
        this.connectionStart = o.connectionStart;
        this.connectionTasks = o.connectionTasks;
        this.positionOfFlow = o.positionOfFlow;
        this.sendStartPs = o.sendStartPs;
        this.prefixBytes = o.prefixBytes;
        this.prefixLatencyPs = o.prefixLatencyPs;
        this.nextPosition = o.nextPosition;
        this.queuePairFreePs = o.queuePairFreePs;
        this.firstSendPs = o.firstSendPs;
        this.connectionBytes = o.connectionBytes;
        this.connectionLatencyPs = o.connectionLatencyPs;
        this.connectionStamp = o.connectionStamp;
        this.latestOnConnection = o.latestOnConnection;
        this.latestAcked = o.latestAcked;
        this.taskMask = o.taskMask;
        this.flowMask = o.flowMask;
        this.streamed = o.streamed;
        this.closedForms = o.closedForms;
        this.processed = o.processed;
        this.streamedLastFinishPs = o.streamedLastFinishPs;
        this.pathOfFlow = o.pathOfFlow;
        this.lastNvlinkTask = o.lastNvlinkTask;
        this.nvlinkFreePs = o.nvlinkFreePs;
        this.lastFinishPs = o.lastFinishPs;
        this.sortedAboveSpan = o.sortedAboveSpan;
        this.portByPortAbove = o.portByPortAbove;
        // Its own: the walk's sparse set, the network's path scratch, and copies of the path caches (the ids a flow's
        // kept path has index pathById, so the copy keeps them; paths it adds are its own).
        this.mark = new int[o.mark.length];
        this.pathRates = new long[o.pathRates.length];
        this.pathDelays = new long[o.pathDelays.length];
        this.paths = o.paths.clone();
        this.pathOfConnection = o.pathOfConnection.clone();
        this.pathById = o.pathById.clone();
        this.pathCount = o.pathCount;
    }

    /**
     * The bounds of a streamed graph ({@link TaskGraph#streamed}), one group, computed as its tasks are added: call
     * {@link #advance} after each part. A bound needs what a task waits on: one the window no longer holds (retired, or
     * further back than the window) is left out, which only weakens the bound (a relaxation), so it stays a bound.
     * What a whole graph has and a streamed one has not: {@link #lastEndPs}'s port work over every transfer of a group
     * (only each join's own transfers count, see {@link #streamedLastEndPs}).
     */
    public static IdealBound streamed(TaskGraph graph, IdealNetwork network, int hostCount) {
        return new IdealBound(graph, network, hostCount);
    }

    private IdealBound(TaskGraph graph, IdealNetwork network, int hostCount) {
        this.closedForms = true;
        if (!graph.isStreamed() || graph.taskCount() > 0) {
            throw new IllegalArgumentException("a streamed bound needs an empty streamed graph");
        }
        int window = graph.windowTasks();
        this.graph = graph;
        this.taskMask = window - 1;
        this.flowMask = window - 1;
        this.streamed = true;
        this.network = network;
        this.timing = network.timing();
        this.hosts = hostCount;
        this.groupOfTask = null;
        this.rnicBps = new long[hostCount];
        this.ingressBps = new long[hostCount];
        for (int h = 0; h < hostCount; h++) {
            rnicBps[h] = network.rnicRateBps(h);
            ingressBps[h] = network.ingressRateBps(h);
        }
        this.seriesAtBottleneck = network.queuePairKeepsPath();
        LocalLinks local = graph.localLinks();
        this.nvlinkBps = local == null ? 1 : local.rateBps();
        this.nvlinkLatencyPs = local == null ? 0 : local.latencyPs();
        this.pathRates = new long[network.maxHops()];
        this.pathDelays = new long[network.maxHops()];
        this.startPs = new long[window];
        this.endPs = new long[window];
        this.completedPs = new long[window];
        this.pathOfFlow = new int[window];
        Arrays.fill(pathOfFlow, -1);
        this.mark = new int[0];
        this.lateStart = new int[1];
        this.lateList = new int[0];
        this.connectionStart = new int[1];
        this.connectionTasks = new int[0];
        this.positionOfFlow = new int[window];
        this.sendStartPs = new long[window];
        this.prefixBytes = new long[window];
        this.prefixLatencyPs = new long[window];
        growConnections(1024);
    }

    private void growConnections(int n) {
        nextPosition = nextPosition == null ? new int[n] : Arrays.copyOf(nextPosition, n);
        queuePairFreePs = queuePairFreePs == null ? new long[n] : Arrays.copyOf(queuePairFreePs, n);
        firstSendPs = firstSendPs == null ? new long[n] : Arrays.copyOf(firstSendPs, n);
        connectionBytes = connectionBytes == null ? new long[n] : Arrays.copyOf(connectionBytes, n);
        connectionLatencyPs = connectionLatencyPs == null ? new long[n] : Arrays.copyOf(connectionLatencyPs, n);
        connectionStamp = connectionStamp == null ? new int[n] : Arrays.copyOf(connectionStamp, n);
        latestOnConnection = latestOnConnection == null ? new int[n] : Arrays.copyOf(latestOnConnection, n);
        latestAcked = latestAcked == null ? new boolean[n] : Arrays.copyOf(latestAcked, n);
    }

    /** A streamed graph: the bounds of the tasks added since the last call, in the order added. */
    public void advance() {
        if (!streamed) {
            throw new IllegalStateException("only a streamed bound advances");
        }
        if (graph.connectionCount() > nextPosition.length) {
            growConnections(Math.max(graph.connectionCount(), 2 * nextPosition.length));
        }
        for (int t = processed; t < graph.taskCount(); t++) {
            int f = graph.flowIndex(t);
            if (f >= 0 && graph.connection(f) >= 0) {
                positionOfFlow[f & flowMask] = nextPosition[graph.connection(f)];
            }
            processed = t;
            earliest(t);
            streamedLastFinishPs = Math.max(streamedLastFinishPs, f >= 0 ? completedPs[f & flowMask]
                    : endPs[t & taskMask]);
        }
        processed = graph.taskCount();
    }

    /** Whether the bound of task x (waited on by the task being bounded) is still held: always, in a whole graph. */
    private boolean held(int x) {
        return !streamed || (x >= graph.retiredTasks() && processed - x <= taskMask);
    }

    /**
     * A streamed graph: a bound of when the last of {@code done} ends (each its own bound, the port work of a join's
     * transfers included), or -1 when one is no longer held.
     */
    public long streamedLastEndPs(int[] done) {
        long last = 0;
        for (int t : done) {
            if (t < graph.retiredTasks() || processed - t > taskMask) {
                return NEVER;
            }
            last = Math.max(last, endPs[t & taskMask]);
        }
        return last;
    }

    /** Tasks so that each comes after everything it waits on: task order, unless promises wait on later tasks. */
    private int[] dependencyOrder(Dependents given) {
        int n = graph.taskCount();
        int[] out = new int[n];
        if (lateList.length == 0) {
            for (int t = 0; t < n; t++) {
                out[t] = t;
            }
            return out;
        }
        // Kahn's algorithm, the queue in out; each task's dependents taken in ascending order (a task waiting twice,
        // twice), so the order is that of a pass over the tasks in id order, whoever made the dependents.
        Dependents dependents = given != null ? given : Dependents.of(graph);
        int[] waiting = new int[n];
        int head = 0;
        int tail = 0;
        for (int t = 0; t < n; t++) {
            waiting[t] = dependencies(t);
            if (waiting[t] == 0) {
                out[tail++] = t;
            }
        }
        int[] next = new int[16];
        while (head < tail) {
            int t = out[head++];
            if (dependents.count(t) > next.length) {
                next = new int[Math.max(dependents.count(t), 2 * next.length)];
            }
            int k = dependents.sortedInto(t, next);
            for (int i = 0; i < k; i++) {
                if (--waiting[next[i]] == 0) {
                    out[tail++] = next[i];
                }
            }
        }
        return out;
    }

    /** How many tasks t waits on, the late ones (a promise's) included. */
    int dependencies(int t) {
        return graph.dependencyCount(t) + (lateList.length == 0 ? 0 : lateStart[t + 1] - lateStart[t]);
    }

    /** The i-th dependency of t, the late ones (a promise's) after those given when it was added. */
    int dependency(int t, int i) {
        int given = graph.dependencyCount(t);
        return i < given ? graph.dependency(t, i) : lateList[lateStart[t] + i - given];
    }

    private boolean transfer(int t) {
        TaskGraph.Kind k = graph.kind(t);
        return k == TaskGraph.Kind.FLOW || k == TaskGraph.Kind.NVLINK;
    }

    /** The task's bounds, every task it waits on done. */
    private void earliest(int t) {
        long ready = graph.notBeforePs(t);
        int deps = dependencies(t);
        int transfers = 0;
        for (int i = 0; i < deps; i++) {
            int d = dependency(t, i);
            int x = TaskGraph.target(d);
            if (!held(x)) {
                continue;
            }
            ready = Math.max(ready, TaskGraph.isAck(d) ? acknowledgedPs(x) : endPs[x & taskMask]);
            if (transfer(x)) {
                // The held transfers it waits on, in order: the join's set, gathered once for both bounds below.
                if (transfers == joinDeps.length) {
                    joinDeps = Arrays.copyOf(joinDeps, 2 * transfers);
                }
                joinDeps[transfers++] = d;
            }
        }
        if (transfers >= 2) {
            // A join of transfers: the last of them is bounded by the work of every port they share.
            entries = 0;
            for (int i = 0; i < transfers; i++) {
                int d = joinDeps[i];
                addPorts(TaskGraph.target(d), TaskGraph.isAck(d), 0);
            }
            ready = Math.max(ready, portWorkPs());
            ready = Math.max(ready, connectionWorkPs(t, transfers));
        }
        startPs[t & taskMask] = ready;
        switch (graph.kind(t)) {
            case FLOW -> {
                int f = graph.flowIndex(t);
                int src = graph.flowSource(f);
                Path p = flowPath(f, src, graph.flowDestination(f));
                pathOfFlow[f & flowMask] = p.id();
                long size = graph.flowBytes(f);
                long wire = wireBytes(size);
                long latency = latencyPs(p, size);
                long send = queuePair(f, ready, wire, latency, rnicBps[src]);
                sendStartPs[f & flowMask] = send;
                endPs[t & taskMask] = Saturating.add(send,
                        Saturating.add(serializationPs(wire, p.bottleneckBps()), latency));
                completedPs[f & flowMask] = Saturating.add(endPs[t & taskMask], ackLatencyPs(p, size));
            }
            case NVLINK -> {
                long ser = serializationPs(graph.nvlinkBytes(t), nvlinkBps);
                long send = nvlinkConnection(t, ready, ser);
                endPs[t & taskMask] = Saturating.add(send, Saturating.add(ser, nvlinkLatencyPs));
            }
            default -> endPs[t & taskMask] = Saturating.add(ready, graph.durationPs(t));
        }
    }

    /**
     * When flow f's queue pair can start sending it, posted at {@code ready}: not before the message added before it
     * on its connection has left the sender's RNIC (a queue pair sends in order, and a connection's messages are
     * posted in the order they were added). Keeps the connection's running sums for {@link #connectionWorkPs}. A
     * connection met out of order (promises can reorder the pass) is left without either from then on.
     */
    private long queuePair(int f, long ready, long wire, long latency, long rnic) {
        int c = graph.connection(f);
        if (c < 0) {
            return ready;
        }
        int fm = f & flowMask;
        if (positionOfFlow[fm] != nextPosition[c]) {
            nextPosition[c] = -1;
            prefixBytes[fm] = -1;
            return ready;
        }
        nextPosition[c]++;
        long send = Math.max(ready, queuePairFreePs[c]);
        queuePairFreePs[c] = Saturating.add(send, serializationPs(wire, rnic));
        if (positionOfFlow[fm] == 0) {
            firstSendPs[c] = send;
            connectionBytes[c] = wire;
            connectionLatencyPs[c] = latency;
        } else {
            connectionBytes[c] = Saturating.add(connectionBytes[c], wire);
            connectionLatencyPs[c] = Math.min(connectionLatencyPs[c], latency);
        }
        prefixBytes[fm] = connectionBytes[c];
        prefixLatencyPs[fm] = connectionLatencyPs[c];
        return send;
    }

    /**
     * When NVLink transfer t, ready at {@code ready}, can start: not before the transfer added before it on its
     * connection has put its last byte on the GPU's NVLink (the run sends a connection's transfers one after the other,
     * in the order they were added, as an NCCL channel's steps). A connection the pass meets out of the order added
     * (promises can reorder it) is left unordered from then on: a bound without the order is weaker, never wrong.
     */
    private long nvlinkConnection(int t, long ready, long serializationPs) {
        int c = graph.nvlinkConnection(t);
        if (c < 0) {
            return ready;
        }
        if (c >= lastNvlinkTask.length) {
            int old = lastNvlinkTask.length;
            lastNvlinkTask = Arrays.copyOf(lastNvlinkTask, Math.max(c + 1, 2 * old));
            nvlinkFreePs = Arrays.copyOf(nvlinkFreePs, lastNvlinkTask.length);
            Arrays.fill(lastNvlinkTask, old, lastNvlinkTask.length, -1);
        }
        if (lastNvlinkTask[c] == UNORDERED) {
            return ready;
        }
        if (t < lastNvlinkTask[c]) {
            lastNvlinkTask[c] = UNORDERED;
            return ready;
        }
        lastNvlinkTask[c] = t;
        long send = Math.max(ready, nvlinkFreePs[c]);
        nvlinkFreePs[c] = Saturating.add(send, serializationPs);
        return send;
    }

    /** Per NVLink connection: the last transfer the pass met (-1: none yet; {@link #UNORDERED}), when it has left. */
    private int[] lastNvlinkTask = new int[0];
    private long[] nvlinkFreePs = new long[0];
    private static final int UNORDERED = Integer.MIN_VALUE;

    /**
     * The port work of a join's transfers with every message before them on their connections: once a flow is
     * delivered (or acknowledged) so is everything sent before it on its queue pair. Per connection the messages up
     * to the latest one waited on count as one, released when the first was sent, with their bytes and the least
     * latency (a relaxation of their own releases, so still a bound); other transfers count as themselves. Each such
     * series is bounded again at its path's slowest link ({@link #seriesAtBottleneckPs}). The join's held transfers
     * are joinDeps[0, transfers), as {@link #earliest} gathered them.
     */
    private long connectionWorkPs(int t, int transfers) {
        entries = 0;
        long series = NEVER;
        int stamp = t + 1;
        for (int i = 0; i < transfers; i++) {
            int d = joinDeps[i];
            int x = TaskGraph.target(d);
            if (graph.kind(x) == TaskGraph.Kind.FLOW && summed(graph.flowIndex(x))) {
                int f = graph.flowIndex(x);
                int c = graph.connection(f);
                if (connectionStamp[c] != stamp
                        || positionOfFlow[f & flowMask] > positionOfFlow[latestOnConnection[c] & flowMask]) {
                    connectionStamp[c] = stamp;
                    latestOnConnection[c] = f;
                    latestAcked[c] = TaskGraph.isAck(d);
                }
            }
        }
        for (int i = 0; i < transfers; i++) {
            int d = joinDeps[i];
            int x = TaskGraph.target(d);
            if (graph.kind(x) != TaskGraph.Kind.FLOW || !summed(graph.flowIndex(x))) {
                addPorts(x, TaskGraph.isAck(d), 0);
                continue;
            }
            int f = graph.flowIndex(x);
            int c = graph.connection(f);
            if (connectionStamp[c] == stamp && latestOnConnection[c] == f) {
                connectionStamp[c] = -stamp;
                int src = graph.flowSource(f);
                int dst = graph.flowDestination(f);
                Path p = pathOf(f, src, dst);
                long base = (long) (groupOfTask == null ? 0 : groupOfTask[x]) * 4 * hosts;
                long ack = latestAcked[c] ? p.ackLatencyPs() : 0;
                long latency = prefixLatencyPs[f & flowMask];
                add(base + src, firstSendPs[c], prefixBytes[f & flowMask], latency + ack);
                add(base + hosts + dst, Saturating.add(firstSendPs[c], latency - p.lastDelayPs()),
                        prefixBytes[f & flowMask], p.lastDelayPs() + ack);
                series = Math.max(series, seriesAtBottleneckPs(c, p, prefixBytes[f & flowMask], ack));
            }
        }
        return entries == 0 ? NEVER : Math.max(series, portWorkPs());
    }

    /**
     * A connection's messages up to one waited on, {@code bytes} wire bytes in all, bounded at its path's slowest
     * stage (the bottleneck of {@link Path}: its slowest link, or the receiver's pipeline, {@code nic.rx}, when that
     * is slower; times the planes where the RNICs spray): when it is slower than the RNIC, the port work above, at
     * the RNIC's rate, lets the series go faster than any run. A queue pair's packets all take one path (the switches
     * hash per flow: otherwise this is NEVER), so every frame of every one of these messages crosses that stage, one
     * frame at a time (a link or a pipeline serialises its frames one after another; other traffic there only
     * delays them); the first frame reaches it no earlier than the first message was sent plus the propagation and
     * forwarding before it, and the last message is delivered no earlier than its last frame has left it plus the
     * propagation and forwarding after it. So the last message is delivered no earlier than the first send, all the
     * bytes at the stage's rate and the path's propagation and forwarding ({@link PathTiming#oneWayPs}), and the
     * sender has its ACK ({@code ackPs}, 0 when delivery is what is waited on) no earlier than that plus the ACK's
     * least latency. Frames' serialisation on the other stages is left out (it is not summed over the series: only
     * the first frame's before the stage and the last one's after it would count), which only lowers the bound.
     */
    private long seriesAtBottleneckPs(int c, Path p, long bytes, long ackPs) {
        if (!seriesAtBottleneck) {
            return NEVER;
        }
        return Saturating.add(Saturating.add(firstSendPs[c], serializationPs(bytes, p.bottleneckBps())),
                Saturating.add(timing.oneWayPs(p.delays(), p.hops()), ackPs));
    }

    /** Whether flow f has its connection's running sums (it is on a connection met in order). */
    private boolean summed(int f) {
        int c = graph.connection(f);
        return c >= 0 && prefixBytes[f & flowMask] >= 0 && nextPosition[c] >= 0;
    }

    /** When transfer x's sender has its completion: a flow's last ACK, an NVLink transfer's end. */
    private long acknowledgedPs(int x) {
        return graph.kind(x) == TaskGraph.Kind.FLOW ? completedPs[graph.flowIndex(x) & flowMask] : endPs[x & taskMask];
    }

    /** {@link Rates#serializationPs}, the same to the picosecond, through the memo of NVLink's rate or the other. */
    private long serializationPs(long bytes, long rateBps) {
        return (rateBps == nvlinkBps ? nvlinkSerialization : serialization).serializationPs(bytes, rateBps);
    }

    /** A message's wire bytes ({@link PathTiming#wireBytes}), the last size's remembered. */
    private long wireBytes(long sizeBytes) {
        if (sizeBytes != wireSize) {
            wireOfSize = timing.wireBytes(sizeBytes);
            wireSize = sizeBytes;
        }
        return wireOfSize;
    }

    /**
     * A message's delivery latency on its path. It depends on the size (the last frame's, and on a path whose links
     * are not all equal the number of frames too), so the last path and size's are remembered: a collective's steps
     * ask for one size on one path over and over.
     */
    private long latencyPs(Path p, long sizeBytes) {
        if (sizeBytes == timing.mtuBytes()) {
            return p.fullFrameLatencyPs();
        }
        if (p != latencyPath || sizeBytes != latencySize) {
            latencyOfSize = p.noPathHasHopBest()
                    ? timing.latencyHeldToPs(p.rates(), p.delays(), p.hops(), sizeBytes, p.receiveBps(),
                            p.bottleneckBps())
                    : timing.deliveryLatencyPs(p.rates(), p.delays(), p.hops(), sizeBytes, p.receiveBps());
            latencyPath = p;
            latencySize = sizeBytes;
        }
        return latencyOfSize;
    }

    private Path latencyPath;
    private long latencySize = -1;
    private long latencyOfSize;

    /**
     * A message's ACK latency on its path, from its delivery: where its QP keeps one path (and one plane), its last
     * ACK after the message's earlier ones ({@link PathTiming#ackLatencyPs(long[], long[], int, long, long, long,
     * int)}: exact for the message alone, and so a bound in any run, where its packets and ACKs come no sooner);
     * otherwise the last ACK alone. The last path and size's are remembered, as {@link #latencyPs}'s.
     */
    private long ackLatencyPs(Path p, long sizeBytes) {
        if (!seriesAtBottleneck || network.planesPerMessage() > 1 || p.noPathHasHopBest()) {
            return p.ackLatencyPs();
        }
        if (p != ackPath || sizeBytes != ackSize) {
            ackOfSize = timing.ackLatencyPs(p.rates(), p.delays(), p.hops(), sizeBytes, p.receiveBps(),
                    network.receiveRateBps(p.src()), network.ackEvery(p.dst()));
            ackPath = p;
            ackSize = sizeBytes;
        }
        return ackOfSize;
    }

    private Path ackPath;
    private long ackSize = -1;
    private long ackOfSize;

    /**
     * Flow f's path (from {@code src} to {@code dst}), remembered per connection: a connection's messages all go
     * between its two hosts, and the direct-mapped cache of {@link #path} loses pairs to collisions once there are
     * tens of thousands (a 32,768-GPU ring's). A pure cache too.
     */
    private Path flowPath(int f, int src, int dst) {
        int c = graph.connection(f);
        if (c < 0) {
            return path(src, dst);
        }
        if (c >= pathOfConnection.length) {
            pathOfConnection = Arrays.copyOf(pathOfConnection, Math.max(c + 1, 2 * pathOfConnection.length));
        }
        Path p = pathOfConnection[c];
        if (p == null || p.src() != src || p.dst() != dst) {
            p = path(src, dst);
            pathOfConnection[c] = p;
        }
        return p;
    }

    /** Flow f's path (from {@code src} to {@code dst}), flow f met by the pass: the one the pass gave it. */
    private Path pathOf(int f, int src, int dst) {
        int id = pathOfFlow[f & flowMask];
        return id >= 0 ? pathById[id] : flowPath(f, src, dst);
    }

    private Path path(int src, int dst) {
        int slot = (int) ((((long) src * hosts + dst) * 0x9E3779B97F4A7C15L) >>> 48);
        Path p = paths[slot];
        if (p == null || p.src() != src || p.dst() != dst) {
            int hops = network.path(src, dst, pathRates, pathDelays, onePathBps);
            long[] r = Arrays.copyOf(pathRates, hops);
            long[] d = Arrays.copyOf(pathDelays, hops);
            int id = pathCount < KEPT_PATHS ? pathCount++ : -1;
            // The receiver's pipeline (nic.rx) caps the message and takes in each frame after the last link; the
            // sender's takes in the ACK.
            long rx = network.receiveRateBps(dst);
            // A QP that keeps one path crosses its slowest link; one that switches spread over equal-cost paths
            // (spray, adaptive, flowlets) crosses only its first and last links for certain: the links between may be
            // several at once, so only those two cap it (an audit's ring over two 200G spines ran at 400G, below a
            // bound that capped each message at one spine's 200G).
            long bottleneck = (seriesAtBottleneck ? PathTiming.bottleneck(r, hops) : Math.min(r[0], r[hops - 1]))
                    * network.planesPerMessage();
            // The hop-wise best links may be of different paths: a QP that keeps one is held to the widest path's
            // slowest link (BestPath#onePathBps), and its last ACK is then taken alone (PathTiming#completionPs).
            boolean noPathHasThem = onePathBps[0] < bottleneck;
            bottleneck = Math.min(bottleneck, onePathBps[0]);
            long held = rx > 0 ? Math.min(bottleneck, rx) : bottleneck;
            p = new Path(src, dst, r, d, hops, held, timing.ackLatencyPs(r, d, hops, network.receiveRateBps(src)),
                    d[hops - 1], noPathHasThem ? timing.latencyHeldToPs(r, d, hops, timing.mtuBytes(), rx, held)
                            : timing.deliveryLatencyPs(r, d, hops, timing.mtuBytes(), rx), id, rx, noPathHasThem);
            paths[slot] = p;
            if (id >= 0) {
                if (id == pathById.length) {
                    pathById = Arrays.copyOf(pathById, 2 * id);
                }
                pathById[id] = p;
            }
        }
        return p;
    }

    /**
     * Adds transfer x's two ports to the scratch set: a flow's sender egress (its bits can be there from its start;
     * then the whole path latency) and receiver ingress (from its start plus the latency up to the last link; then
     * that link's propagation); an NVLink transfer's GPU ports (then the NVLink latency). With {@code acked} the
     * end is the sender's ACK, one ACK latency later; {@code afterPs} is the least time from x's end to the end
     * bounded (0: x's own end).
     */
    private void addPorts(int x, boolean acked, long afterPs) {
        addPorts(x, acked, afterPs, SENDER | RECEIVER);
    }

    /** A transfer's sender's port (a flow's RNIC egress, an NVLink transfer's GPU out) and its receiver's, as bits. */
    private static final int SENDER = 1;
    private static final int RECEIVER = 2;

    /** As above, only the ports of {@code sides} ({@link #SENDER}, {@link #RECEIVER} or both), in that order. */
    private void addPorts(int x, boolean acked, long afterPs, int sides) {
        long base = (long) (groupOfTask == null ? 0 : groupOfTask[x]) * 4 * hosts;
        if (graph.kind(x) == TaskGraph.Kind.FLOW) {
            int f = graph.flowIndex(x);
            int src = graph.flowSource(f);
            int dst = graph.flowDestination(f);
            Path p = pathOf(f, src, dst);
            long size = graph.flowBytes(f);
            long latency = latencyPs(p, size);
            long after = Saturating.add(acked ? p.ackLatencyPs() : 0, afterPs);
            long wire = wireBytes(size);
            long send = sendStartPs[f & flowMask];
            if ((sides & SENDER) != 0) {
                add(base + src, send, wire, Saturating.add(latency, after));
            }
            if ((sides & RECEIVER) != 0) {
                add(base + hosts + dst, Saturating.add(send, latency - p.lastDelayPs()), wire,
                        Saturating.add(p.lastDelayPs(), after));
            }
        } else {
            long bytes = graph.nvlinkBytes(x);
            long tail = Saturating.add(nvlinkLatencyPs, afterPs);
            if ((sides & SENDER) != 0) {
                add(base + 2L * hosts + graph.owner(x), startPs[x & taskMask], bytes, tail);
            }
            if ((sides & RECEIVER) != 0) {
                add(base + 3L * hosts + graph.nvlinkDestination(x), startPs[x & taskMask], bytes, tail);
            }
        }
    }

    /** The key of transfer x's port on {@code side} (one of the two), as {@link #addPorts} files it. */
    private long portKey(int x, int side) {
        long base = (long) (groupOfTask == null ? 0 : groupOfTask[x]) * 4 * hosts;
        if (graph.kind(x) == TaskGraph.Kind.FLOW) {
            int f = graph.flowIndex(x);
            return side == SENDER ? base + graph.flowSource(f) : base + hosts + graph.flowDestination(f);
        }
        return side == SENDER ? base + 2L * hosts + graph.owner(x) : base + 3L * hosts + graph.nvlinkDestination(x);
    }

    private void add(long key, long release, long bytes, long tailPs) {
        if (entries == entryKey.length) {
            int m = entries * 2;
            entryKey = Arrays.copyOf(entryKey, m);
            entryRelease = Arrays.copyOf(entryRelease, m);
            entryBytes = Arrays.copyOf(entryBytes, m);
            entryTail = Arrays.copyOf(entryTail, m);
        }
        entryKey[entries] = key;
        entryRelease[entries] = release;
        entryBytes[entries] = bytes;
        entryTail[entries] = tailPs;
        entries++;
    }

    /**
     * The port-work bound of the scratch set: per port, the optimum of its messages as jobs of one machine of the
     * port's rate with release dates (when their bits can first be at the port), processing times (their wire bytes at
     * the port's rate) and tails (the least time from the port to the end bounded), preemption allowed; the largest
     * over ports. Every schedule of the real ports is a schedule of that machine (a port serves one byte at a time,
     * whatever it interleaves), so none ends earlier.
     */
    private long portWorkPs() {
        if (order.length < entries) {
            order = new int[entries];
            sortScratch = new int[entries];
        }
        if (entries <= SMALL_SET && closedForms) {
            insertionSort();
        } else {
            sortEntries();
        }
        long bound = NEVER;
        int i = 0;
        while (i < entries) {
            long key = entryKey[order[i]];
            int to = i + 1;
            while (to < entries && entryKey[order[to]] == key) {
                to++;
            }
            long rate = rateOf(key);
            bound = Math.max(bound, closedForms && to == i + 1 && entryBytes[order[i]] < WHOLE_IN_DOUBLE
                    ? alonePs(order[i], rate)
                    : jacksonPs(i, to, rate));
            i = to;
        }
        return bound;
    }

    /**
     * A join's set (a ring step waits on two transfers: four entries) is sorted in place: the same order as the
     * merge sort's (both stable, over entries numbered in order), without its recursion and copies.
     */
    private static final int SMALL_SET = 16;

    private void insertionSort() {
        for (int i = 0; i < entries; i++) {
            order[i] = i;
            int j = i;
            while (j > 0 && before(i, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
    }

    /**
     * {@link #jacksonPs} of a port with one entry, in closed form: its release, its bytes at the port's rate, its
     * tail. Both of Jackson's terms are that sum (the schedule serves the entry alone from its release, and its bytes
     * are whole in a double below 2^53), so the bound is the same to the picosecond.
     */
    private long alonePs(int e, long rate) {
        portsInClosedForm++;
        return Saturating.add(Saturating.add(entryRelease[e], serializationPs(entryBytes[e], rate)),
                entryTail[e]);
    }

    private static final long WHOLE_IN_DOUBLE = 1L << 53;
    private long portsInClosedForm;

    /** Ports bounded in closed form so far (tests: the fast path is taken). */
    long portsInClosedForm() {
        return portsInClosedForm;
    }

    /**
     * Jackson's preemptive schedule of order[from, to) (sorted by release) on one machine of {@code rate}: at every
     * release, the released job with the largest tail runs; the largest completion plus tail is the optimum of
     * 1|r_j, q_j, pmtn|Cmax (Jackson 1956, Horn 1974), so a bound of every non-preemptive schedule too. Completions are
     * timed from the start of their busy period by the bytes served since, so a set with no preemption gets the
     * serialisation of its summed bytes to the picosecond (the closed forms); a remainder cut by a release is rounded
     * down to whole bytes (less work, so never later than the exact optimum), and the bound is never below the integer
     * one of {@link #workAfterReleasePs}.
     */
    private long jacksonPs(int from, int to, long rate) {
        long bound = workAfterReleasePs(from, to, rate);
        double psPerByte = 8.0 * Time.PS_PER_S / rate;
        int[] heap = sortScratch; // free once sorted
        int size = 0;
        int i = from;
        long busyStart = 0;
        double done = 0;
        while (i < to || size > 0) {
            if (size == 0) {
                busyStart = entryRelease[order[i]];
                done = 0;
            }
            double now = busyStart + done * psPerByte;
            while (i < to && entryRelease[order[i]] <= now) {
                size = heapPush(heap, size, order[i++]);
            }
            int top = heap[0];
            // entryBytes holds what is left of each job (rounded down when a release cuts it: never more work).
            double finish = done + entryBytes[top];
            if (i >= to || busyStart + finish * psPerByte <= entryRelease[order[i]]) {
                done = finish;
                size = heapPop(heap, size);
                long served = (long) Math.floor(done);
                long end = Saturating.add(busyStart, serializationPs(served, rate));
                bound = Math.max(bound, Saturating.add(end, entryTail[top]));
            } else {
                double at = (entryRelease[order[i]] - busyStart) / psPerByte;
                if (at <= done) {
                    // The release's time, rounded, is no later than now although the release is later (a rate of no
                    // whole picoseconds per byte): cutting the job there would cut it at the same point for ever
                    // (the loop did not end). The release is taken now, as it is due.
                    long release = entryRelease[order[i]];
                    while (i < to && entryRelease[order[i]] <= release) {
                        size = heapPush(heap, size, order[i++]);
                    }
                } else {
                    entryBytes[top] = Math.max(0, (long) Math.floor(finish - at));
                    done = at;
                }
            }
        }
        return bound;
    }

    /**
     * The weaker bound Jackson's schedule implies, computed exactly in integers: for each release, the bytes released
     * at or after it at the port's rate plus the least tail among them (so the rounding down of preempted remainders
     * above never makes the bound lower than this).
     */
    private long workAfterReleasePs(int from, int to, long rate) {
        long bound = NEVER;
        long bytes = 0;
        long tail = Long.MAX_VALUE;
        for (int i = to - 1; i >= from; i--) {
            int e = order[i];
            bytes = Saturating.add(bytes, entryBytes[e]);
            tail = Math.min(tail, entryTail[e]);
            if (i == from || entryRelease[order[i - 1]] != entryRelease[e]) {
                bound = Math.max(bound, Saturating.add(Saturating.add(entryRelease[e],
                        serializationPs(bytes, rate)), tail));
            }
        }
        return bound;
    }

    /** A binary max-heap of entries by tail (ties: the lower entry first, so the order is deterministic). */
    private boolean higher(int a, int b) {
        return entryTail[a] != entryTail[b] ? entryTail[a] > entryTail[b] : a < b;
    }

    private int heapPush(int[] heap, int size, int e) {
        int k = size;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (!higher(e, heap[parent])) {
                break;
            }
            heap[k] = heap[parent];
            k = parent;
        }
        heap[k] = e;
        return size + 1;
    }

    private int heapPop(int[] heap, int size) {
        int last = heap[--size];
        int k = 0;
        while (true) {
            int child = 2 * k + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && higher(heap[child + 1], heap[child])) {
                child++;
            }
            if (!higher(heap[child], last)) {
                break;
            }
            heap[k] = heap[child];
            k = child;
        }
        if (size > 0) {
            heap[k] = last;
        }
        return size;
    }

    /**
     * Transfer x's work at its sender's and at its receiver's port, for the GPU's view of a job on the ideal network
     * (read only: no scratch, no cache, so it may run beside the bound's other readers). Fills {@code out[0..3]} for
     * the sender's port (a flow's RNIC egress, an NVLink transfer's GPU out) and {@code out[4..7]} for the receiver's
     * (RNIC ingress, NVLink in): the port's key (the port of x's own copy of the capacities, as the port-work bound
     * files it), the host, the release (the bound of x's send start: its bits are at the sender's port no earlier,
     * and at the receiver's later still) and the time its wire bytes take at the port's rate. False when x is not a
     * transfer or was not sent.
     */
    public boolean portWork(int x, long[] out) {
        long release = portRelease(x);
        if (release < 0) {
            return false;
        }
        long bytes = graph.kind(x) == TaskGraph.Kind.FLOW ? timing.wireBytes(graph.flowBytes(graph.flowIndex(x)))
                : graph.nvlinkBytes(x);
        long sender = portKey(x, SENDER);
        long receiver = portKey(x, RECEIVER);
        out[0] = sender;
        out[1] = graph.transferSource(x);
        out[2] = release;
        out[3] = Rates.serializationPs(bytes, rateOf(sender));
        out[4] = receiver;
        out[5] = graph.transferDestination(x);
        out[6] = release;
        out[7] = Rates.serializationPs(bytes, rateOf(receiver));
        return true;
    }

    /**
     * The keys alone of {@link #portWork}: {@code out[0]} the sender's port, {@code out[1]} the receiver's; false
     * exactly when {@link #portWork} is. For a caller that first counts what each port serves, without the work's
     * divisions and the flows' byte counts (read only, as {@link #portWork}).
     */
    public boolean portKeys(int x, long[] out) {
        if (portRelease(x) < 0) {
            return false;
        }
        out[0] = portKey(x, SENDER);
        out[1] = portKey(x, RECEIVER);
        return true;
    }

    /**
     * When transfer x's bits can first be at its sender's port (the bound of its send start), or -1 when x is not a
     * transfer or was not sent: the one rule of {@link #portWork} and {@link #portKeys}.
     */
    private long portRelease(int x) {
        TaskGraph.Kind kind = graph.kind(x);
        long start = startPs[x & taskMask];
        if ((kind != TaskGraph.Kind.FLOW && kind != TaskGraph.Kind.NVLINK) || start < 0 || start == Long.MAX_VALUE) {
            return -1;
        }
        long release = kind == TaskGraph.Kind.FLOW ? Math.max(start, sendStartPs[graph.flowIndex(x) & flowMask]) : start;
        return release == Long.MAX_VALUE ? -1 : release;
    }

    /** The rate of a port key: ports 0..4H-1 of each group are RNIC egress, RNIC ingress, NVLink out, NVLink in. */
    private long rateOf(long key) {
        int port = key < 4L * hosts ? (int) key : (int) (key % (4L * hosts));
        return port < hosts ? rnicBps[port] : port < 2 * hosts ? ingressBps[port - hosts] : nvlinkBps;
    }

    /**
     * Puts in order[0, entries) the entries sorted by (port, release). The bound does not depend on how entries of
     * one port and release are ordered among themselves (Jackson's schedule takes them into its heap together, which
     * orders them by tail and entry index, and the integer bound sums their bytes), so any such order gives the same
     * bound. A group's walk gathers tens of millions of
     * entries over a few thousand ports: they are counted into their ports first, then each port's sorted by
     * release as primitives (release and position packed in a long, scratch the size of the largest port's) where
     * they fit, else by the merge sort.
     */
    private void sortEntries() {
        long lowKey = Long.MAX_VALUE;
        long highKey = Long.MIN_VALUE;
        for (int i = 0; i < entries; i++) {
            lowKey = Math.min(lowKey, entryKey[i]);
            highKey = Math.max(highKey, entryKey[i]);
        }
        long range = highKey - lowKey + 1;
        if (entries < 64 || range <= 0 || range > 4L * entries) {
            if (range > 0 && sortByPacked(lowKey, range)) {
                return;
            }
            for (int i = 0; i < entries; i++) {
                order[i] = i;
            }
            sort(0, entries);
            return;
        }
        int ports = (int) range;
        int[] start = new int[ports + 1];
        for (int i = 0; i < entries; i++) {
            start[(int) (entryKey[i] - lowKey) + 1]++;
        }
        for (int k = 0; k < ports; k++) {
            start[k + 1] += start[k];
        }
        for (int i = 0; i < entries; i++) {
            order[start[(int) (entryKey[i] - lowKey)]++] = i;
        }
        // start[k] is now the end of port k's run, the start of port k + 1's.
        int longest = start[0];
        for (int k = 1; k < ports; k++) {
            longest = Math.max(longest, start[k] - start[k - 1]);
        }
        if (packed.length < longest) {
            packed = new long[longest];
        }
        int from = 0;
        for (int k = 0; k < ports; k++) {
            int to = start[k];
            sortByRelease(from, to);
            from = to;
        }
    }

    /**
     * Puts in order[0, entries) the entries sorted by (port, release) as {@link #sort} does, when the ports' keys
     * less {@code lowKey} and an entry's number fit in a long together: sorted as primitives by port (and number, so
     * the order is stable), then each port's run by release ({@link #sortByRelease}, stable too). A stable sort has
     * one result, so the order is the merge sort's. A collective call's walk has its entries on a few of thousands of
     * ports, too sparse to count into ports, where the merge sort's comparisons through the order were 6 % of the
     * bound. Returns false, sorting nothing, when they do not fit.
     */
    private boolean sortByPacked(long lowKey, long range) {
        int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, entries - 1));
        if (((range - 1) >>> (63 - bits)) != 0) {
            return false;
        }
        if (packed.length < entries) {
            packed = new long[entries];
        }
        for (int i = 0; i < entries; i++) {
            packed[i] = ((entryKey[i] - lowKey) << bits) | i;
        }
        Arrays.sort(packed, 0, entries);
        long mask = (1L << bits) - 1;
        for (int k = 0; k < entries; k++) {
            order[k] = (int) (packed[k] & mask);
        }
        int from = 0;
        while (from < entries) {
            long key = entryKey[order[from]];
            int to = from + 1;
            while (to < entries && entryKey[order[to]] == key) {
                to++;
            }
            sortByRelease(from, to);
            from = to;
        }
        return true;
    }

    /** Sorts order[from, to), entries of one port, by release. */
    private void sortByRelease(int from, int to) {
        int m = to - from;
        if (m < 2) {
            return;
        }
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (int k = from; k < to; k++) {
            low = Math.min(low, entryRelease[order[k]]);
            high = Math.max(high, entryRelease[order[k]]);
        }
        int bits = 64 - Long.numberOfLeadingZeros(m - 1);
        long span = high - low;
        if (span < 0 || (span >>> (63 - bits)) != 0) {
            sort(from, to);
            return;
        }
        for (int k = from; k < to; k++) {
            packed[k - from] = ((entryRelease[order[k]] - low) << bits) | (k - from);
        }
        Arrays.sort(packed, 0, m);
        System.arraycopy(order, from, sortScratch, from, m);
        long mask = (1L << bits) - 1;
        for (int k = from; k < to; k++) {
            order[k] = sortScratch[from + (int) (packed[k - from] & mask)];
        }
    }

    /** Sorts order[from, to) by (port, release): a merge sort over primitives. */
    private void sort(int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        sort(from, mid);
        sort(mid, to);
        if (!before(order[mid], order[mid - 1])) {
            return;
        }
        System.arraycopy(order, from, sortScratch, from, to - from);
        int a = from;
        int b = mid;
        for (int k = from; k < to; k++) {
            if (b >= to || (a < mid && !before(sortScratch[b], sortScratch[a]))) {
                order[k] = sortScratch[a++];
            } else {
                order[k] = sortScratch[b++];
            }
        }
    }

    private boolean before(int x, int y) {
        return entryKey[x] != entryKey[y] ? entryKey[x] < entryKey[y] : entryRelease[x] < entryRelease[y];
    }

    /**
     * A bound of when the last of {@code done} ends: the latest of their own bounds, and per port the one-machine
     * optimum ({@link #jacksonPs}) of every transfer they wait on, directly or through other tasks, each with its
     * tail: the longest chain of least durations from its end to the end of the last of {@code done}
     * ({@link #tailsOfWalk}). The walk does not go past the tasks of {@code stops} (their own waits are left out) nor
     * below task {@code lowestTask}: leaving transfers out only weakens the bound, so any such cut keeps it a bound and
     * keeps the walk to the group's own tasks.
     */
    public long lastEndPs(int[] done, int[] stops, int lowestTask) {
        int highest = -1;
        for (int t : done) {
            highest = Math.max(highest, t);
        }
        return lastEndPs(done, stops, lowestTask, stops.length == 0 && lowestTask == 0 && highest >= DENSE_RANGE);
    }

    /** As above, the walk dense ({@link #denseWalk}) or sparse, whatever the span of its tasks (tests: the same bound). */
    long lastEndPs(int[] done, int[] stops, int lowestTask, boolean denseWalk) {
        if (streamed) {
            throw new IllegalStateException("a streamed bound has no group port work: see streamedLastEndPs");
        }
        long last = 0;
        for (int t : done) {
            if (endPs[t] < 0) {
                return NEVER;
            }
            last = Math.max(last, endPs[t]);
        }
        if (denseWalk) {
            long[] sparseTail = walkTail;
            int[] sparseWaits = walkWaits;
            try {
                denseWalk(done, stops, lowestTask);
                return Math.max(last, tailsOfWalk(false));
            } finally {
                // The dense arrays are as long as the walk's span: not kept for the next walk.
                dense = false;
                walkTail = sparseTail;
                walkWaits = sparseWaits;
                releaseLargeScratch();
            }
        }
        walked = 0;
        for (int s : stops) {
            if (!inWalk(s)) {
                discover(s, STOP);
            }
        }
        int from = walked;
        for (int t : done) {
            if (t >= lowestTask && !inWalk(t)) {
                discover(t, 0);
            }
        }
        walk(from, lowestTask);
        long bound = Math.max(last, tailsOfWalk(false));
        releaseLargeScratch();
        return bound;
    }

    /** Scratch above this many entries is not kept between bounds: a whole job's walk needs gigabytes, once. */
    private static final int KEPT_SCRATCH = 1 << 20;

    /** Drops scratch a walk over a large group grew, so it is not held while the outputs are written. */
    private void releaseLargeScratch() {
        if (entryKey.length > KEPT_SCRATCH) {
            entryKey = new long[64];
            entryRelease = new long[64];
            entryBytes = new long[64];
            entryTail = new long[64];
            order = new int[64];
            sortScratch = new int[64];
            packed = new long[64];
        }
        if (sweepOrder.length > KEPT_SCRATCH) {
            sweepOrder = new int[64];
        }
        if (walkTask.length > KEPT_SCRATCH) {
            walkTask = new int[64];
            walkTail = new long[64];
            walkWaits = new int[64];
        }
        if (pending.length > KEPT_SCRATCH) {
            pending = new int[64];
        }
    }

    /**
     * A bound of when the last task of the whole graph is done (flows acknowledged): the latest bound of any task, and
     * the one-machine optimum of every port of every group, each transfer with its tail to the end of the whole graph.
     */
    public long lastFinishPs() {
        if (streamed) {
            return streamedLastFinishPs;
        }
        if (lastFinishPs == NEVER) {
            long last = 0;
            walked = 0;
            for (int t = 0; t < graph.taskCount(); t++) {
                last = Math.max(last, graph.kind(t) == TaskGraph.Kind.FLOW ? acknowledgedPs(t) : endPs[t]);
                discover(t, 0);
            }
            if (lateList.length > 0) {
                countWaits();
            }
            lastFinishPs = Math.max(last, tailsOfWalk(true));
            releaseLargeScratch();
        }
        return lastFinishPs;
    }

    /** Whether task t is in the current walk: mark is a sparse set's index into walkTask, valid only if it points back. */
    private boolean inWalk(int t) {
        if (dense) {
            return t >= walkBase && walkTail[t - walkBase] != ABSENT;
        }
        int i = mark[t];
        return i < walked && walkTask[i] == t;
    }

    /** Where task t's tail and count are, t in the walk: its index in the dense arrays, or its sparse slot. */
    private int slot(int t) {
        return dense ? t - walkBase : mark[t];
    }

    /**
     * The walk of {@link #walk}, held densely (see {@link #dense}): the same tasks, each with its tail (0, or
     * {@link #STOP} for the tasks of {@code stops}), and the same counts of raisers, but found by a sweep down the
     * task ids, so that the graph's arrays are read in order and a task's state is one access. Every task of the
     * walk but the stops is expanded once, as in {@link #walk}: the sweep expands each it reaches, and a task found
     * above the sweep (through a promise, which waits on a later task) is expanded at once, with what it finds above.
     */
    private void denseWalk(int[] done, int[] stops, int lowestTask) {
        int size = graph.taskCount() - lowestTask;
        long[] tail = new long[size];
        Arrays.fill(tail, ABSENT);
        walkTail = tail;
        walkWaits = new int[size];
        walkBase = lowestTask;
        dense = true;
        denseLow = Integer.MAX_VALUE;
        denseHigh = -1;
        for (int s : stops) {
            if (s >= lowestTask) {
                tail[s - lowestTask] = STOP;
            }
        }
        for (int t : done) {
            if (t >= lowestTask && tail[t - lowestTask] == ABSENT) {
                tail[t - lowestTask] = 0;
                denseLow = Math.min(denseLow, t);
                denseHigh = Math.max(denseHigh, t);
            }
        }
        for (int t = denseHigh; t >= lowestTask; t--) {
            if (tail[t - lowestTask] == 0) {
                int top = expand(t, t, 0);
                while (top > 0) {
                    top = expand(pending[--top], t, top);
                }
            }
        }
    }

    /**
     * Adds what task u of a dense walk waits on (and the message before it on its connection) to the walk, counting
     * raisers as {@link #walk} does; one found above {@code cursor} (which the sweep has passed) is pushed on
     * {@link #pending} above {@code top} to be expanded next. Returns the new top.
     */
    private int expand(int u, int cursor, int top) {
        boolean count = lateList.length > 0;
        long[] tail = walkTail;
        int deps = dependencies(u);
        for (int k = 0; k <= deps; k++) {
            int x = k < deps ? TaskGraph.target(dependency(u, k)) : earlierOnConnection(u);
            if (x < walkBase) {
                continue;
            }
            int w = x - walkBase;
            if (tail[w] == ABSENT) {
                tail[w] = 0;
                denseLow = Math.min(denseLow, x);
                denseHigh = Math.max(denseHigh, x);
                if (x > cursor) {
                    if (top == pending.length) {
                        pending = Arrays.copyOf(pending, top * 2);
                    }
                    pending[top++] = x;
                }
            }
            if (count && tail[w] >= 0) {
                walkWaits[w]++;
            }
        }
        return top;
    }

    private void discover(int t, long tail) {
        if (walked == walkTask.length) {
            int m = walked * 2;
            walkTask = Arrays.copyOf(walkTask, m);
            walkTail = Arrays.copyOf(walkTail, m);
            walkWaits = Arrays.copyOf(walkWaits, m);
        }
        mark[t] = walked;
        walkTask[walked] = t;
        walkTail[walked] = tail;
        walkWaits[walked] = 0;
        walked++;
    }

    /**
     * Adds to the walk, from its entries at {@code from} on, everything they wait on, and for each flow on a connection
     * the message added before it there (a queue pair sends, delivers and completes its messages in order, and a
     * connection's messages are posted in the order they were added, as NCCL's steps wait for their predecessors: so
     * once a flow is delivered, so is every message before it on its connection). The walk is its own queue.
     */
    private void walk(int from, int lowestTask) {
        // With promises the walk also counts each entry's raisers (see passOnInOrder): it meets every wait of the
        // walk here, once, so the counts cost no second pass over the walk's waits.
        boolean count = lateList.length > 0;
        for (int i = from; i < walked; i++) {
            int t = walkTask[i];
            int deps = dependencies(t);
            for (int k = 0; k <= deps; k++) {
                int x = k < deps ? TaskGraph.target(dependency(t, k)) : earlierOnConnection(t);
                if (x < 0 || x < lowestTask) {
                    continue;
                }
                if (!inWalk(x)) {
                    discover(x, 0);
                }
                if (count && walkTail[mark[x]] >= 0) {
                    walkWaits[mark[x]]++;
                }
            }
        }
    }

    /** Counts each walk entry's raisers (see {@link #passOnInOrder}) for a walk made without {@link #walk}. */
    private void countWaits() {
        for (int i = 0; i < walked; i++) {
            if (walkTail[i] < 0) {
                continue;
            }
            int u = walkTask[i];
            int deps = dependencies(u);
            for (int k = 0; k <= deps; k++) {
                int x = k < deps ? TaskGraph.target(dependency(u, k)) : earlierOnConnection(u);
                if (x >= 0 && inWalk(x) && walkTail[mark[x]] >= 0) {
                    walkWaits[mark[x]]++;
                }
            }
        }
    }

    /** The flow task added just before flow task t on its connection, or -1. */
    int earlierOnConnection(int t) {
        if (graph.kind(t) != TaskGraph.Kind.FLOW) {
            return -1;
        }
        int f = graph.flowIndex(t);
        int c = graph.connection(f);
        return c < 0 || positionOfFlow[f] == 0 ? -1 : connectionTasks[connectionStart[c] + positionOfFlow[f] - 1];
    }

    /**
     * The tails of the walk and its ports' bound. A task's tail is raised, for each task of the walk that waits on it,
     * to that task's least duration plus its tail (plus the ACK latency for a wait on the ACK), and to the tail of the
     * message after it on its connection (delivered in order). A tail is a time that must pass between the task's end
     * and the end bounded in every schedule: each link of the chain is a wait the workload has and a least duration
     * (a compute's, a delay's, a message's alone). With {@code acked} the end bounded is every flow's ACK, so a flow's
     * tail is at least its ACK latency. The tails are the longest chains, so each task passes its tail on once, when
     * every task of the walk that raises it has passed its own on ({@link #passOnInOrder}); then every transfer's
     * ports with its final tail.
     */
    private long tailsOfWalk(boolean acked) {
        int low = dense ? denseLow : Integer.MAX_VALUE;
        int high = dense ? denseHigh : -1;
        for (int i = 0; !dense && i < walked; i++) {
            low = Math.min(low, walkTask[i]);
            high = Math.max(high, walkTask[i]);
            if (acked && walkTail[i] >= 0) {
                walkTail[i] = Math.max(walkTail[i], ackLatencyPs(walkTask[i]));
            }
        }
        sweepOver(low, high);
        passes = 0;
        if (lateList.length == 0) {
            // Without promises every task waits only on lower ones, and a connection's earlier message is lower too:
            // from the highest down is an order in which every tail is final when it is passed on.
            for (int i = sweepLength - 1; i >= 0; i--) {
                int t = sweepTask(i);
                if (inWalk(t) && walkTail[slot(t)] >= 0) {
                    passOn(t, t, null);
                }
            }
        } else {
            passOnInOrder();
        }
        int transfers = 0;
        for (int i = 0; i < sweepLength; i++) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && transfer(t)) {
                transfers++;
            }
        }
        if (transfers > portByPortAbove && portKeys() <= 8L * transfers) {
            return portWorkByPort(transfers);
        }
        entries = 0;
        for (int i = 0; i < sweepLength; i++) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && transfer(t)) {
                addPorts(t, false, walkTail[slot(t)]);
            }
        }
        return entries == 0 ? NEVER : portWorkPs();
    }

    /**
     * A sparse walk whose tasks span more than this many times their number is swept in the order of its tasks sorted
     * ({@link #sweepOver}), not over its span: a collective call's walk, from its first task to its last, spans every
     * task the other calls of that stretch of the job added in between (tens of times its own), and the span's four
     * sweeps, each asking every task of it whether it is in the walk, were a quarter of a 4,096-GPU job's bound.
     */
    static final int SORTED_ABOVE_SPAN = 4;

    private long sortedAboveSpan = SORTED_ABOVE_SPAN;

    /** Sparse walks spanning more than {@code ratio} times their tasks are swept sorted (tests: the same bound). */
    void sortedSweepAbove(long ratio) {
        sortedAboveSpan = ratio;
    }

    /** Whether the sweeps take the walk's tasks from {@link #sweepOrder} (sorted) rather than the span's ids. */
    private boolean sweepSorted;
    private int sweepLow;
    private int sweepLength;
    private int[] sweepOrder = new int[64];

    /**
     * Sets the sweeps of the walk's tasks from {@code low} to {@code high} ({@link #sweepTask}, ascending): the span's
     * ids, each asked whether it is in the walk, or for a sparse walk much narrower than its span its tasks sorted.
     * Both visit the walk's tasks in the same order, so every tail and bound is the same.
     */
    private void sweepOver(int low, int high) {
        long span = (long) high - low + 1;
        sweepSorted = !dense && span > sortedAboveSpan * walked;
        sweepLow = low;
        if (!sweepSorted) {
            sweepLength = (int) Math.max(0, span);
            return;
        }
        if (sweepOrder.length < walked) {
            sweepOrder = new int[Math.max(walked, 2 * sweepOrder.length)];
        }
        System.arraycopy(walkTask, 0, sweepOrder, 0, walked);
        Arrays.sort(sweepOrder, 0, walked);
        sweepLength = walked;
    }

    /** The i-th task of the sweeps set by {@link #sweepOver}, ascending (one not in the walk when over the span). */
    private int sweepTask(int i) {
        return sweepSorted ? sweepOrder[i] : sweepLow + i;
    }

    /**
     * Walks with more transfers than this bound their ports one at a time ({@link #portWorkByPort}): a job's end walk
     * has tens of millions, whose entries (four longs each, in arrays grown by doubling) took gigabytes at once.
     */
    static final int PORT_BY_PORT = 1 << 16;

    private int portByPortAbove = PORT_BY_PORT;

    /** Walks with more transfers than {@code transfers} bound their ports one at a time (tests: the same bound). */
    void portByPortAbove(int transfers) {
        portByPortAbove = transfers;
    }

    /** Port keys of every group ({@link #addPorts} files a group's four ports per host from group x 4 x hosts). */
    private long portKeys() {
        if (portKeyCount == 0) {
            int groups = 1;
            for (int i = 0; groupOfTask != null && i < groupOfTask.length; i++) {
                groups = Math.max(groups, groupOfTask[i] + 1);
            }
            portKeyCount = 4L * hosts * groups;
        }
        return portKeyCount;
    }

    private long portKeyCount;

    /**
     * The port work of the walk's transfers ({@link #portWorkPs} of all their entries), port by port: the transfers
     * are counted into their ports by task id, then each port's entries are made and bounded alone. A port's bound
     * depends only on its own entries in their order (by task, as one set files them), which this keeps, and the
     * walk's is the largest port's: the same bound, with a task id per entry held instead of four longs.
     */
    private long portWorkByPort(int transfers) {
        int ports = (int) portKeys();
        int[] start = new int[ports + 1];
        for (int i = 0; i < sweepLength; i++) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && transfer(t)) {
                start[(int) portKey(t, SENDER) + 1]++;
                start[(int) portKey(t, RECEIVER) + 1]++;
            }
        }
        for (int k = 0; k < ports; k++) {
            start[k + 1] += start[k];
        }
        int[] byPort = new int[2 * transfers];
        for (int i = 0; i < sweepLength; i++) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && transfer(t)) {
                byPort[start[(int) portKey(t, SENDER)]++] = t;
                byPort[start[(int) portKey(t, RECEIVER)]++] = t;
            }
        }
        // start[k] is now the end of port k's tasks, the start of port k + 1's.
        long bound = NEVER;
        int from = 0;
        for (int k = 0; k < ports; k++) {
            int to = start[k];
            if (to > from) {
                // Ports 0..4H-1 of a group: RNIC egress, RNIC ingress (flows), NVLink out, NVLink in.
                int side = (int) (k % (4L * hosts) / hosts) % 2 == 0 ? SENDER : RECEIVER;
                entries = 0;
                for (int i = from; i < to; i++) {
                    int t = byPort[i];
                    addPorts(t, false, walkTail[slot(t)], side);
                }
                bound = Math.max(bound, portWorkPs());
            }
            from = to;
        }
        return bound;
    }

    /** How many times the last group walk passed a tail on: once per task of the walk the walk goes past. */
    public long lastWalkPasses() {
        return passes;
    }

    /**
     * Passes the walk's tails on in a reverse topological order of its waits (promises respected: a receive posted
     * before the send it waits on) and of its connections' order, so that each task's tail is final when it is passed
     * on and every task and wait is taken once. Per walk entry it counts the tasks of the walk that raise its tail and
     * have not passed theirs on; tasks are taken from the highest down as in a graph without promises, and one still
     * waited on is skipped, then taken as soon as its last raiser has passed on (at once if the sweep is already
     * below it). A task taken repeatedly as a grown tail re-walked its cone made the job's end bound super-linear
     * (a 43.5-million-task job's pipeline receives are promises). Should the waits and the connections' order ever
     * close a cycle (no emitter makes one: a connection's messages are posted in the order they were added), the
     * tasks left are passed on once each with the tails they have (the first version passed them on until the
     * tails saturated, which did not end in practice). The counts are made by the walk ({@link #walk}, or
     * {@link #countWaits} for a walk of every task).
     */
    private void passOnInOrder() {
        int[] waits = walkWaits;
        for (int i = sweepLength - 1; i >= 0; i--) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && waits[slot(t)] == 0) {
                waits[slot(t)] = -1;
                passOn(t, t, waits);
            }
        }
        // Left: tasks on or below a cycle of waits and connection order (a message waiting, through others, on one
        // added after it on its connection). The chains round such a cycle have no longest one (each turn adds the
        // message's time), so passing on until nothing grows would not end; each is passed on once, from the
        // highest down, with the tail it has: a shorter tail only weakens the bound, so it stays one.
        for (int i = sweepLength - 1; i >= 0; i--) {
            int t = sweepTask(i);
            if (inWalk(t) && walkTail[slot(t)] >= 0 && waits[slot(t)] >= 0) {
                waits[slot(t)] = -1;
                passOn(t, t, waits);
            }
        }
    }

    /**
     * Passes task t's tail on to what it waits on and to the message before it on its connection. With {@code waits}
     * (see {@link #passOnInOrder}) each of those is one raiser less to wait for, and one above {@code cursor} (skipped
     * by the sweep) left with none is taken next; without, one above {@code cursor} (already taken) whose tail grows
     * passes its own on again.
     */
    private void passOn(int t, int cursor, int[] waits) {
        int top = 0;
        pending[top++] = t;
        while (top > 0) {
            int u = pending[--top];
            passes++;
            long tail = walkTail[slot(u)];
            long chain = Saturating.add(leastDurationPs(u), tail);
            int deps = dependencies(u);
            for (int k = 0; k <= deps; k++) {
                int x;
                long via;
                if (k < deps) {
                    int d = dependency(u, k);
                    x = TaskGraph.target(d);
                    via = TaskGraph.isAck(d) ? Saturating.add(chain, ackLatencyPs(x)) : chain;
                } else {
                    x = earlierOnConnection(u);
                    via = tail;
                }
                if (x < 0 || !inWalk(x)) {
                    continue;
                }
                int w = slot(x);
                if (walkTail[w] < 0) {
                    continue;
                }
                boolean grew = via > walkTail[w];
                if (grew) {
                    walkTail[w] = via;
                }
                boolean next = waits == null ? grew && x > cursor : --waits[w] == 0 && x > cursor;
                if (next) {
                    if (waits != null) {
                        waits[w] = -1;
                    }
                    if (top == pending.length) {
                        pending = Arrays.copyOf(pending, top * 2);
                    }
                    pending[top++] = x;
                }
            }
        }
    }

    /**
     * The least time task t takes from its start to its end in any schedule: a message's alone, a compute's own. The
     * pass ({@link #earliest}) ended every transfer that long after it was sent: that difference is read back, so a
     * walk's tasks cost no path, wire bytes or serialisation again, and is the same unless the end saturated.
     */
    private long leastDurationPs(int t) {
        switch (graph.kind(t)) {
            case FLOW -> {
                int f = graph.flowIndex(t);
                long end = endPs[t];
                return end != Long.MAX_VALUE ? end - sendStartPs[f] : flowAlonePs(f);
            }
            case NVLINK -> {
                long end = endPs[t];
                return end != Long.MAX_VALUE ? end - startPs[t]
                        : Saturating.add(Rates.serializationPs(graph.nvlinkBytes(t), nvlinkBps), nvlinkLatencyPs);
            }
            default -> {
                return graph.durationPs(t);
            }
        }
    }

    /** Flow f's time alone: its wire bytes at its path's bottleneck, then its path's latency. */
    private long flowAlonePs(int f) {
        Path p = path(graph.flowSource(f), graph.flowDestination(f));
        long bytes = graph.flowBytes(f);
        return Saturating.add(Rates.serializationPs(timing.wireBytes(bytes), p.bottleneckBps()), latencyPs(p, bytes));
    }

    /**
     * The time from transfer x's end to its sender's completion: a flow's ACK latency, 0 for anything else; read back
     * from the pass as {@link #leastDurationPs} is (its completion is its end plus that latency).
     */
    private long ackLatencyPs(int x) {
        if (graph.kind(x) != TaskGraph.Kind.FLOW) {
            return 0;
        }
        int f = graph.flowIndex(x);
        long completed = completedPs[f];
        return completed != Long.MAX_VALUE ? completed - endPs[x]
                : path(graph.flowSource(f), graph.flowDestination(f)).ackLatencyPs();
    }

    @Override
    public TaskGraph graph() {
        return graph;
    }

    /** The ideal network the bounds are on. */
    IdealNetwork network() {
        return network;
    }

    /** The hosts the bounds have ports for. */
    int hostCount() {
        return hosts;
    }

    /** The bound of when a task starts (a flow: is posted): every task it waits on done. */
    @Override
    public long taskStartPs(int task) {
        return startPs[task & taskMask];
    }

    /** The bound of when a task ends (a flow: is delivered). */
    @Override
    public long taskEndPs(int task) {
        return endPs[task & taskMask];
    }

    /** The bound of when flow i's sender has its last ACK. */
    @Override
    public long completedPs(int flow) {
        return completedPs[flow & flowMask];
    }
}
