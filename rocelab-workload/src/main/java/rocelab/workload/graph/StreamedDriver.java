package rocelab.workload.graph;

import java.util.Arrays;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.workload.flow.FlowRoute;
import rocelab.workload.flow.FlowRouter;
import rocelab.workload.flow.FluidNetwork;

/**
 * Runs a {@link TaskSource} flow-level on a streamed {@link TaskGraph}: tasks are added as the run reaches them and
 * retired once done, so only the live frontier of the workload is in memory (a 32,768-GPU AllReduce's 268 million
 * messages are a few of its ring steps at a time). The model is {@link WorkloadDriver#flowLevel}'s, rule for rule:
 * a flow is a fluid over its route's capacities, posted on its queue pair when its dependencies are met (a queue
 * pair sends its messages one after the other), delivered after its path's fixed latency and acknowledged an ACK
 * latency later; NVLink transfers are fluids on the GPUs' NVLink ports, those of one connection one after the other;
 * timed tasks take their time.
 *
 * <p>What differs is only when tasks exist. The source is asked for more while the graph holds fewer than
 * {@code lookahead} tasks beyond the highest task started; a task added is registered with what it waits on at once
 * (a dependency already done, or retired, counts as met). A task all of whose dependencies were met before the
 * instant it was added would have started late: the run fails instead of giving a wrong time, so a lookahead too
 * short for a workload cannot go unnoticed. Finished tasks below the lowest unfinished one are retired, keeping
 * {@code keep} tasks behind the newest for the ideal bound's look back ({@code IdealBound.streamed}).
 * Each flow is handed to a {@link FlowSink} when it is acknowledged (it leaves the window after), since no per-flow
 * record survives the run.
 */
public final class StreamedDriver implements EventHandler {
    /** Hears every flow once it is acknowledged, while its task is still in the window. */
    public interface FlowSink {
        void flowDone(int flow, int task, long startPs, long deliveredPs, long completedPs, int queuePair);
    }

    /** Hears every batch of tasks added to the graph, before the run registers them (the ideal bound's pass). */
    public interface AddListener {
        void added(TaskGraph graph);
    }

    private static final int TIMER_END = 2;
    private static final int READY = 3;
    private static final int ACKED = 4;
    private static final int DELIVERED = 7;
    private static final byte ENDED = 1;
    private static final byte ACKNOWLEDGED = 2;

    private final Simulator sim;
    private final int handlerId;
    private final TaskGraph graph;
    private final TaskSource source;
    private final FlowRouter router;
    private final FluidNetwork fluid;
    private final FlowSink sink;
    private final AddListener onAdd;
    private final int hostCount;
    private final int nvlinkBase;
    private final int mask;
    private final int lookahead;
    private final int keep;

    // Per task, in the window (index: task & mask).
    private final int[] waitingFor;
    private final long[] startPs;
    private final long[] endPs;
    private final byte[] state;
    /** Dependents to release when the task ends (delivered) and when it is acknowledged: heads of edge chains. */
    private final int[] onEndHead;
    private final int[] onAckHead;
    // Per flow, in the window (index: flow & mask).
    private final int[] queuePairOfFlow;
    private final long[] deliveryLatencyPs;
    private final long[] ackLatencyPs;
    private final int[] nextWaiting;
    private final long[] completedPs;
    /** NVLink transfers of one connection one after the other (null without NVLink). */
    private final LinkQueues linkQueues;
    // Edges: a pool of (dependent, next) with a free list.
    private int[] edgeTask = new int[1 << 16];
    private int[] edgeNext = new int[1 << 16];
    private int edgeFree = -1;
    private int edgeTop;
    // Queue pairs: one per connection, numbered in flow order as the packet level numbers them.
    private int[] queuePairOfConnection = new int[1 << 10];
    private int queuePairs;
    private boolean[] queuePairBusy = new boolean[1 << 10];
    private int[] waitingHead = new int[1 << 10];
    private int[] waitingTail = new int[1 << 10];
    /**
     * Each queue pair's last route and the message size it was made for: a queue pair's messages go between the same
     * two hosts on the same ECMP entropy, and a streamed run's routes never change (it has no link events: the caller's
     * promise, which {@code StreamedRun} keeps by refusing them), so the route of
     * the next message of the same size is the same (a collective's messages come in a few sizes).
     */
    private FlowRoute[] routeOfQueuePair = new FlowRoute[1 << 10];
    private long[] routeBytes = new long[1 << 10];

    private int[] work = new int[64];
    private int workSize;
    private int registered;
    private int lowestUnfinished;
    private int highestStarted = -1;
    private boolean sourceDone;
    private long finished;
    private long tasksAdded;
    private long postedFlows;
    private long finishedFlows;
    private long deliveredBytes;
    private long lastFinishPs;
    private long firstTransferStartPs = -1;
    private long emissions;

    /**
     * @param graph an empty streamed graph ({@link TaskGraph#streamed}) with the workload's servers and NVLink set
     * @param lookahead tasks to keep added beyond the highest one started (at least twice the source's largest part)
     * @param keep finished tasks to keep behind the newest task (what later tasks may still name, for the ideal bound)
     */
    public StreamedDriver(Simulator sim, TaskGraph graph, TaskSource source, FlowRouter router, int hostCount,
            int lookahead, int keep, FlowSink sink, AddListener onAdd) {
        if (!graph.isStreamed() || graph.taskCount() > 0) {
            throw new IllegalArgumentException("a streamed driver needs an empty streamed graph");
        }
        int window = graph.windowTasks();
        if ((long) lookahead + keep + 4L * source.largestPart() > window) {
            throw new IllegalArgumentException("a window of " + window + " tasks cannot hold a lookahead of "
                    + lookahead + ", " + keep + " kept and parts of " + source.largestPart());
        }
        this.sim = sim;
        this.handlerId = sim.register(this);
        this.graph = graph;
        this.source = source;
        this.router = router;
        this.sink = sink;
        this.onAdd = onAdd;
        this.hostCount = hostCount;
        this.mask = window - 1;
        this.lookahead = lookahead;
        this.keep = keep;
        double[] fabric = router.capacitiesBps();
        this.nvlinkBase = fabric.length;
        double[] capacities = Arrays.copyOf(fabric, fabric.length + 2 * hostCount);
        if (graph.localLinks() != null) {
            Arrays.fill(capacities, fabric.length, capacities.length, graph.localLinks().rateBps());
        }
        this.fluid = new FluidNetwork(sim, capacities, 64, this::sent);
        this.waitingFor = new int[window];
        this.startPs = new long[window];
        this.endPs = new long[window];
        this.state = new byte[window];
        this.onEndHead = new int[window];
        this.onAckHead = new int[window];
        this.queuePairOfFlow = new int[window];
        this.deliveryLatencyPs = new long[window];
        this.ackLatencyPs = new long[window];
        this.nextWaiting = new int[window];
        this.completedPs = new long[window];
        this.linkQueues = graph.localLinks() == null ? null : new LinkQueues(window, mask);
        Arrays.fill(queuePairOfConnection, -1);
        emit(0);
        drain(0);
    }

    /** Asks the source for parts while the lookahead is short (or nothing at all would run), then registers them. */
    private void emit(long nowPs) {
        while (!sourceDone && (graph.taskCount() - (long) highestStarted <= lookahead || registered == lowestUnfinished)) {
            if (graph.taskCount() - (long) graph.retiredTasks() + source.largestPart() >= graph.windowTasks() - 1) {
                if (registered == lowestUnfinished) {
                    throw new IllegalStateException("the streamed graph's window is full with nothing to run");
                }
                return;
            }
            sourceDone = !source.emitMore(graph);
            emissions++;
            if (onAdd != null) {
                onAdd.added(graph);
            }
            while (registered < graph.taskCount()) {
                register(nowPs, registered++);
            }
        }
    }

    private void register(long nowPs, int t) {
        int s = t & mask;
        tasksAdded++;
        state[s] = 0;
        startPs[s] = -1;
        endPs[s] = -1;
        onEndHead[s] = -1;
        onAckHead[s] = -1;
        int f = graph.flowIndex(t);
        if (f >= 0) {
            int c = graph.connection(f);
            int qp;
            if (c < 0) {
                qp = newQueuePair(f);
            } else {
                if (c >= queuePairOfConnection.length) {
                    int old = queuePairOfConnection.length;
                    queuePairOfConnection = Arrays.copyOf(queuePairOfConnection, Math.max(c + 1, old * 2));
                    Arrays.fill(queuePairOfConnection, old, queuePairOfConnection.length, -1);
                }
                qp = queuePairOfConnection[c];
                if (qp < 0) {
                    qp = newQueuePair(f);
                    queuePairOfConnection[c] = qp;
                }
            }
            queuePairOfFlow[f & mask] = qp;
            completedPs[f & mask] = -1;
        }
        int waiting = 0;
        long readyPs = graph.notBeforePs(t);
        boolean allMetBefore = true;
        int n = graph.dependencyCount(t);
        for (int i = 0; i < n; i++) {
            int d = graph.dependency(t, i);
            int x = TaskGraph.target(d);
            boolean ack = TaskGraph.isAck(d);
            int xs = x & mask;
            if (x < graph.retiredTasks()) {
                continue; // retired: done long before
            }
            boolean met = (state[xs] & (ack ? ACKNOWLEDGED : ENDED)) != 0;
            if (met) {
                long at = ack && graph.flowIndex(x) >= 0 ? completedPs[graph.flowIndex(x) & mask] : endPs[xs];
                readyPs = Math.max(readyPs, at);
                continue;
            }
            allMetBefore = false;
            waiting++;
            int e = newEdge(t);
            if (ack) {
                edgeNext[e] = onAckHead[xs];
                onAckHead[xs] = e;
            } else {
                edgeNext[e] = onEndHead[xs];
                onEndHead[xs] = e;
            }
        }
        waitingFor[s] = waiting;
        if (waiting == 0) {
            if (n > 0 && allMetBefore && readyPs < nowPs) {
                throw new IllegalStateException("streamed task " + t + " was added at " + nowPs + " ps, after what it"
                        + " waits on was done (" + readyPs + " ps): the lookahead of " + lookahead + " tasks is too short");
            }
            ready(nowPs, t);
        }
    }

    /** Opens the QP of flow {@code f}'s connection: the next id, opened in that order as at packet level. */
    private int newQueuePair(int f) {
        int q = queuePairs++;
        router.open(q, graph.flowSource(f), graph.flowDestination(f));
        if (q == queuePairBusy.length) {
            int m = q * 2;
            queuePairBusy = Arrays.copyOf(queuePairBusy, m);
            waitingHead = Arrays.copyOf(waitingHead, m);
            waitingTail = Arrays.copyOf(waitingTail, m);
            routeOfQueuePair = Arrays.copyOf(routeOfQueuePair, m);
            routeBytes = Arrays.copyOf(routeBytes, m);
        }
        routeOfQueuePair[q] = null;
        waitingHead[q] = -1;
        waitingTail[q] = -1;
        return q;
    }

    private int newEdge(int dependent) {
        int e;
        if (edgeFree >= 0) {
            e = edgeFree;
            edgeFree = edgeNext[e];
        } else {
            if (edgeTop == edgeTask.length) {
                edgeTask = Arrays.copyOf(edgeTask, edgeTop * 2);
                edgeNext = Arrays.copyOf(edgeNext, edgeTop * 2);
            }
            e = edgeTop++;
        }
        edgeTask[e] = dependent;
        return e;
    }

    private void ready(long nowPs, int t) {
        long notBefore = graph.notBeforePs(t);
        if (notBefore > nowPs) {
            sim.schedule(notBefore, handlerId, READY, t);
        } else {
            start(nowPs, t);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        switch (kind) {
            case TIMER_END, DELIVERED -> push((int) arg);
            case READY -> start(nowPs, (int) arg);
            case ACKED -> acknowledged(nowPs, (int) arg);
            default -> throw new IllegalStateException("unknown event " + kind);
        }
        drain(nowPs);
    }

    private void start(long nowPs, int t) {
        startPs[t & mask] = nowPs;
        if (t > highestStarted) {
            highestStarted = t;
        }
        int f = graph.flowIndex(t);
        if (f >= 0) {
            if (firstTransferStartPs < 0) {
                firstTransferStartPs = nowPs;
            }
            postedFlows++;
            int qp = queuePairOfFlow[f & mask];
            if (queuePairBusy[qp]) {
                nextWaiting[f & mask] = -1;
                if (waitingTail[qp] < 0) {
                    waitingHead[qp] = f;
                } else {
                    nextWaiting[waitingTail[qp] & mask] = f;
                }
                waitingTail[qp] = f;
            } else {
                send(nowPs, f);
            }
        } else if (graph.kind(t) == TaskGraph.Kind.NVLINK) {
            if (firstTransferStartPs < 0) {
                firstTransferStartPs = nowPs;
            }
            if (linkQueues.offer(graph.nvlinkConnection(t), t)) {
                sendOverNvlink(nowPs, t);
            }
        } else if (graph.durationPs(t) == 0) {
            push(t);
        } else {
            sim.schedule(nowPs + graph.durationPs(t), handlerId, TIMER_END, t);
        }
    }

    /** Puts an NVLink transfer on the GPUs' NVLink ports: its connection is free. */
    private void sendOverNvlink(long nowPs, int t) {
        fluid.start(nowPs, t, new int[] {nvlinkBase + graph.owner(t),
            nvlinkBase + hostCount + graph.nvlinkDestination(t)}, null, Double.POSITIVE_INFINITY,
                8.0 * graph.nvlinkBytes(t));
    }

    /** Puts a flow on its path: its queue pair is free. */
    private void send(long nowPs, int f) {
        int fs = f & mask;
        queuePairBusy[queuePairOfFlow[fs]] = true;
        int qp = queuePairOfFlow[fs];
        long bytes = graph.flowBytes(f);
        FlowRoute r = routeOfQueuePair[qp];
        if (r == null || routeBytes[qp] != bytes) {
            r = router.route(graph.flowSource(f), graph.flowDestination(f), bytes, qp);
            routeOfQueuePair[qp] = r;
            routeBytes[qp] = bytes;
        }
        deliveryLatencyPs[fs] = r.deliveryLatencyPs();
        ackLatencyPs[fs] = r.ackLatencyPs();
        fluid.start(nowPs, graph.flowTask(f), r.resources(), r.weights(), r.capBps(), r.workBits());
    }

    /** A fluid has put its last bit on its path: it arrives after the path's fixed latency. */
    private void sent(long nowPs, int t) {
        if (graph.kind(t) == TaskGraph.Kind.NVLINK) {
            sim.schedule(nowPs + graph.localLinks().latencyPs(), handlerId, DELIVERED, t);
            int next = linkQueues.sent(graph.nvlinkConnection(t));
            if (next >= 0) {
                sendOverNvlink(nowPs, next);
            }
            return;
        }
        int f = graph.flowIndex(t);
        int fs = f & mask;
        sim.schedule(nowPs + deliveryLatencyPs[fs], handlerId, DELIVERED, t);
        sim.schedule(nowPs + deliveryLatencyPs[fs] + ackLatencyPs[fs], handlerId, ACKED, t);
        int qp = queuePairOfFlow[fs];
        queuePairBusy[qp] = false;
        int next = waitingHead[qp];
        if (next >= 0) {
            waitingHead[qp] = nextWaiting[next & mask];
            if (waitingHead[qp] < 0) {
                waitingTail[qp] = -1;
            }
            send(nowPs, next);
        }
    }

    private void push(int t) {
        if (workSize == work.length) {
            work = Arrays.copyOf(work, workSize * 2);
        }
        work[workSize++] = t;
    }

    /** Releases the dependents of every task that ended at this instant, then adds what the run has reached. */
    private void drain(long nowPs) {
        do {
            while (workSize > 0) {
                int t = work[--workSize];
                int s = t & mask;
                endPs[s] = nowPs;
                state[s] |= ENDED;
                int f = graph.flowIndex(t);
                if (f >= 0) {
                    deliveredBytes += graph.flowBytes(f);
                }
                onEndHead[s] = release(nowPs, onEndHead[s]);
                if (f < 0) {
                    // Timed tasks and NVLink transfers are acknowledged when they end.
                    state[s] |= ACKNOWLEDGED;
                    onAckHead[s] = release(nowPs, onAckHead[s]);
                    finish(nowPs);
                }
            }
            retire();
            emit(nowPs);
        } while (workSize > 0);
        if (sourceDone && finished == tasksAdded) {
            sim.stop();
        }
    }

    /** Starts the dependents on an edge chain whose last wait this was; frees the chain. */
    private int release(long nowPs, int e) {
        while (e >= 0) {
            int d = edgeTask[e];
            int next = edgeNext[e];
            edgeNext[e] = edgeFree;
            edgeFree = e;
            if (--waitingFor[d & mask] == 0) {
                ready(nowPs, d);
            }
            e = next;
        }
        return -1;
    }

    private void acknowledged(long nowPs, int t) {
        int f = graph.flowIndex(t);
        int s = t & mask;
        completedPs[f & mask] = nowPs;
        state[s] |= ACKNOWLEDGED;
        finishedFlows++;
        if (sink != null) {
            sink.flowDone(f, t, startPs[s], endPs[s], nowPs, queuePairOfFlow[f & mask]);
        }
        onAckHead[s] = release(nowPs, onAckHead[s]);
        finish(nowPs);
    }

    private void finish(long nowPs) {
        finished++;
        lastFinishPs = nowPs;
    }

    /** Retires the finished tasks below the lowest unfinished one, keeping {@code keep} behind the newest. */
    private void retire() {
        while (lowestUnfinished < registered && state[lowestUnfinished & mask] == (ENDED | ACKNOWLEDGED)) {
            lowestUnfinished++;
        }
        graph.retire(Math.min(lowestUnfinished, graph.taskCount() - keep));
    }

    public TaskGraph graph() {
        return graph;
    }

    public FluidNetwork fluid() {
        return fluid;
    }

    /** Whether every task of the source has been added and has finished. */
    public boolean allFinished() {
        return sourceDone && finished == tasksAdded;
    }

    /** Tasks added so far (all of them once the source is done). */
    public long tasksAdded() {
        return tasksAdded;
    }

    /** Tasks finished (a flow finishes when acknowledged). */
    public long finishedCount() {
        return finished;
    }

    /** Flows posted so far. */
    public long postedFlows() {
        return postedFlows;
    }

    /** Flows posted and not yet acknowledged. */
    public long flowsInFlight() {
        return postedFlows - finishedFlows;
    }

    /** Payload bytes of the flows delivered so far. */
    public long deliveredBytes() {
        return deliveredBytes;
    }

    /** Time of the last completion. */
    public long lastFinishPs() {
        return lastFinishPs;
    }

    /** When the first transfer (a flow or an NVLink transfer) was posted, or -1. */
    public long firstTransferStartPs() {
        return firstTransferStartPs;
    }

    /** Times the source was asked for a part. */
    public long emissions() {
        return emissions;
    }

    /** Queue pairs opened (one per connection). */
    public int queuePairCount() {
        return queuePairs;
    }

    /** Whether flow f (still in the window) has been acknowledged. */
    public boolean acknowledged(int flow) {
        return completedPs[flow & mask] >= 0 && (state[graph.flowTask(flow) & mask] & ACKNOWLEDGED) != 0;
    }

        /** When a task still in the window started, or -1. */
    public long taskStartPs(int task) {
        return task < graph.retiredTasks() ? -1 : startPs[task & mask];
    }

    /** When a task still in the window ended (a flow: was delivered), or -1. */
    public long taskEndPs(int task) {
        return task < graph.retiredTasks() ? -1 : endPs[task & mask];
    }
}
