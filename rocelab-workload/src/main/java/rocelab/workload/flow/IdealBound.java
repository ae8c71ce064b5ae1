package rocelab.workload.flow;

import java.util.Arrays;
import rocelab.engine.Rates;
import rocelab.engine.Saturating;
import rocelab.fabric.network.PathTiming;
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
 *       earlier than the one added before it on that connection has left the sender's RNIC.</li>
 *   <li><b>Port work.</b> Messages through one port (an RNIC's egress or ingress, a GPU's NVLink out or in) are
 *       served by one server of the port's rate: whatever the order, the last of a set M through port p cannot be
 *       done before {@code max over k of (r_k + (bytes of the j in M with r_j >= r_k) / rate_p) + (least tail of
 *       those j)}, where r_j is the earliest time message j's bits can reach p (its earliest start, plus at an
 *       ingress port the latency before it) and the tail the least latency from the port to the end (the single
 *       machine with release dates, preemptive: its optimum is this bound). It is applied where the last of a set is
 *       what counts: every task that waits on two or more transfers directly (a join: over those transfers, and
 *       again with each connection's messages up to the latest it waits on; its bound then propagates to everything
 *       after it), and the groups the outputs report ({@link #lastEndPs}: a collective call, an
 *       iteration, a job, a request, all the traffic), over the transfers the group's end waits on: those it
 *       depends on, and on each connection every message added before one of those (a queue pair sends, delivers
 *       and completes in order, and a connection's messages are posted in the order they were added).</li>
 * </ul>
 *
 * <p>It ignores, as the ideal network does, everything between the RNICs: queues, ECN marks, rate cuts, pauses,
 * drops, ECMP collisions. Its message times are the closed form, so a flow alone, an incast into one port and a ring
 * AllReduce on one channel get their closed forms; with several queue pairs between two RNICs it is the work of the
 * ports, not a fair share of them, that bounds the time. Cost: one pass over the tasks in dependency order (each
 * join's transfers sorted), and one pass over a group's tasks per reported group.
 */
public final class IdealBound implements TaskTimes {
    private static final long NEVER = -1;

    private final TaskGraph graph;
    private final PathTiming timing;
    private final IdealNetwork network;
    private final int hosts;
    private final int[] groupOfTask;
    private final long[] rnicBps;
    private final long nvlinkBps;
    private final long nvlinkLatencyPs;
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
    private final Path[] paths = new Path[PATH_CACHE];
    private final long[] pathRates;
    private final long[] pathDelays;

    // Scratch for port-work bounds: one entry per (transfer, port).
    private int entries;
    private long[] entryKey = new long[64];
    private long[] entryRelease = new long[64];
    private long[] entryBytes = new long[64];
    private long[] entryTail = new long[64];
    private int[] order = new int[64];
    private int[] sortScratch = new int[64];
    private long[] packed = new long[64];
    // Scratch for walks over a group's dependencies.
    private final int[] mark;
    private int epoch;
    private int[] stack = new int[64];
    private long lastFinishPs = NEVER;
    /** Each connection's flow tasks in the order added, and per walk how far into them it has gone. */
    private final int[] connectionStart;
    private final int[] connectionTasks;
    private int[] positionOfFlow;
    private int[] coveredEpoch;
    private int[] covered;
    /** Per flow: when its queue pair can start sending it; on its connection up to it, wire bytes and least latency. */
    private final long[] sendStartPs;
    private final long[] prefixBytes;
    private final long[] prefixLatencyPs;
    /** Per connection: the next position the pass expects (-1: met out of order), when its queue pair is free, when
     * its first message was sent, and scratch for a join's latest message on it. */
    private int[] nextPosition;
    private long[] queuePairFreePs;
    private long[] firstSendPs;
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
    private int processed;
    private int[] lastFlowOnConnection;
    private long streamedLastFinishPs;

    /** A host pair's path on the ideal network: its links' rates and delays. */
    private record Path(int src, int dst, long[] rates, long[] delays, int hops, long bottleneckBps,
            long ackLatencyPs, long lastDelayPs, long fullFrameLatencyPs) {}

    /**
     * The bounds of every task of {@code graph} on {@code network}; {@code groupOfTask} (null: all one group) puts
     * tasks on copies of the capacities of their own, as if each group ran alone.
     */
    public IdealBound(TaskGraph graph, IdealNetwork network, int hostCount, int[] groupOfTask) {
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
        for (int h = 0; h < hostCount; h++) {
            rnicBps[h] = network.rnicRateBps(h);
        }
        LocalLinks local = graph.localLinks();
        this.nvlinkBps = local == null ? 1 : local.rateBps();
        this.nvlinkLatencyPs = local == null ? 0 : local.latencyPs();
        this.pathRates = new long[network.maxHops()];
        this.pathDelays = new long[network.maxHops()];
        int n = graph.taskCount();
        this.startPs = new long[n];
        this.endPs = new long[n];
        this.completedPs = new long[graph.flowCount()];
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
        this.coveredEpoch = new int[connections];
        this.covered = new int[connections];
        this.sendStartPs = new long[graph.flowCount()];
        this.prefixBytes = new long[graph.flowCount()];
        this.prefixLatencyPs = new long[graph.flowCount()];
        this.nextPosition = new int[connections];
        this.queuePairFreePs = new long[connections];
        this.firstSendPs = new long[connections];
        this.connectionStamp = new int[connections];
        this.latestOnConnection = new int[connections];
        this.latestAcked = new boolean[connections];
        for (int t : dependencyOrder()) {
            earliest(t);
        }
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
        for (int h = 0; h < hostCount; h++) {
            rnicBps[h] = network.rnicRateBps(h);
        }
        LocalLinks local = graph.localLinks();
        this.nvlinkBps = local == null ? 1 : local.rateBps();
        this.nvlinkLatencyPs = local == null ? 0 : local.latencyPs();
        this.pathRates = new long[network.maxHops()];
        this.pathDelays = new long[network.maxHops()];
        this.startPs = new long[window];
        this.endPs = new long[window];
        this.completedPs = new long[window];
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
        int old = nextPosition == null ? 0 : nextPosition.length;
        coveredEpoch = new int[n];
        covered = new int[n];
        nextPosition = nextPosition == null ? new int[n] : Arrays.copyOf(nextPosition, n);
        queuePairFreePs = queuePairFreePs == null ? new long[n] : Arrays.copyOf(queuePairFreePs, n);
        firstSendPs = firstSendPs == null ? new long[n] : Arrays.copyOf(firstSendPs, n);
        connectionStamp = connectionStamp == null ? new int[n] : Arrays.copyOf(connectionStamp, n);
        latestOnConnection = latestOnConnection == null ? new int[n] : Arrays.copyOf(latestOnConnection, n);
        latestAcked = latestAcked == null ? new boolean[n] : Arrays.copyOf(latestAcked, n);
        lastFlowOnConnection = lastFlowOnConnection == null ? new int[n] : Arrays.copyOf(lastFlowOnConnection, n);
        Arrays.fill(lastFlowOnConnection, old, n, -1);
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
            if (f >= 0 && graph.connection(f) >= 0) {
                lastFlowOnConnection[graph.connection(f)] = f;
            }
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
    private int[] dependencyOrder() {
        int n = graph.taskCount();
        int[] out = new int[n];
        if (lateList.length == 0) {
            for (int t = 0; t < n; t++) {
                out[t] = t;
            }
            return out;
        }
        // Kahn's algorithm; ties in task order (a min-heap would too, but any topological order gives the same bounds).
        int[] waiting = new int[n];
        int[] outStart = new int[n + 1];
        for (int t = 0; t < n; t++) {
            waiting[t] = dependencies(t);
            for (int i = 0; i < waiting[t]; i++) {
                outStart[target(dependency(t, i)) + 1]++;
            }
        }
        for (int t = 0; t < n; t++) {
            outStart[t + 1] += outStart[t];
        }
        int[] next = new int[outStart[n]];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int t = 0; t < n; t++) {
            for (int i = 0; i < dependencies(t); i++) {
                next[fill[target(dependency(t, i))]++] = t;
            }
        }
        int head = 0;
        int tail = 0;
        for (int t = 0; t < n; t++) {
            if (waiting[t] == 0) {
                out[tail++] = t;
            }
        }
        while (head < tail) {
            int t = out[head++];
            for (int i = outStart[t]; i < outStart[t + 1]; i++) {
                if (--waiting[next[i]] == 0) {
                    out[tail++] = next[i];
                }
            }
        }
        return out;
    }

    private int dependencies(int t) {
        return graph.dependencyCount(t) + (lateList.length == 0 ? 0 : lateStart[t + 1] - lateStart[t]);
    }

    /** The i-th dependency of t, the late ones (a promise's) after those given when it was added. */
    private int dependency(int t, int i) {
        int given = graph.dependencyCount(t);
        return i < given ? graph.dependency(t, i) : lateList[lateStart[t] + i - given];
    }

    private static int target(int d) {
        return d >= 0 ? d : ~d;
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
            int x = target(d);
            if (!held(x)) {
                continue;
            }
            ready = Math.max(ready, d >= 0 ? endPs[x & taskMask] : acknowledgedPs(x));
            transfers += transfer(x) ? 1 : 0;
        }
        if (transfers >= 2) {
            // A join of transfers: the last of them is bounded by the work of every port they share.
            entries = 0;
            for (int i = 0; i < deps; i++) {
                int d = dependency(t, i);
                if (held(target(d)) && transfer(target(d))) {
                    addPorts(target(d), d < 0);
                }
            }
            ready = Math.max(ready, portWorkPs());
            ready = Math.max(ready, connectionWorkPs(t, deps));
        }
        startPs[t & taskMask] = ready;
        switch (graph.kind(t)) {
            case FLOW -> {
                int f = graph.flowIndex(t);
                int src = graph.flowSource(f);
                Path p = path(src, graph.flowDestination(f));
                long size = graph.flowBytes(f);
                long wire = timing.wireBytes(size);
                long latency = latencyPs(p, size);
                long send = queuePair(f, ready, wire, latency, rnicBps[src]);
                sendStartPs[f & flowMask] = send;
                endPs[t & taskMask] = Saturating.add(send,
                        Saturating.add(Rates.serializationPs(wire, p.bottleneckBps()), latency));
                completedPs[f & flowMask] = Saturating.add(endPs[t & taskMask], p.ackLatencyPs());
            }
            case NVLINK -> endPs[t & taskMask] = Saturating.add(ready, Saturating.add(
                    Rates.serializationPs(graph.nvlinkBytes(t), nvlinkBps), nvlinkLatencyPs));
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
        queuePairFreePs[c] = Saturating.add(send, Rates.serializationPs(wire, rnic));
        if (positionOfFlow[fm] == 0) {
            firstSendPs[c] = send;
            prefixBytes[fm] = wire;
            prefixLatencyPs[fm] = latency;
        } else {
            int before = streamed ? lastFlowOnConnection[c] & flowMask
                    : graph.flowIndex(connectionTasks[connectionStart[c] + positionOfFlow[f] - 1]);
            prefixBytes[fm] = Saturating.add(prefixBytes[before], wire);
            prefixLatencyPs[fm] = Math.min(prefixLatencyPs[before], latency);
        }
        return send;
    }

    /**
     * The port work of a join's transfers with every message before them on their connections: once a flow is
     * delivered (or acknowledged) so is everything sent before it on its queue pair. Per connection the messages up
     * to the latest one waited on count as one, released when the first was sent, with their bytes and the least
     * latency (a relaxation of their own releases, so still a bound); other transfers count as themselves.
     */
    private long connectionWorkPs(int t, int deps) {
        entries = 0;
        int stamp = t + 1;
        for (int i = 0; i < deps; i++) {
            int d = dependency(t, i);
            int x = target(d);
            if (held(x) && graph.kind(x) == TaskGraph.Kind.FLOW && summed(graph.flowIndex(x))) {
                int f = graph.flowIndex(x);
                int c = graph.connection(f);
                if (connectionStamp[c] != stamp
                        || positionOfFlow[f & flowMask] > positionOfFlow[latestOnConnection[c] & flowMask]) {
                    connectionStamp[c] = stamp;
                    latestOnConnection[c] = f;
                    latestAcked[c] = d < 0;
                }
            }
        }
        for (int i = 0; i < deps; i++) {
            int d = dependency(t, i);
            int x = target(d);
            if (!held(x) || !transfer(x)) {
                continue;
            }
            if (graph.kind(x) != TaskGraph.Kind.FLOW || !summed(graph.flowIndex(x))) {
                addPorts(x, d < 0);
                continue;
            }
            int f = graph.flowIndex(x);
            int c = graph.connection(f);
            if (connectionStamp[c] == stamp && latestOnConnection[c] == f) {
                connectionStamp[c] = -stamp;
                int src = graph.flowSource(f);
                int dst = graph.flowDestination(f);
                Path p = path(src, dst);
                long base = (long) (groupOfTask == null ? 0 : groupOfTask[x]) * 4 * hosts;
                long ack = latestAcked[c] ? p.ackLatencyPs() : 0;
                long latency = prefixLatencyPs[f & flowMask];
                add(base + src, firstSendPs[c], prefixBytes[f & flowMask], latency + ack);
                add(base + hosts + dst, Saturating.add(firstSendPs[c], latency - p.lastDelayPs()),
                        prefixBytes[f & flowMask], p.lastDelayPs() + ack);
            }
        }
        return entries == 0 ? NEVER : portWorkPs();
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

    /** A message's delivery latency on its path: it depends on its size only below one full frame. */
    private long latencyPs(Path p, long sizeBytes) {
        return sizeBytes >= timing.mtuBytes() ? p.fullFrameLatencyPs()
                : timing.deliveryLatencyPs(p.rates(), p.delays(), p.hops(), sizeBytes);
    }

    private Path path(int src, int dst) {
        int slot = (int) ((((long) src * hosts + dst) * 0x9E3779B97F4A7C15L) >>> 48);
        Path p = paths[slot];
        if (p == null || p.src() != src || p.dst() != dst) {
            int hops = network.path(src, dst, pathRates, pathDelays);
            long[] r = Arrays.copyOf(pathRates, hops);
            long[] d = Arrays.copyOf(pathDelays, hops);
            p = new Path(src, dst, r, d, hops, PathTiming.bottleneck(r, hops) * network.planesPerMessage(),
                    timing.ackLatencyPs(r, d, hops),
                    d[hops - 1], timing.deliveryLatencyPs(r, d, hops, timing.mtuBytes()));
            paths[slot] = p;
        }
        return p;
    }

    /**
     * Adds transfer x's two ports to the scratch set: a flow's sender egress (its bits can be there from its start;
     * then the whole path latency) and receiver ingress (from its start plus the latency up to the last link; then
     * that link's propagation); an NVLink transfer's GPU ports (then the NVLink latency). With {@code acked} the
     * end is the sender's ACK, one ACK latency later.
     */
    private void addPorts(int x, boolean acked) {
        long base = (long) (groupOfTask == null ? 0 : groupOfTask[x]) * 4 * hosts;
        if (graph.kind(x) == TaskGraph.Kind.FLOW) {
            int f = graph.flowIndex(x);
            int src = graph.flowSource(f);
            int dst = graph.flowDestination(f);
            Path p = path(src, dst);
            long size = graph.flowBytes(f);
            long latency = latencyPs(p, size);
            long ack = acked ? p.ackLatencyPs() : 0;
            long wire = timing.wireBytes(size);
            long send = sendStartPs[f & flowMask];
            add(base + src, send, wire, latency + ack);
            add(base + hosts + dst, Saturating.add(send, latency - p.lastDelayPs()), wire,
                    p.lastDelayPs() + ack);
        } else {
            long bytes = graph.nvlinkBytes(x);
            add(base + 2L * hosts + graph.owner(x), startPs[x & taskMask], bytes, nvlinkLatencyPs);
            add(base + 3L * hosts + graph.nvlinkDestination(x), startPs[x & taskMask], bytes, nvlinkLatencyPs);
        }
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
     * The port-work bound of the scratch set: per port, from the latest release down, the bytes released at or after
     * each release at the port's rate, plus the least tail among them; the largest over ports and releases.
     */
    private long portWorkPs() {
        if (order.length < entries) {
            order = new int[entries];
            sortScratch = new int[entries];
        }
        sortEntries();
        long bound = NEVER;
        int i = entries - 1;
        while (i >= 0) {
            long key = entryKey[order[i]];
            long rate = rateOf(key);
            long bytes = 0;
            long tail = Long.MAX_VALUE;
            for (; i >= 0 && entryKey[order[i]] == key; i--) {
                int e = order[i];
                bytes = Saturating.add(bytes, entryBytes[e]);
                tail = Math.min(tail, entryTail[e]);
                boolean lowestOfRelease = i == 0 || entryKey[order[i - 1]] != key
                        || entryRelease[order[i - 1]] != entryRelease[e];
                if (lowestOfRelease) {
                    bound = Math.max(bound, Saturating.add(Saturating.add(entryRelease[e],
                            Rates.serializationPs(bytes, rate)), tail));
                }
            }
        }
        return bound;
    }

    /** The rate of a port key: ports 0..4H-1 of each group are RNIC egress, RNIC ingress, NVLink out, NVLink in. */
    private long rateOf(long key) {
        int port = (int) (key % (4L * hosts));
        return port < 2 * hosts ? rnicBps[port % hosts] : nvlinkBps;
    }

    /**
     * Puts in order[0, entries) the entries sorted by (port, release). The bound does not depend on how entries of
     * one port and release are ordered among themselves (their bytes are summed and their tails' least taken before
     * the release is evaluated), so any such order gives the same bound. A group's walk gathers tens of millions of
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
     * A bound of when the last of {@code done} ends: the latest of their own bounds, and the work of the ports of every
     * transfer they wait on, directly or through other tasks. The walk back does not go past the tasks of
     * {@code stops} (their own waits are left out) nor below task {@code lowestTask}: leaving transfers out only
     * weakens the bound, so any such cut keeps it a bound and keeps the walk to the group's own tasks.
     */
    public long lastEndPs(int[] done, int[] stops, int lowestTask) {
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
        epoch++;
        if (epoch == Integer.MAX_VALUE) {
            Arrays.fill(mark, 0);
            Arrays.fill(coveredEpoch, 0);
            epoch = 1;
        }
        int stopEpoch = -epoch;
        for (int s : stops) {
            mark[s] = stopEpoch;
        }
        int top = 0;
        entries = 0;
        for (int t : done) {
            top = visit(t, lowestTask, top, stopEpoch);
        }
        while (top > 0) {
            int t = stack[--top];
            if (transfer(t)) {
                addPorts(t, false);
                top = visitEarlierOnConnection(t, lowestTask, top, stopEpoch);
            }
            for (int i = 0; i < dependencies(t); i++) {
                top = visit(target(dependency(t, i)), lowestTask, top, stopEpoch);
            }
        }
        long bound = entries == 0 ? last : Math.max(last, portWorkPs());
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
        if (stack.length > KEPT_SCRATCH) {
            stack = new int[64];
        }
    }

    /**
     * A queue pair sends, delivers and completes its messages in order, and a connection's messages are posted in the
     * order they were added (each waits for what comes before it on the connection, as NCCL's steps do): so once
     * flow task t is done, so is every message added before it on its connection.
     */
    private int visitEarlierOnConnection(int t, int lowestTask, int top, int stopEpoch) {
        if (graph.kind(t) != TaskGraph.Kind.FLOW) {
            return top;
        }
        int f = graph.flowIndex(t);
        int c = graph.connection(f);
        if (c < 0) {
            return top;
        }
        int position = positionOfFlow[f];
        int from = coveredEpoch[c] == epoch ? covered[c] + 1 : 0;
        if (position <= from - 1) {
            return top;
        }
        coveredEpoch[c] = epoch;
        covered[c] = position;
        for (int i = from; i < position; i++) {
            top = visit(connectionTasks[connectionStart[c] + i], lowestTask, top, stopEpoch);
        }
        return top;
    }

    private int visit(int t, int lowestTask, int top, int stopEpoch) {
        if (t < lowestTask || mark[t] == epoch || mark[t] == stopEpoch) {
            return top;
        }
        mark[t] = epoch;
        if (top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
        }
        stack[top++] = t;
        return top;
    }

    /**
     * A bound of when the last task of the whole graph is done (flows acknowledged): the latest bound of any task, and
     * the work of every port of every group.
     */
    public long lastFinishPs() {
        if (streamed) {
            return streamedLastFinishPs;
        }
        if (lastFinishPs == NEVER) {
            long last = 0;
            entries = 0;
            for (int t = 0; t < graph.taskCount(); t++) {
                last = Math.max(last, graph.kind(t) == TaskGraph.Kind.FLOW ? acknowledgedPs(t) : endPs[t]);
                if (transfer(t)) {
                    addPorts(t, true);
                }
            }
            lastFinishPs = entries == 0 ? last : Math.max(last, portWorkPs());
            releaseLargeScratch();
        }
        return lastFinishPs;
    }

    @Override
    public TaskGraph graph() {
        return graph;
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
