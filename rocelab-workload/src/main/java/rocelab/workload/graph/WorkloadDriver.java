package rocelab.workload.graph;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import rocelab.engine.EventHandler;
import rocelab.engine.InexactSplitException;
import rocelab.engine.PartitionedSimulator;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.nic.QueuePair;
import rocelab.workload.flow.FlowRoute;
import rocelab.workload.flow.FlowRouter;
import rocelab.workload.flow.FluidNetwork;
import rocelab.workload.traffic.FlowSpec;

/**
 * Runs a {@link TaskGraph} on a network: posts each flow as one RDMA WRITE on its queue pair when its dependencies
 * are met, lets timed tasks (compute, delays) take their time, and records when every task started and ended. For
 * flows it also records delivery (the receiver has every byte) and completion (the sender saw the last ACK, the flow
 * completion time). A flow whose queue pair fails fails, and so does everything that waited for it. Stops the
 * simulation when every task has finished or failed. NVLink transfers are fluids sharing each GPU's NVLink ports
 * (out of the sender, into the receiver) max-min fairly, those of one connection one after the other. In flow-level mode ({@link #flowLevel}) fabric flows do not
 * enter the packet network either: they are fluids on a {@link FluidNetwork} over the capacities of a
 * {@link FlowRouter} (the ideal network, or every link of the ECMP path), delivered after their path's fixed latency.
 */
public final class WorkloadDriver implements EventHandler, MessageListener, TaskTimes {
    private static final int ROOTS = 1;
    private static final int TIMER_END = 2;
    private static final int READY = 3;
    private static final int ACKED = 4;
    private static final int DELIVERED = 7;
    private static final long NOT_YET = -1;

    private final Simulator sim;
    private final int handlerId;
    private final TaskGraph graph;
    private final QueuePair[] queuePairs;
    /** Tasks without dependencies, by earliest start: one pending wake-up walks through them. */
    private int[] roots;
    private int[] waitingFor;
    /**
     * Dependents released when a task ends (a flow: is delivered), and those released when a flow is acked: the
     * arrays of {@link #dependents}, held here too so the release loop reads them directly.
     */
    private Dependents dependents;
    private int[] onEndStart;
    private int[] onEnd;
    private int[] onAckStart;
    private int[] onAck;
    private final long[] startPs;
    private final long[] endPs;
    private final long[] completedPs;
    /**
     * Packet level: per flow, its QP's time held back by its rate ({@link QueuePair#rateHeldPs}) when the flow was
     * posted, and from its completion on the part held during its life. Null at flow level.
     */
    private final long[] rateHeld;
    /** Packet level, as {@link #rateHeld}: per flow, its QP's packets sent again and its local ACK timeouts. */
    private final long[] resent;
    private final long[] timeouts;
    /**
     * Packet level: per flow, the payload bytes posted on its QP before it (its message's first byte on the QP), so
     * that what the QP's responder received in order tells how much of this flow it has. Null at flow level.
     */
    private final long[] postedBefore;
    /**
     * Packet level, as {@link #rateHeld}: per flow, the congestion notifications its QP's sender heard during its
     * life, as the numbers of the first and of the one after the last among the QP's (to the run's end if unfinished:
     * then {@code notifiedTo} is -1).
     */
    private final int[] notifiedFrom;
    private final int[] notifiedTo;
    /**
     * Per flow, how long it waited from its post until its first packet left (its flow-level fluid started), when it
     * was posted while its QP still had packets of earlier messages to send; 0 when it was not; {@link #QP_WAITING}
     * while it still waits.
     */
    private final long[] qpWait;
    private static final long QP_WAITING = -1;
    private final boolean[] failed;
    /**
     * Per failed task, what its failure came from: the task whose failure reached it (it waited for that one), or
     * {@link #OWN_QUEUE_PAIR}; and when. Null until the first failure (most runs have none), so that the outputs can
     * say which failure a flow that was never posted waited on, by the dependency itself rather than by a guess.
     */
    private int[] failedBy;
    private long[] failedAtPs;
    /** {@link #failedBy} of a flow failed by its own queue pair running out of retries. */
    public static final int OWN_QUEUE_PAIR = -1;
    /** The flow-level network (null: flows are packets); NVLink ports always are fluids, after its resources. */
    private final FlowRouter router;
    private final FluidNetwork fluid;
    private final int nvlinkBase;
    /** Each task's copy of the capacities (null: one copy for all), and the size of one copy. */
    private final int[] groupOfTask;
    private final int resourcesPerGroup;
    private final int hostCount;
    /** In flow-level mode: each flow's QP id (as the packet level would number it) and its path's latencies. */
    private final int[] queuePairIds;
    private long[] deliveryLatencyPs;
    private long[] ackLatencyPs;
    /**
     * A queue pair sends its messages one after the other (as the packet level's QP segments one WRITE after the
     * other), so in flow-level mode a flow posted on a busy QP waits for the one before it to be sent: per QP, whether
     * a fluid is on it and the FIFO of flows waiting (linked through {@code nextWaiting}).
     */
    private final boolean[] queuePairBusy;
    private final int[] waitingHead;
    private final int[] waitingTail;
    private int[] nextWaiting;
    /** NVLink transfers of one connection one after the other (null without NVLink). */
    private final LinkQueues linkQueues;
    /**
     * In flow-level mode with a router whose paths can change: each fabric flow's slot in the fluid network, to
     * reroute it (by flow, not by task: a large job has four times as many tasks as flows).
     */
    private int[] slotOfFlow;
    /**
     * Packet level: the flows of each queue pair, to fail them when it fails, as a chain through the flows in flow
     * order (the first flow of QP q, then each flow's next one on its QP, -1 ending both): two ints per flow instead
     * of a boxed list per QP.
     */
    private final int[] firstFlowOfQueuePair;
    private final int[] nextFlowOnQueuePair;
    /** The id of the first QP this driver opened: its QPs are numbered densely from it. */
    private final int firstQueuePairId;
    private int nextRoot;
    /** The driver's own lane: every task on one thread, the roots and the serial phase of a partitioned run. */
    private final Lane main;
    /**
     * A partitioned run of a graph whose dependencies stay inside partitions ({@link PartitionPlan}): one lane per
     * partition, each answering this driver's handler id in its partition (null: one lane, {@link #main}).
     */
    private Lane[] lanes;
    /** With lanes: the partition each task acts in, {@link PartitionPlan#SERIAL} for the serial phase's. */
    private int[] laneOfTask;
    /** With lanes: the listener of QPs from a host of partition a to one of b, at a * partitions + b. */
    private MessageListener[] laneListeners;

    /** Runs the graph over the packet-level network. */
    public WorkloadDriver(Network network, TaskGraph graph) {
        this(network.simulator(), network, graph, null, network.hostCount(), null, 1, null, null, null);
    }

    /**
     * Runs the graph over a packet-level network split into {@code partitions} (the network built on them, its
     * simulator the serial one), each partition's tasks driven on its own thread by a lane of this driver: {@code plan}
     * (which must have no {@link PartitionPlan#reason() reason}) says which partition acts on each task, every
     * dependency observed where its dependent acts (or in the serial phase), so each lane releases its own tasks at the
     * picosecond one driver would, or {@link PartitionPlan#checked() checked}: handed over between windows, where a
     * run that finds one was its task's last wait is found inexact. Its events carry this driver's handler id, kind
     * and task, the keys one driver's events have. A queue pair's failure is applied between windows
     * ({@link #afterWindow}).
     */
    public WorkloadDriver(Network network, TaskGraph graph, PartitionedSimulator partitions,
            PartitionPlan plan, int[] partitionOfHost) {
        this(network.simulator(), network, graph, null, network.hostCount(), null, 1, partitions, plan,
                partitionOfHost);
    }

    /**
     * Runs the graph flow-level on {@code sim}: no packets, every fabric flow a fluid over the router's capacities
     * (the ideal network, or the links of its ECMP path).
     */
    public static WorkloadDriver flowLevel(Simulator sim, TaskGraph graph, FlowRouter router, int hostCount) {
        return new WorkloadDriver(sim, null, graph, router, hostCount, null, 1, null, null, null);
    }

    /**
     * As {@link #flowLevel(Simulator, TaskGraph, FlowRouter, int)}, each group of tasks on its own copy of the
     * capacities ({@code groupOfTask[t]} in 0..groups-1): groups never share anything, as if each ran alone.
     */
    public static WorkloadDriver flowLevel(Simulator sim, TaskGraph graph, FlowRouter router, int hostCount,
            int[] groupOfTask, int groups) {
        return new WorkloadDriver(sim, null, graph, router, hostCount, groupOfTask.clone(), groups, null, null, null);
    }

    private WorkloadDriver(Simulator sim, Network network, TaskGraph graph, FlowRouter router, int hostCount,
            int[] groupOfTask, int groups, PartitionedSimulator partitions, PartitionPlan plan,
            int[] partitionOfHost) {
        this.sim = sim;
        this.handlerId = sim.register(this);
        this.main = new Lane(sim, -1);
        if (partitions != null) {
            if (plan.reason() != null) {
                throw new IllegalArgumentException("the graph cannot run partitioned: " + plan.reason());
            }
            int p = partitions.partitions();
            this.lanes = new Lane[p];
            for (int i = 0; i < p; i++) {
                lanes[i] = new Lane(partitions.partition(i), i);
                partitions.partition(i).registerShared(handlerId, lanes[i]);
            }
            this.laneOfTask = new int[graph.taskCount()];
            for (int t = 0; t < laneOfTask.length; t++) {
                laneOfTask[t] = plan.laneOf(t);
            }
            this.laneListeners = new MessageListener[p * p];
            for (int a = 0; a < p; a++) {
                for (int b = 0; b < p; b++) {
                    laneListeners[a * p + b] = new Between(lanes[a], lanes[b]);
                }
            }
        }
        this.graph = graph;
        this.router = router;
        this.hostCount = hostCount;
        if (graph.openPromises() > 0) {
            throw new IllegalArgumentException(graph.openPromises() + " promised tasks were never given dependencies");
        }
        // A driver means the graph is complete: its arrays can give back their growth room (graphs of millions of
        // tasks are run twice, here and on the ideal network, and held until the outputs are written).
        graph.trimToSize();
        int n = graph.taskCount();
        int flowCount = graph.flowCount();
        this.queuePairs = network == null ? null : new QueuePair[flowCount];
        double[] fabric = router == null ? new double[0] : router.capacitiesBps();
        this.nvlinkBase = fabric.length;
        double[] one = Arrays.copyOf(fabric, fabric.length + 2 * hostCount);
        if (graph.localLinks() != null) {
            Arrays.fill(one, fabric.length, one.length, graph.localLinks().rateBps());
        }
        this.groupOfTask = groupOfTask;
        this.resourcesPerGroup = one.length;
        double[] capacities = new double[one.length * groups];
        for (int g = 0; g < groups; g++) {
            System.arraycopy(one, 0, capacities, g * one.length, one.length);
        }
        this.fluid = new FluidNetwork(sim, capacities, 64, this::sent);
        this.slotOfFlow = router != null && router.dynamic() ? new int[flowCount] : null;
        this.queuePairIds = router == null ? null : new int[flowCount];
        this.deliveryLatencyPs = router == null ? null : new long[flowCount];
        this.ackLatencyPs = router == null ? null : new long[flowCount];
        if (router != null) {
            // The same QP numbering as the packet level (one per connection, in flow order): same ECMP entropy.
            // Opened in that order, as the packet level connects them: the same home plane on a multi-plane fabric.
            int[] ids = new int[graph.connectionCount()];
            Arrays.fill(ids, -1);
            int next = 0;
            for (int i = 0; i < flowCount; i++) {
                int c = graph.connection(i);
                int id = c >= 0 ? ids[c] : -1;
                if (id < 0) {
                    id = next++;
                    router.open(id, graph.flowSource(i), graph.flowDestination(i));
                    if (c >= 0) {
                        ids[c] = id;
                    }
                }
                queuePairIds[i] = id;
            }
            this.queuePairBusy = new boolean[next];
            this.waitingHead = new int[next];
            this.waitingTail = new int[next];
            this.nextWaiting = new int[flowCount];
            Arrays.fill(waitingHead, -1);
            Arrays.fill(waitingTail, -1);
        } else {
            this.queuePairBusy = null;
            this.waitingHead = null;
            this.waitingTail = null;
            this.nextWaiting = null;
        }
        Map<Integer, QueuePair> connections = new HashMap<>();
        int qpBase = network == null ? 0 : network.queuePairs().size();
        this.firstQueuePairId = qpBase;
        this.firstFlowOfQueuePair = network == null ? null : new int[flowCount];
        this.nextFlowOnQueuePair = network == null ? null : new int[flowCount];
        int[] lastFlowOfQueuePair = network == null ? null : new int[flowCount];
        if (network != null) {
            Arrays.fill(firstFlowOfQueuePair, -1);
        }
        for (int i = 0; i < flowCount && network != null; i++) {
            FlowSpec f = graph.flowSpec(i);
            int c = graph.connection(i);
            QueuePair qp = c >= 0 ? connections.get(c) : null;
            boolean opened = qp == null;
            if (opened) {
                MessageListener listener = lanes == null ? this
                        : laneListeners[partitionOfHost[f.src()] * lanes.length + partitionOfHost[f.dst()]];
                qp = network.connect(f.src(), f.dst(), listener, f.dscp());
                if (c >= 0) {
                    connections.put(c, qp);
                }
            } else if (qp.sourceHost() != f.src() || qp.destinationHost() != f.dst()) {
                throw new IllegalArgumentException("flow " + i + " reuses a connection between other hosts");
            }
            queuePairs[i] = qp;
            int q = qp.id() - qpBase;
            nextFlowOnQueuePair[i] = -1;
            if (opened) {
                firstFlowOfQueuePair[q] = i;
            } else {
                nextFlowOnQueuePair[lastFlowOfQueuePair[q]] = i;
            }
            lastFlowOfQueuePair[q] = i;
        }
        this.linkQueues = graph.localLinks() == null ? null : new LinkQueues(n, -1);
        this.dependents = Dependents.of(graph);
        this.waitingFor = new int[n];
        for (int t = 0; t < n; t++) {
            waitingFor[t] = graph.dependencyCount(t);
        }
        for (int i = 0; i < graph.lateDependencyCount(); i++) {
            waitingFor[graph.lateTask(i)]++;
        }
        this.onEndStart = dependents.onEndStart();
        this.onEnd = dependents.onEnd();
        this.onAckStart = dependents.onAckStart();
        this.onAck = dependents.onAck();
        int stuck = graph.tasksInCycles();
        if (stuck > 0) {
            throw new IllegalArgumentException("the workload waits on itself: " + stuck
                    + " tasks can never start (a cycle of dependencies)");
        }
        this.roots = roots(graph, waitingFor);
        this.startPs = new long[n];
        this.endPs = new long[n];
        this.completedPs = new long[flowCount];
        this.rateHeld = queuePairs == null || router != null ? null : new long[flowCount];
        this.resent = rateHeld == null ? null : new long[flowCount];
        this.timeouts = rateHeld == null ? null : new long[flowCount];
        this.postedBefore = rateHeld == null ? null : new long[flowCount];
        this.notifiedFrom = rateHeld == null ? null : new int[flowCount];
        this.notifiedTo = rateHeld == null ? null : new int[flowCount];
        this.qpWait = new long[flowCount];
        this.failed = new boolean[n];
        Arrays.fill(startPs, NOT_YET);
        Arrays.fill(endPs, NOT_YET);
        Arrays.fill(completedPs, NOT_YET);
        if (roots.length > 0) {
            scheduleRoots(graph.notBeforePs(roots[0]));
        }
    }

    /**
     * At packet level timed starts come after every other event of their picosecond (the order one simulator and a
     * partitioned run, which starts them between windows, agree on); flow level keeps them ordinary, beside the
     * fluid network's end-of-instant recomputation.
     */
    private void scheduleRoots(long atPs) {
        if (router == null) {
            sim.scheduleAtEndOfInstant(atPs, handlerId, ROOTS, 0L);
        } else {
            sim.schedule(atPs, handlerId, ROOTS, 0L);
        }
    }

    /** Tasks without dependencies, by earliest start (ties in task order). */
    private static int[] roots(TaskGraph graph, int[] waitingFor) {
        int count = 0;
        for (int w : waitingFor) {
            count += w == 0 ? 1 : 0;
        }
        int[] out = new int[count];
        boolean sorted = true;
        int k = 0;
        for (int t = 0; t < waitingFor.length; t++) {
            if (waitingFor[t] == 0) {
                sorted &= k == 0 || graph.notBeforePs(out[k - 1]) <= graph.notBeforePs(t);
                out[k++] = t;
            }
        }
        if (sorted) {
            return out;
        }
        // A stable sort: roots with the same earliest start keep their task order.
        return IntStream.of(out).boxed()
                .sorted((a, b) -> Long.compare(graph.notBeforePs(a), graph.notBeforePs(b)))
                .mapToInt(Integer::intValue).toArray();
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        handle(main, nowPs, kind, arg);
    }

    /** An event of this driver's handler id, in {@code lane} (its partition's, or the driver's own). */
    private void handle(Lane lane, long nowPs, int kind, long arg) {
        switch (kind) {
            case ROOTS -> {
                while (nextRoot < roots.length && graph.notBeforePs(roots[nextRoot]) <= nowPs) {
                    start(lane, nowPs, roots[nextRoot++]);
                }
                if (nextRoot < roots.length) {
                    scheduleRoots(graph.notBeforePs(roots[nextRoot]));
                }
            }
            case TIMER_END -> push(lane, (int) arg);
            // A failure that reached the task while it waited for its earliest start: it is never posted.
            case READY -> {
                if (!failed[(int) arg]) {
                    start(lane, nowPs, (int) arg);
                }
            }
            case ACKED -> acknowledged(lane, nowPs, graph.flowIndex((int) arg));
            case DELIVERED -> push(lane, (int) arg);
            default -> throw new IllegalStateException("unknown event " + kind);
        }
        drain(lane, nowPs);
    }

    /**
     * The simulator task t's timers go to: the one simulator, or with lanes the calendar of the partition that acts on
     * it (from the serial phase too, when a root or a start marker starts it).
     */
    private Simulator simOf(int t) {
        if (lanes == null) {
            return sim;
        }
        int l = laneOfTask[t];
        if (l < 0) {
            throw new IllegalStateException("task " + t + " of the serial phase has a timer");
        }
        return lanes[l].sim;
    }

    private void start(Lane lane, long nowPs, int t) {
        startPs[t] = nowPs;
        int f = graph.flowIndex(t);
        if (f >= 0 && router != null) {
            lane.postedFlows++;
            int qp = queuePairIds[f];
            if (queuePairBusy[qp]) {
                qpWait[f] = QP_WAITING;
                nextWaiting[f] = -1;
                if (waitingTail[qp] < 0) {
                    waitingHead[qp] = f;
                } else {
                    nextWaiting[waitingTail[qp]] = f;
                }
                waitingTail[qp] = f;
            } else {
                send(nowPs, f);
            }
        } else if (f >= 0) {
            lane.postedFlows++;
            rateHeld[f] = queuePairs[f].rateHeldPs(nowPs);
            resent[f] = queuePairs[f].resentPackets();
            timeouts[f] = queuePairs[f].ackTimeouts();
            notifiedFrom[f] = notificationNumber(queuePairs[f].cnpsReceived());
            notifiedTo[f] = -1;
            qpWait[f] = queuePairs[f].hasPacketsToSend() ? QP_WAITING : 0;
            postedBefore[f] = queuePairs[f].postedBytes();
            queuePairs[f].postWrite(nowPs, graph.flowBytes(f), f);
        } else if (graph.kind(t) == TaskGraph.Kind.NVLINK) {
            if (linkQueues.offer(graph.nvlinkConnection(t), t)) {
                sendOverNvlink(nowPs, t);
            }
        } else if (graph.durationPs(t) == 0) {
            push(lane, t);
        } else {
            simOf(t).schedule(nowPs + graph.durationPs(t), handlerId, TIMER_END, t);
        }
    }

    /** Puts an NVLink transfer on the GPUs' NVLink ports: its connection is free. */
    private void sendOverNvlink(long nowPs, int t) {
        fluid.start(nowPs, t, inGroup(t, new int[] {nvlinkBase + graph.owner(t),
            nvlinkBase + hostCount + graph.nvlinkDestination(t)}), null, Double.POSITIVE_INFINITY,
                8.0 * graph.nvlinkBytes(t));
    }

    /** Puts a flow-level flow on its path: its QP is free. */
    private void send(long nowPs, int f) {
        firstSent(nowPs, f);
        queuePairBusy[queuePairIds[f]] = true;
        int t = graph.flowTask(f);
        FlowRoute r = route(f);
        int slot = fluid.start(nowPs, t, inGroup(t, r.resources()), r.weights(), r.capBps(), r.workBits());
        if (slotOfFlow != null) {
            slotOfFlow[f] = slot;
        }
    }

    /** The task's group's copy of the resources (in place). */
    private int[] inGroup(int t, int[] resources) {
        int offset = groupOfTask == null ? 0 : groupOfTask[t] * resourcesPerGroup;
        if (offset != 0) {
            for (int i = 0; i < resources.length; i++) {
                resources[i] += offset;
            }
        }
        return resources;
    }

    /** The flow's route now, remembering its path's latencies for when its last bit has left. */
    private FlowRoute route(int f) {
        FlowRoute r = router.route(graph.flowSource(f), graph.flowDestination(f), graph.flowBytes(f), queuePairIds[f]);
        deliveryLatencyPs[f] = r.deliveryLatencyPs();
        ackLatencyPs[f] = r.ackLatencyPs();
        return r;
    }

    /**
     * The switches have new routes (a link event): every running flow-level flow whose path changed moves to its
     * new path, keeping what it has sent.
     */
    public void reroute(long nowPs) {
        if (router == null || !router.dynamic()) {
            return;
        }
        for (int f = 0; f < graph.flowCount(); f++) {
            int t = graph.flowTask(f);
            // Running: started, and its last bit not yet sent (its end is still to come and its QP holds it).
            if (startPs[t] < 0 || endPs[t] >= 0 || failed[t] || !sending(f)) {
                continue;
            }
            int slot = slotOfFlow[f];
            FlowRoute r = route(f);
            inGroup(t, r.resources());
            if (!Arrays.equals(r.resources(), fluid.resourcesOf(slot)) || r.weights() != null) {
                fluid.reroute(nowPs, slot, r.resources(), r.weights(), r.capBps());
            }
        }
    }

    /** Whether flow f is on its path now (not waiting for its QP, not yet sent). */
    private boolean sending(int f) {
        int slot = slotOfFlow[f];
        return fluid.running(slot) && fluid.tagOf(slot) == graph.flowTask(f);
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
        sim.schedule(nowPs + deliveryLatencyPs[f], handlerId, DELIVERED, t);
        sim.schedule(nowPs + deliveryLatencyPs[f] + ackLatencyPs[f], handlerId, ACKED, t);
        int qp = queuePairIds[f];
        queuePairBusy[qp] = false;
        int next = waitingHead[qp];
        if (next >= 0) {
            waitingHead[qp] = nextWaiting[next];
            if (waitingHead[qp] < 0) {
                waitingTail[qp] = -1;
            }
            send(nowPs, next);
        }
    }

    private static void push(Lane lane, int t) {
        if (lane.workSize == lane.work.length) {
            lane.work = Arrays.copyOf(lane.work, lane.workSize * 2);
        }
        lane.work[lane.workSize++] = t;
    }

    /** Releases the dependents of every task that ended at this instant (zero-length joins end at once). */
    private void drain(Lane lane, long nowPs) {
        while (lane.workSize > 0) {
            int t = lane.work[--lane.workSize];
            endPs[t] = nowPs;
            int f = graph.flowIndex(t);
            if (f >= 0) {
                lane.deliveredBytes += graph.flowBytes(f);
            }
            release(lane, nowPs, onEnd, onEndStart[t], onEndStart[t + 1]);
            if (f < 0) {
                // Timed tasks and NVLink transfers are acknowledged when they end.
                release(lane, nowPs, onAck, onAckStart[t], onAckStart[t + 1]);
                finish(lane, nowPs);
            }
        }
    }

    private void release(Lane lane, long nowPs, int[] list, int from, int to) {
        for (int i = from; i < to; i++) {
            int d = list[i];
            if (lane.partition >= 0 && laneOfTask[d] != lane.partition) {
                // Observed here, acted on in another partition, whose thread is in this window too: handed over
                // between windows, where it must not be the task's last wait (the plan's checked dependencies).
                lane.handOver(d, nowPs);
                continue;
            }
            if (--waitingFor[d] == 0 && !failed[d]) {
                long notBefore = graph.notBeforePs(d);
                if (notBefore > nowPs) {
                    simOf(d).schedule(notBefore, handlerId, READY, d);
                } else {
                    start(lane, nowPs, d);
                }
            }
        }
    }

    @Override
    public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
        delivered(main, nowPs, cookie);
    }

    private void delivered(Lane lane, long nowPs, long cookie) {
        push(lane, graph.flowTask((int) cookie));
        drain(lane, nowPs);
    }

    @Override
    public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
        completed(main, nowPs, cookie);
    }

    @Override
    public void onMessageStarted(long nowPs, int queuePair, long cookie) {
        firstSent(nowPs, (int) cookie);
    }

    /** Flow f's first packet leaves now (flow level: its fluid starts): its wait behind its QP ends, if it had one. */
    private void firstSent(long nowPs, int f) {
        if (qpWait[f] == QP_WAITING) {
            qpWait[f] = nowPs - startPs[graph.flowTask(f)];
        }
    }

    private void completed(Lane lane, long nowPs, long cookie) {
        acknowledged(lane, nowPs, (int) cookie);
        drain(lane, nowPs);
    }

    private void acknowledged(Lane lane, long nowPs, int f) {
        completedPs[f] = nowPs;
        if (rateHeld != null && queuePairs != null && queuePairs[f] != null) {
            rateHeld[f] = queuePairs[f].rateHeldPs(nowPs) - rateHeld[f];
            resent[f] = queuePairs[f].resentPackets() - resent[f];
            timeouts[f] = queuePairs[f].ackTimeouts() - timeouts[f];
            notifiedTo[f] = notificationNumber(queuePairs[f].cnpsReceived());
        }
        lane.finishedFlows++;
        int t = graph.flowTask(f);
        release(lane, nowPs, onAck, onAckStart[t], onAckStart[t + 1]);
        finish(lane, nowPs);
    }

    /**
     * With lanes, after every window with every partition idle ({@code windowEndPs}: every event before it has run).
     *
     * <p>First the dependencies observed in one partition and acted on in another (a ring's window) are handed over.
     * Each releases one wait of its task, which must still wait for something of its own partition: one driver would
     * have started it at the picosecond of the release, inside the window just run. A task whose last wait this is
     * (and whose earliest start is not still to come) makes the run inexact: {@link InexactSplitException}, and its
     * caller runs it again on one thread.
     *
     * <p>Then the window's queue pair failures are applied, in time order, as one driver applied them when they
     * happened, reading each task's end as it stood then (a flow delivered after its sender failed, in another
     * partition, had not ended yet). That is exact unless something the failure stops started in the rest of the
     * window: one driver never starts a task that a failure reached (it waited for the failed flow), nor a flow on the
     * failed queue pair after the failure. Such a run is inexact too (never seen in practice: a sender gives up a
     * timeout after its last transmission).
     */
    public void afterWindow(long windowEndPs) {
        if (lanes == null) {
            return;
        }
        for (Lane l : lanes) {
            for (int i = 0; i < l.handedOver; i++) {
                int d = l.handedTask[i];
                if (--waitingFor[d] == 0 && !failed[d]) {
                    long notBefore = graph.notBeforePs(d);
                    if (notBefore < windowEndPs) {
                        throw new InexactSplitException(describe(d) + " was last waiting for a completion in"
                                + " another partition, at " + microseconds(l.handedAtPs[i]) + ", inside one window");
                    }
                    simOf(d).schedule(notBefore, handlerId, READY, d);
                }
            }
            l.handedOver = 0;
        }
        while (true) {
            Lane first = null;
            for (Lane l : lanes) {
                if (l.errorsRead < l.errors && (first == null
                        || l.errorTime[l.errorsRead] < first.errorTime[first.errorsRead])) {
                    first = l;
                }
            }
            if (first == null) {
                break;
            }
            long at = first.errorTime[first.errorsRead];
            int qp = first.errorQp[first.errorsRead++];
            failingAtPs = at;
            queuePairFailed(main, at, qp);
            failingAtPs = -1;
        }
        for (Lane l : lanes) {
            l.errors = 0;
            l.errorsRead = 0;
        }
    }

    private static String microseconds(long ps) {
        return String.format(Locale.ROOT, "%.3f us", ps / 1e6);
    }

    /** Task t in words: its flow's hosts, or its kind. */
    private String describe(int t) {
        int f = graph.flowIndex(t);
        return f >= 0 ? "flow " + graph.flowSource(f) + "->" + graph.flowDestination(f) + " (task " + t + ")"
                : graph.kind(t).name().toLowerCase(Locale.ROOT) + " task " + t;
    }

    /** Every unfinished flow of the QP fails, and so does everything that was waiting for them. */
    @Override
    public void onQueuePairError(long nowPs, int queuePair) {
        queuePairFailed(main, nowPs, queuePair);
    }

    /** While {@link #afterWindow} applies a failure: its time; -1 otherwise. */
    private long failingAtPs = -1;

    private void queuePairFailed(Lane lane, long nowPs, int queuePair) {
        int q = queuePair - firstQueuePairId;
        if (firstFlowOfQueuePair == null || q < 0 || q >= firstFlowOfQueuePair.length) {
            return;
        }
        // The posted flows first, then the QP's flows not posted yet: one of those that also waited for a failed flow
        // is told as waiting for it (what held it back), not as failed by a QP it never had a message on. The set of
        // failed tasks is the same in either order.
        for (int pass = 0; pass < 2; pass++) {
            for (int f = firstFlowOfQueuePair[q]; f >= 0; f = nextFlowOnQueuePair[f]) {
                int t = graph.flowTask(f);
                if (completedPs[f] < 0 && (startPs[t] >= 0) == (pass == 0)) {
                    fail(lane, nowPs, t, true, OWN_QUEUE_PAIR);
                }
            }
        }
    }

    private void fail(Lane lane, long nowPs, int t, boolean onTheQueuePair, int by) {
        if (failed[t]) {
            return;
        }
        if (failedBy == null) {
            failedBy = new int[failed.length];
            failedAtPs = new long[failed.length];
        }
        failedBy[t] = by;
        failedAtPs[t] = nowPs;
        if (failingAtPs >= 0 && (onTheQueuePair ? startPs[t] >= failingAtPs : startPs[t] >= 0)) {
            throw new InexactSplitException(describe(t) + " started at " + microseconds(startPs[t]) + ", after the"
                    + " failure of a queue pair it waited for in another partition, at " + microseconds(failingAtPs));
        }
        failed[t] = true;
        if (graph.flowIndex(t) >= 0 && startPs[t] >= 0) {
            lane.finishedFlows++;
        }
        finish(lane, nowPs);
        // Applied after its window: an end after the failure had not happened yet. At the same picosecond the order of
        // the two events, in two partitions, would decide.
        if (failingAtPs >= 0 && endPs[t] == failingAtPs) {
            throw new InexactSplitException(describe(t) + " ended at " + microseconds(endPs[t]) + ", the picosecond"
                    + " a queue pair it belongs to failed in another partition");
        }
        if (endPs[t] < 0 || failingAtPs >= 0 && endPs[t] > failingAtPs) {
            for (int i = onEndStart[t]; i < onEndStart[t + 1]; i++) {
                fail(lane, nowPs, onEnd[i], false, t);
            }
        }
        for (int i = onAckStart[t]; i < onAckStart[t + 1]; i++) {
            fail(lane, nowPs, onAck[i], false, t);
        }
    }

    private void finish(Lane lane, long nowPs) {
        lane.finished++;
        lane.lastFinishPs = Math.max(lane.lastFinishPs, nowPs);
        // With lanes the run's end is decided between windows (a partition must not stop the run).
        if (lanes == null && lane.finished == graph.taskCount()) {
            sim.stop();
        }
    }

    /**
     * What the driver does in one partition: its handler for this driver's id there (timers of the partition's tasks),
     * its own stack of ended tasks, its own counts, and the queue pair failures of the window, applied after it.
     */
    private final class Lane implements EventHandler {
        final Simulator sim;
        /** The partition, -1 for the driver's own lane (one thread, or the serial phase). */
        final int partition;
        int[] work = new int[64];
        int workSize;
        int postedFlows;
        int finishedFlows;
        int finished;
        long lastFinishPs;
        long deliveredBytes;
        long[] errorTime = new long[4];
        int[] errorQp = new int[4];
        int errors;
        int errorsRead;
        /** Tasks of other partitions this lane released in the window, and when: handed over after it. */
        int[] handedTask = new int[16];
        long[] handedAtPs = new long[16];
        int handedOver;

        Lane(Simulator sim, int partition) {
            this.sim = sim;
            this.partition = partition;
        }

        @Override
        public void onEvent(long nowPs, int kind, long arg) {
            handle(this, nowPs, kind, arg);
        }

        void handOver(int task, long nowPs) {
            if (handedOver == handedTask.length) {
                handedTask = Arrays.copyOf(handedTask, handedOver * 2);
                handedAtPs = Arrays.copyOf(handedAtPs, handedOver * 2);
            }
            handedTask[handedOver] = task;
            handedAtPs[handedOver++] = nowPs;
        }

        void error(long nowPs, int qp) {
            if (errors == errorTime.length) {
                errorTime = Arrays.copyOf(errorTime, errors * 2);
                errorQp = Arrays.copyOf(errorQp, errors * 2);
            }
            errorTime[errors] = nowPs;
            errorQp[errors++] = qp;
        }
    }

    /** A QP's listener with lanes: its receiver's lane hears deliveries, its sender's completions and failures. */
    private final class Between implements MessageListener {
        private final Lane sender;
        private final Lane receiver;

        Between(Lane sender, Lane receiver) {
            this.sender = sender;
            this.receiver = receiver;
        }

        @Override
        public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
            delivered(receiver, nowPs, cookie);
        }

        @Override
        public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
            completed(sender, nowPs, cookie);
        }

        @Override
        public void onMessageStarted(long nowPs, int queuePair, long cookie) {
            firstSent(nowPs, (int) cookie);
        }

        @Override
        public void onQueuePairError(long nowPs, int queuePair) {
            sender.error(nowPs, queuePair);
        }
    }

    /**
     * The run is over (no event of this driver will come): drops what only the run reads, the dependents, the counts
     * of what each task still waits for, the roots and the flow-level queues and latencies, so that they are not held
     * while the outputs are written (a 4,096-GPU job's are about a gigabyte). The times, the failures and the flows'
     * queue pairs stay. The dependents may still be read by whoever was given them ({@link #dependents}).
     */
    public void releaseRunState() {
        dependents = null;
        onEndStart = null;
        onEnd = null;
        onAckStart = null;
        onAck = null;
        waitingFor = null;
        roots = null;
        deliveryLatencyPs = null;
        ackLatencyPs = null;
        nextWaiting = null;
        slotOfFlow = null;
    }

    /**
     * The graph's dependents as this driver made them (the ideal bound reads them rather than making its own), or
     * null after {@link #releaseRunState}.
     */
    public Dependents dependents() {
        return dependents;
    }

    @Override
    public TaskGraph graph() {
        return graph;
    }

    public int flowCount() {
        return graph.flowCount();
    }

    /** Flow i as a record (made on each call: see {@link TaskGraph#flowBytes} and the like for the fields). */
    public FlowSpec flow(int i) {
        return graph.flowSpec(i);
    }

    /** Flow i's queue pair at packet level (null in flow-level mode). */
    public QueuePair queuePair(int i) {
        return queuePairs == null ? null : queuePairs[i];
    }

    /** The flow-level network (fabric flows in flow-level mode, NVLink transfers always). */
    public FluidNetwork fluid() {
        return fluid;
    }

    /** Whether fabric flows are fluids (flow-level mode) rather than packets. */
    public boolean flowLevel() {
        return router != null;
    }

    /** Flow i's queue pair id and its ECMP entropy (UDP source port) in flow-level mode, as the packet level's. */
    public int flowLevelQueuePair(int i) {
        return queuePairIds == null ? -1 : queuePairIds[i];
    }

    /** When flow i's receiver had the whole message, or -1. */
    public long deliveredPs(int i) {
        return endPs[graph.flowTask(i)];
    }

    /** Payload bytes of the flows delivered so far. */
    public long deliveredBytes() {
        long n = main.deliveredBytes;
        for (int i = 0; lanes != null && i < lanes.length; i++) {
            n += lanes[i].deliveredBytes;
        }
        return n;
    }

    /**
     * The payload bytes of flow i its receiver had in order by now (the run's end, once it is over): its size once it
     * was delivered; 0 when it was never posted; at packet level otherwise what its QP's responder received in order
     * ({@link QueuePair#deliveredBytes}) beyond the bytes posted on the QP before the flow, up to its size; -1 when not
     * known (a flow-level fluid still under way).
     */
    public long flowDeliveredBytes(int i) {
        if (deliveredPs(i) >= 0) {
            return graph.flowBytes(i);
        }
        if (startedPs(i) < 0) {
            return 0;
        }
        if (postedBefore == null || queuePairs == null || queuePairs[i] == null) {
            return -1;
        }
        return Math.max(0, Math.min(graph.flowBytes(i), queuePairs[i].deliveredBytes() - postedBefore[i]));
    }

    /**
     * The time flow i waited from its post until its first packet left (flow level: its fluid started), when it was
     * posted while its QP still had packets of earlier messages to send (a QP sends its messages in post order), to
     * {@code endPs} if it is still waiting; 0 when it was not posted behind them; -1 when it was never posted.
     */
    public long qpWaitPs(int i, long endPs) {
        long posted = startedPs(i);
        if (posted < 0) {
            return -1;
        }
        return qpWait[i] == QP_WAITING ? Math.max(0, endPs - posted) : qpWait[i];
    }

    /**
     * Packet level: the time flow i's QP had data ready that its congestion control's rate held back, from the flow's
     * post to its completion (or to {@code endPs}, unfinished); -1 at flow level or when it never started. A QP that
     * carries several messages at once counts its holds for each of them.
     */
    public long rateHeldPs(int i, long endPs) {
        if (rateHeld == null || queuePairs == null || queuePairs[i] == null || startedPs(i) < 0) {
            return -1;
        }
        return completedPs[i] >= 0 ? rateHeld[i] : queuePairs[i].rateHeldPs(endPs) - rateHeld[i];
    }

    /**
     * Packet level: the data packets flow i's QP sent again from the flow's post to its completion (or to the run's
     * end), and its QP's local ACK timeouts in that time, {@code {resent, timeouts}}; null at flow level or when it
     * never started. A QP that carries several messages at once counts them for each.
     */
    public long[] recovery(int i) {
        if (rateHeld == null || queuePairs == null || queuePairs[i] == null || startedPs(i) < 0) {
            return null;
        }
        return completedPs[i] >= 0 ? new long[] {resent[i], timeouts[i]}
                : new long[] {queuePairs[i].resentPackets() - resent[i], queuePairs[i].ackTimeouts() - timeouts[i]};
    }

    /**
     * Packet level: the congestion notifications flow i's QP's sender heard from the flow's post to its completion (or
     * to the run's end), by the switch port whose mark caused each: (node, port, count, held) quadruplets, most first
     * (held: those on packets a PFC pause held at that port; node {@link NotificationSources#OTHER}: ports not told);
     * by port only when the flow's life holds every notification its QP heard, else one quadruplet of node
     * {@link NotificationSources#NOT_APART} with the number; null at flow level or when it never started.
     */
    public long[] notificationSources(int i) {
        if (notifiedFrom == null || queuePairs == null || queuePairs[i] == null || startedPs(i) < 0) {
            return null;
        }
        long all = queuePairs[i].cnpsReceived();
        long to = completedPs[i] >= 0 ? notifiedTo[i] : all;
        if (notifiedFrom[i] == 0 && to == all) {
            return queuePairs[i].notificationSources(); // its life holds every notification its QP heard
        }
        // Its QP's other messages heard some too: the QP's counts by port are theirs as well, so only the number is told.
        return to > notifiedFrom[i] ? new long[] {NotificationSources.NOT_APART, 0, to - notifiedFrom[i], 0}
                : new long[0];
    }

    /** A QP's notification count as an int (two billion notifications on one QP: counted as that many). */
    private static int notificationNumber(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    /** When flow i's sender saw the last ACK (flow completion), or -1. */
    @Override
    public long completedPs(int i) {
        return completedPs[i];
    }

    public boolean failed(int i) {
        return failed[graph.flowTask(i)];
    }

    /** When flow i was posted (its start time, or when what it waited for was done), or -1. */
    public long startedPs(int i) {
        return startPs[graph.flowTask(i)];
    }

    /** When a task started, or -1. */
    @Override
    public long taskStartPs(int task) {
        return startPs[task];
    }

    /** When a task ended (a flow: was delivered), or -1. */
    @Override
    public long taskEndPs(int task) {
        return endPs[task];
    }

    public boolean taskFailed(int task) {
        return failed[task];
    }

    /**
     * Of a failed task: the task whose failure reached it, as a dependency it waited for, or {@link #OWN_QUEUE_PAIR}
     * for a flow whose own queue pair ran out of retries (posted, or not posted yet when it did).
     */
    public int failedBy(int task) {
        if (!failed[task]) {
            throw new IllegalArgumentException("task " + task + " did not fail");
        }
        return failedBy[task];
    }

    /** When a failed task was failed. */
    public long failedAtPs(int task) {
        if (!failed[task]) {
            throw new IllegalArgumentException("task " + task + " did not fail");
        }
        return failedAtPs[task];
    }

    /** Whether flow i failed before it was posted: a failure reached it while it waited (or its QP failed first). */
    public boolean failedUnposted(int i) {
        int t = graph.flowTask(i);
        return failed[t] && startPs[t] < 0;
    }

    /** Flows whose message has been posted. */
    public int startedCount() {
        long n = main.postedFlows;
        for (int i = 0; lanes != null && i < lanes.length; i++) {
            n += lanes[i].postedFlows;
        }
        return (int) n;
    }

    /** Flows posted and neither acknowledged nor failed yet. */
    public int flowsInFlight() {
        long n = main.postedFlows - main.finishedFlows;
        for (int i = 0; lanes != null && i < lanes.length; i++) {
            n += lanes[i].postedFlows - lanes[i].finishedFlows;
        }
        return (int) n;
    }

    /** Tasks finished or failed (a flow finishes when acknowledged). */
    public int finishedCount() {
        long n = main.finished;
        for (int i = 0; lanes != null && i < lanes.length; i++) {
            n += lanes[i].finished;
        }
        return (int) n;
    }

    public int taskCount() {
        return graph.taskCount();
    }

    public boolean allFinished() {
        return finishedCount() == graph.taskCount();
    }

    /** Time of the last completion or failure. */
    public long lastFinishPs() {
        long last = main.lastFinishPs;
        for (int i = 0; lanes != null && i < lanes.length; i++) {
            last = Math.max(last, lanes[i].lastFinishPs);
        }
        return last;
    }
}
