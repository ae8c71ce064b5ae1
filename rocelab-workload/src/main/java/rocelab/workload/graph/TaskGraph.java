package rocelab.workload.graph;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import rocelab.workload.traffic.FlowSpec;

/**
 * What a workload asks of the fabric, as a graph of tasks: flows (one RDMA WRITE each) and timed tasks (GPU compute,
 * delays, and zero-length joins that mark "every input of this step is there"). A task starts when every task it
 * depends on has finished and not before its own earliest start. A dependency on a flow normally means "its data
 * has been delivered" (the receiver can go on); {@link #acked} turns it into "the sender has seen the last ACK" (the
 * send completes, as NCCL's proxy sees it). Tasks may only depend on tasks added before them, so the graph is acyclic
 * by construction. Flows that name the same connection share one queue pair, like the steps of a collective on one
 * NCCL connection. With {@link LocalLinks}, a transfer between two GPUs of one server becomes an NVLink transfer
 * instead of a flow. A {@link #promise} is a join whose dependencies are given later (a receive whose matching send
 * comes later in a program); the driver rejects a graph in which promises close a cycle.
 */
public final class TaskGraph {
    /** What a task is; timed tasks are told apart so a job can account GPU time. */
    public enum Kind {
        FLOW, NVLINK, COMPUTE, DELAY, JOIN
    }

    private static final Kind[] KINDS = Kind.values();
    private static final byte NVLINK = (byte) Kind.NVLINK.ordinal();

    private byte[] kind = new byte[64];
    private long[] notBeforePs = new long[64];
    /** A timed task's duration, an NVLink transfer's bytes (one array: a task is one or the other, or neither). */
    private long[] amount = new long[64];
    /** A flow's index among the flows; an NVLink transfer's destination host d as -2 - d; -1 otherwise. */
    private int[] ref = new int[64];
    private int[] owner = new int[64];
    /** An NVLink transfer's connection (-1: its own), per task; null until the first NVLink transfer. */
    private int[] linkConnection;
    private int[] depStart = new int[65];
    private int[] deps = new int[128];
    private int taskCount;
    private int depCount;
    private int connections;
    /** Flows as parallel primitive arrays (no object per flow: a 4,096-GPU job has millions). */
    private int flowCount;
    /** Whether {@link #expect} sized the arrays: they then grow by an eighth, not by doubling. */
    private boolean expected;
    private int[] flowSrc = new int[64];
    private int[] flowDst = new int[64];
    private long[] flowBytes = new long[64];
    private long[] flowStartPs = new long[64];
    private byte[] flowDscp = new byte[64];
    private int[] flowConnection = new int[64];
    private int[] flowTask = new int[64];
    private LocalLinks localLinks;
    /** The transfers {@link #flow} made NVLink transfers (two GPUs of one server), and their bytes: none is a flow. */
    private long nvlinkTransfers;
    private long nvlinkTransferBytes;
    /** Dependencies added to promises after the fact, as (task, dependency) pairs. */
    private int[] late = new int[16];
    private int lateCount;
    private boolean[] promised = new boolean[64];
    private int openPromises;
    /** The last {@link #tasksInCycles} answer and the graph's size when it was given. */
    private int cyclesCheckedTasks = -1;
    private int cyclesCheckedDeps = -1;
    private int cyclesCheckedLate = -1;
    private int cyclesFound;
    /**
     * A streamed graph ({@link #streamed}) keeps only a window of its most recent tasks, flows and dependencies: the
     * arrays are rings and every index is taken with these masks (-1, the identity, for a whole graph). Ids stay
     * global and grow; tasks below {@link #retiredTasks()} may already be overwritten.
     */
    private int taskMask = -1;
    private int flowMask = -1;
    private int depMask = -1;
    private int retiredTasks;
    private int retiredFlows;

    private int[] serverOfHost;
    private int[] localIndex;
    private Map<Integer, int[]> hostsOfServer;

    /** The server of every host, for algorithms that treat GPUs of one server differently (hierarchical, PXN). */
    public void servers(int[] serverOfHostMap) {
        this.serverOfHost = serverOfHostMap.clone();
        Map<Integer, List<Integer>> members = new TreeMap<>();
        for (int h = 0; h < serverOfHost.length; h++) {
            members.computeIfAbsent(serverOfHost[h], k -> new ArrayList<>()).add(h);
        }
        this.localIndex = new int[serverOfHost.length];
        this.hostsOfServer = new HashMap<>();
        for (var e : members.entrySet()) {
            int[] hosts = e.getValue().stream().mapToInt(Integer::intValue).toArray();
            hostsOfServer.put(e.getKey(), hosts);
            for (int i = 0; i < hosts.length; i++) {
                localIndex[hosts[i]] = i;
            }
        }
    }

    /** A host's position among the hosts of its server (its GPU index, so its rail); 0 without a server map. */
    public int localIndex(int host) {
        return localIndex == null || host >= localIndex.length ? 0 : localIndex[host];
    }

    /** The host with local index {@code index} in the server of {@code host}, or -1 when there is none. */
    public int sameServerHost(int host, int index) {
        if (hostsOfServer == null) {
            return index == 0 ? host : -1;
        }
        int[] hosts = hostsOfServer.get(serverOf(host));
        return index < hosts.length ? hosts[index] : -1;
    }

    /** The server of a host; without a server map every host is its own server. */
    public int serverOf(int host) {
        return serverOfHost == null || host >= serverOfHost.length ? host : serverOfHost[host];
    }

    /** Sends between GPUs of one server go over these links from now on (null: everything over the fabric). */
    public void localLinks(LocalLinks links) {
        this.localLinks = links;
    }

    public LocalLinks localLinks() {
        return localLinks;
    }

    /**
     * Makes this (still empty) graph a streamed one: it holds at most {@code windowTasks} (a power of two) tasks and
     * flows at a time, and {@code 4 x windowTasks} dependencies, in rings, so that a workload of hundreds of millions
     * of tasks can be added while it runs, as long as its consumer {@link #retire}s what it is done with. Adding
     * beyond the window fails (the consumer must not let the producer run that far ahead); promises are not
     * supported (a streamed graph is run in the order it is added).
     */
    public void streamed(int windowTasks) {
        if (Integer.bitCount(windowTasks) != 1 || windowTasks < 64) {
            throw new IllegalArgumentException("a streamed window is a power of two of at least 64 tasks");
        }
        if (taskCount > 0) {
            throw new IllegalStateException("a graph is made streamed before its first task");
        }
        taskMask = windowTasks - 1;
        flowMask = windowTasks - 1;
        depMask = 4 * windowTasks - 1;
        kind = new byte[windowTasks];
        notBeforePs = new long[windowTasks];
        amount = new long[windowTasks];
        ref = new int[windowTasks];
        owner = new int[windowTasks];
        promised = new boolean[windowTasks];
        depStart = new int[windowTasks];
        deps = new int[4 * windowTasks];
        flowSrc = new int[windowTasks];
        flowDst = new int[windowTasks];
        flowBytes = new long[windowTasks];
        flowStartPs = new long[windowTasks];
        flowDscp = new byte[windowTasks];
        flowConnection = new int[windowTasks];
        flowTask = new int[windowTasks];
    }

    /** Whether this graph is streamed (a window of its tasks, see {@link #streamed}). */
    public boolean isStreamed() {
        return taskMask != -1;
    }

    /** The tasks a streamed graph holds at most (a whole graph: every task). */
    public int windowTasks() {
        return taskMask == -1 ? Integer.MAX_VALUE : taskMask + 1;
    }

    /**
     * In a streamed graph: tasks below {@code task} (and their flows and dependencies) are no longer needed, their room
     * may be reused. Never moves back.
     */
    public void retire(int task) {
        if (taskMask == -1 || task <= retiredTasks) {
            return;
        }
        int to = Math.min(task, taskCount);
        int flows = retiredFlows;
        for (int t = retiredTasks; t < to; t++) {
            int f = ref[t & taskMask];
            if (f >= 0 && kind[t & taskMask] == Kind.FLOW.ordinal()) {
                flows = f + 1;
            }
        }
        retiredFlows = flows;
        retiredTasks = to;
    }

    /** Tasks below this id may no longer be held (0 for a whole graph). */
    public int retiredTasks() {
        return retiredTasks;
    }

    /**
     * "No dependency": an entry of {@code after} that is ignored (a rank that has not entered yet, a chain's first
     * link). Never stored, and no dependency equals it: a task id is at least 0 and an ACK at most -2.
     */
    public static final int NONE = -1;

    /**
     * The dependency "flow {@code task} has been acknowledged to its sender": {@code -2 - task}, below {@link #NONE},
     * so that the ACK of task 0 is not taken for "no dependency" (as {@code ~0 == -1} was). Read it back with
     * {@link #isAck} and {@link #target}.
     */
    public static int acked(int flowTask) {
        if (flowTask < 0) {
            throw new IllegalArgumentException("task " + flowTask + " has no acknowledgement to wait for");
        }
        return -2 - flowTask;
    }

    /** Whether dependency {@code d} (not {@link #NONE}) waits for a transfer's acknowledgement, not its end. */
    public static boolean isAck(int d) {
        return d < NONE;
    }

    /** The task dependency {@code d} (not {@link #NONE}) waits on, its end or its acknowledgement. */
    public static int target(int d) {
        return d >= 0 ? d : -2 - d;
    }

    /** A new connection id for {@link #flow}: flows with the same id share a queue pair. */
    public int newConnection() {
        return connections++;
    }

    /**
     * Adds a flow from host {@code src} to host {@code dst} of {@code bytes} bytes marked with {@code dscp} (-1: the
     * RNIC's default), on {@code connection} (-1: a queue pair of its own), posted once every dependency is met and
     * not before {@code notBeforePs}. Returns its task id.
     */
    public int flow(int src, int dst, long bytes, int dscp, int connection, long notBeforePs, int... after) {
        if (localLinks != null && localLinks.local(src, dst) && src != dst) {
            if (connection >= connections) {
                throw new IllegalArgumentException("connection " + connection + " was not made by newConnection()");
            }
            int t = add(Kind.NVLINK, notBeforePs, 0, -1, src, after);
            amount[t & taskMask] = bytes;
            nvlinkTransfers++;
            nvlinkTransferBytes += bytes;
            ref[t & taskMask] = -2 - dst;
            if (linkConnection == null) {
                linkConnection = new int[kind.length];
            }
            linkConnection[t & taskMask] = connection;
            return t;
        }
        if (connection >= connections) {
            throw new IllegalArgumentException("connection " + connection + " was not made by newConnection()");
        }
        new FlowSpec(src, dst, bytes, notBeforePs, dscp); // validates, as every flow always was
        int f = flowCount;
        if (taskMask != -1) {
            if (f - retiredFlows >= flowMask) {
                throw new IllegalStateException("the streamed graph's window of " + (flowMask + 1)
                        + " flows is full: its consumer retired nothing below flow " + retiredFlows);
            }
            f &= flowMask;
        } else if (f == flowConnection.length) {
            int m = grown(f);
            resizeFlows(m);
        }
        flowSrc[f] = src;
        flowDst[f] = dst;
        flowBytes[f] = bytes;
        flowStartPs[f] = notBeforePs;
        flowDscp[f] = (byte) dscp;
        flowCount++;
        flowConnection[f] = connection;
        int t = add(Kind.FLOW, notBeforePs, 0, flowCount - 1, src, after);
        flowTask[f] = t;
        return t;
    }

    /** A flow of a traffic pattern: its own queue pair, no dependencies. */
    public int flow(FlowSpec spec) {
        return flow(spec.src(), spec.dst(), spec.sizeBytes(), spec.dscp(), -1, spec.startPs());
    }

    /** Adds GPU compute of {@code durationPs} on {@code owner} (a rank id of the caller's choosing, or -1). */
    public int compute(long durationPs, int owner, int... after) {
        return add(Kind.COMPUTE, 0, durationPs, -1, owner, after);
    }

    /** Adds a wait of {@code durationPs} that does not occupy a GPU (host overhead, a tool call, a think time). */
    public int delay(long durationPs, int owner, int... after) {
        return add(Kind.DELAY, 0, durationPs, -1, owner, after);
    }

    /** A zero-length task that finishes when all of {@code after} have; {@link #NONE} entries are ignored. */
    public int join(int owner, int... after) {
        return add(Kind.JOIN, 0, 0, -1, owner, distinct(after));
    }

    /**
     * The dependencies once each, in their order: a join listing one task twice (every rank of a tensor-parallel
     * prefill entered after the same ingress message) waits on it once, and the ideal bound's port step, which counts
     * the transfers a join waits on, counted that message once per listing.
     */
    private static int[] distinct(int[] after) {
        if (after.length <= 16) {
            for (int i = 1; i < after.length; i++) {
                for (int j = 0; j < i; j++) {
                    if (after[i] == after[j]) {
                        return Arrays.stream(after).distinct().toArray();
                    }
                }
            }
            return after;
        }
        int[] sorted = after.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                return Arrays.stream(after).distinct().toArray();
            }
        }
        return after;
    }

    /** A zero-length task that finishes at {@code atPs} (the start of a job or of a traffic item). */
    public int at(long atPs, int owner) {
        return add(Kind.JOIN, atPs, 0, -1, owner);
    }

    /** A join with no dependencies yet; {@link #fulfil} gives them. */
    public int promise(int owner) {
        if (taskMask != -1) {
            throw new IllegalStateException("a streamed graph has no promises");
        }
        int t = add(Kind.JOIN, 0, 0, -1, owner);
        promised[t] = true;
        openPromises++;
        return t;
    }

    /** Gives a promise its dependencies, which may be tasks added after it. */
    public void fulfil(int promise, int... after) {
        if (!promised[promise]) {
            throw new IllegalArgumentException("task " + promise + " is not an open promise");
        }
        promised[promise] = false;
        openPromises--;
        for (int d : after) {
            if (d == NONE) {
                continue;
            }
            checkAckable(d);
            if (lateCount + 2 > late.length) {
                late = Arrays.copyOf(late, late.length * 2);
            }
            late[lateCount++] = promise;
            late[lateCount++] = d;
        }
    }

    /** Promises not fulfilled yet. */
    public int openPromises() {
        return openPromises;
    }

    private void checkAckable(int d) {
        int target = target(d);
        if (target >= taskCount) {
            throw new IllegalArgumentException("task " + target + " does not exist");
        }
        if (target < retiredTasks) {
            return; // a streamed graph's retired task: done, and checked when it was waited on first
        }
        if (isAck(d) && kind[target & taskMask] != Kind.FLOW.ordinal()
                && kind[target & taskMask] != Kind.NVLINK.ordinal()) {
            throw new IllegalArgumentException("only a transfer can be waited on until acknowledged");
        }
    }

    private int add(Kind k, long notBefore, long duration, int flow, int own, int... after) {
        if (notBefore < 0 || duration < 0) {
            throw new IllegalArgumentException("times must not be negative");
        }
        int t = taskCount;
        if (taskMask != -1) {
            // One slot stays free: it holds where the next task's dependencies begin.
            int oldestDeps = retiredTasks < t ? depStart[retiredTasks & taskMask] : depCount;
            if (t - retiredTasks >= taskMask || depCount - oldestDeps + after.length > depMask
                    || depCount > Integer.MAX_VALUE - after.length - 1) {
                throw new IllegalStateException("the streamed graph's window of " + (taskMask + 1)
                        + " tasks is full: its consumer retired nothing below task " + retiredTasks);
            }
        } else if (t == kind.length) {
            int n = grown(t);
            resizeTasks(n);
        }
        int slot = t & taskMask;
        kind[slot] = (byte) k.ordinal();
        notBeforePs[slot] = notBefore;
        amount[slot] = duration;
        ref[slot] = flow;
        owner[slot] = own;
        promised[slot] = false;
        depStart[slot] = depCount;
        for (int d : after) {
            if (d == NONE) {
                continue;
            }
            int target = target(d);
            if (target >= t) {
                throw new IllegalArgumentException("task " + t + " cannot wait for task " + target
                        + ", which is not added yet");
            }
            checkAckable(d);
            if (taskMask == -1 && depCount == deps.length) {
                deps = Arrays.copyOf(deps, grown(depCount));
            }
            deps[depCount++ & depMask] = d;
        }
        taskCount++;
        depStart[taskCount & taskMask] = depCount;
        return t;
    }

    /**
     * Makes room now for a graph of about {@code tasks} tasks (flows among them), {@code flows} flows and
     * {@code dependencies} dependencies, when that size is known before the tasks are added (a job's program counted
     * by the scenario reader): a graph of tens of millions of tasks then grows no array by doubling (each doubling
     * copies everything held so far, and the copies' garbage is what the collector spends its time on while a large
     * job is unrolled). Past the expected size the arrays grow by an eighth at a time. Ignored for a streamed graph
     * and for counts beyond what an array holds.
     */
    public void expect(long tasks, long flows, long dependencies) {
        if (taskMask != -1) {
            return;
        }
        long cap = Integer.MAX_VALUE - 16;
        expected = true;
        if (tasks > kind.length && tasks < cap) {
            resizeTasks((int) tasks);
        }
        if (dependencies > deps.length && dependencies < cap) {
            deps = Arrays.copyOf(deps, (int) dependencies);
        }
        if (flows > flowConnection.length && flows < cap) {
            resizeFlows((int) flows);
        }
    }

    /** The next length of a full array of {@code n}: double, or an eighth more once {@link #expect}ed. */
    private int grown(int n) {
        long m = expected ? n + (n >> 3) + 64L : 2L * n;
        if (n >= Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a task graph holds at most " + n + " tasks, flows or dependencies");
        }
        return (int) Math.min(m, Integer.MAX_VALUE - 16);
    }

    /**
     * Gives back the room the arrays grew into beyond what the graph holds (they double as tasks are added, so up to
     * half of a large graph's arrays is empty); the graph may still grow afterwards.
     */
    public void trimToSize() {
        if (taskMask != -1) {
            return;
        }
        // Up to a sixteenth of room is kept rather than copied away: copying a graph of tens of millions of tasks to
        // give back an expected size's small overshoot would need the whole graph twice for a moment.
        int n = Math.max(1, taskCount);
        if (kind.length > n + (n >> 4)) {
            resizeTasks(n);
        }
        // The dependencies keep up to an eighth, the step they grow by past an expected size: an estimate a little
        // short must not cost the largest array two copies (to grow, then to trim).
        if (deps.length > Math.max(1, depCount) + (depCount >> 3)) {
            deps = Arrays.copyOf(deps, Math.max(1, depCount));
        }
        int m = Math.max(1, flowCount);
        if (flowSrc.length > m + (m >> 4)) {
            resizeFlows(m);
        }
    }

    /** The task columns at {@code n} entries (the graph's tasks kept; used to grow, to pre-size and to trim). */
    private void resizeTasks(int n) {
        kind = Arrays.copyOf(kind, n);
        notBeforePs = Arrays.copyOf(notBeforePs, n);
        amount = Arrays.copyOf(amount, n);
        promised = Arrays.copyOf(promised, n);
        ref = Arrays.copyOf(ref, n);
        owner = Arrays.copyOf(owner, n);
        if (linkConnection != null) {
            linkConnection = Arrays.copyOf(linkConnection, n);
        }
        depStart = Arrays.copyOf(depStart, n + 1);
    }

    /** The flow columns at {@code m} entries (the graph's flows kept). */
    private void resizeFlows(int m) {
        flowConnection = Arrays.copyOf(flowConnection, m);
        flowTask = Arrays.copyOf(flowTask, m);
        flowSrc = Arrays.copyOf(flowSrc, m);
        flowDst = Arrays.copyOf(flowDst, m);
        flowBytes = Arrays.copyOf(flowBytes, m);
        flowStartPs = Arrays.copyOf(flowStartPs, m);
        flowDscp = Arrays.copyOf(flowDscp, m);
    }

    public int taskCount() {
        return taskCount;
    }

    public Kind kind(int task) {
        return KINDS[kind[task & taskMask]];
    }

    public long notBeforePs(int task) {
        return notBeforePs[task & taskMask];
    }

    public long durationPs(int task) {
        return kind[task & taskMask] == NVLINK ? 0 : amount[task & taskMask];
    }

    /** The rank (or other owner id) a task was added for, -1 when none. For flows: the sending host. */
    public int owner(int task) {
        return owner[task & taskMask];
    }

    /** Index of a flow task among {@link #flows()}, or -1 for timed tasks. */
    public int flowIndex(int task) {
        int i = ref[task & taskMask];
        return i >= 0 ? i : -1;
    }

    /** Task id of flow {@code flow}. */
    public int flowTask(int flow) {
        return flowTask[flow & flowMask];
    }

    /** Dependencies given when the task was added (see {@link #lateDependencyCount} for a promise's). */
    public int dependencyCount(int task) {
        return depStart[(task + 1) & taskMask] - depStart[task & taskMask];
    }

    /**
     * The i-th dependency of a task: a task id, or {@link #acked}(id) when it waits for a transfer's acknowledgement
     * ({@link #isAck} and {@link #target} tell which); never {@link #NONE}.
     */
    public int dependency(int task, int i) {
        return deps[(depStart[task & taskMask] + i) & depMask];
    }

    /** Dependencies given to promises by {@link #fulfil}, as pairs. */
    public int lateDependencyCount() {
        return lateCount / 2;
    }

    /** The promise of late dependency i. */
    public int lateTask(int i) {
        return late[2 * i];
    }

    /** The dependency of late dependency i. */
    public int lateDependency(int i) {
        return late[2 * i + 1];
    }

    /**
     * Tasks that can never start because promises closed a cycle of dependencies (0 for a runnable graph); Kahn's
     * algorithm over all dependencies.
     */
    public int tasksInCycles() {
        if (lateCount == 0) {
            // Every dependency given at add time names an earlier task: no cycle is possible without promises.
            return 0;
        }
        // A graph is run twice (the run and the ideal network's run): the answer holds until the graph grows.
        if (cyclesCheckedTasks == taskCount && cyclesCheckedDeps == depCount && cyclesCheckedLate == lateCount) {
            return cyclesFound;
        }
        // Almost every graph is runnable: a depth-first search proves that in one pass and a byte per task, and
        // only a graph with a cycle pays for Kahn's algorithm, which counts the tasks that can never start.
        cyclesFound = hasCycle() ? countTasksInCycles() : 0;
        cyclesCheckedTasks = taskCount;
        cyclesCheckedDeps = depCount;
        cyclesCheckedLate = lateCount;
        return cyclesFound;
    }

    /**
     * Whether the dependencies, promises' late ones included, close a cycle: an iterative depth-first search along
     * dependencies with a colour per task (a dependency still on the search's path closes a cycle), rooted at the
     * tasks in id order. Only the promises' late dependencies point forward, so when the search reaches root r every
     * task below r is finished (a task below r cannot be on the path, which starts at r): a dependency below the
     * root is skipped without looking at it, and a root without late dependencies (all its dependencies below it)
     * is finished at once. So the search starts only at promises and explores only what their late dependencies
     * reach above them, not the whole graph: each task and dependency is visited at most once, most not at all.
     */
    boolean hasCycle() {
        int n = taskCount;
        // A promise's late dependencies, sorted by promise: (promise << 32 | index of the pair).
        long[] lateByTask = new long[lateCount / 2];
        long[] hasLate = new long[(n >>> 6) + 1];
        for (int i = 0; i < lateCount; i += 2) {
            lateByTask[i / 2] = (long) late[i] << 32 | (i / 2);
            hasLate[late[i] >>> 6] |= 1L << late[i];
        }
        Arrays.sort(lateByTask);
        byte[] colour = new byte[n]; // 0: not seen, 1: on the search's path, 2: finished (read for tasks >= root)
        int[] stackTask = new int[64];
        // Per stacked task: the next of its dependencies to follow; add-time ones first, then late ones.
        int[] stackNext = new int[64];
        int[] stackLateFrom = new int[64];
        for (int first = 0; first < lateByTask.length; ) {
            int root = (int) (lateByTask[first] >>> 32);
            int rootLateFrom = first;
            while (first < lateByTask.length && (int) (lateByTask[first] >>> 32) == root) {
                first++;
            }
            if (colour[root] != 0) {
                continue;
            }
            int top = 0;
            stackTask[0] = root;
            stackNext[0] = 0;
            stackLateFrom[0] = rootLateFrom;
            colour[root] = 1;
            while (top >= 0) {
                int t = stackTask[top];
                int given = depStart[t + 1] - depStart[t];
                int next = stackNext[top]++;
                int d;
                if (next < given) {
                    d = deps[depStart[t] + next];
                } else {
                    int li = stackLateFrom[top] + next - given;
                    if (stackLateFrom[top] < 0 || li >= lateByTask.length || (int) (lateByTask[li] >>> 32) != t) {
                        colour[t] = 2;
                        top--;
                        continue;
                    }
                    d = late[2 * (int) lateByTask[li] + 1];
                }
                int u = target(d);
                if (u < root) {
                    continue; // finished before this root's search began
                }
                if (colour[u] == 1) {
                    return true;
                }
                if (colour[u] == 0) {
                    colour[u] = 1;
                    if (++top == stackTask.length) {
                        stackTask = Arrays.copyOf(stackTask, top * 2);
                        stackNext = Arrays.copyOf(stackNext, top * 2);
                        stackLateFrom = Arrays.copyOf(stackLateFrom, top * 2);
                    }
                    stackTask[top] = u;
                    stackNext[top] = 0;
                    stackLateFrom[top] = lateFrom(lateByTask, hasLate, u);
                }
            }
        }
        return false;
    }

    /** Where task {@code t}'s late dependencies begin in {@code lateByTask}, or -1 when it has none. */
    private static int lateFrom(long[] lateByTask, long[] hasLate, int t) {
        if ((hasLate[t >>> 6] & 1L << t) == 0) {
            return -1;
        }
        int lo = 0;
        int hi = lateByTask.length;
        long key = (long) t << 32;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (lateByTask[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    int countTasksInCycles() {
        int n = taskCount;
        int[] waiting = new int[n];
        int[] outStart = new int[n + 1];
        for (int t = 0; t < n; t++) {
            waiting[t] = dependencyCount(t);
            for (int i = depStart[t]; i < depStart[t + 1]; i++) {
                int d = deps[i];
                outStart[target(d) + 1]++;
            }
        }
        for (int i = 0; i < lateCount; i += 2) {
            waiting[late[i]]++;
            int d = late[i + 1];
            outStart[target(d) + 1]++;
        }
        for (int t = 0; t < n; t++) {
            outStart[t + 1] += outStart[t];
        }
        int[] out = new int[outStart[n]];
        int[] fill = Arrays.copyOf(outStart, n);
        for (int t = 0; t < n; t++) {
            for (int i = depStart[t]; i < depStart[t + 1]; i++) {
                int d = deps[i];
                out[fill[target(d)]++] = t;
            }
        }
        for (int i = 0; i < lateCount; i += 2) {
            int d = late[i + 1];
            out[fill[target(d)]++] = late[i];
        }
        int[] stack = new int[n];
        int top = 0;
        int seen = 0;
        for (int t = 0; t < n; t++) {
            if (waiting[t] == 0) {
                stack[top++] = t;
            }
        }
        while (top > 0) {
            int t = stack[--top];
            seen++;
            for (int i = outStart[t]; i < outStart[t + 1]; i++) {
                if (--waiting[out[i]] == 0) {
                    stack[top++] = out[i];
                }
            }
        }
        return n - seen;
    }

    /**
     * How many transfers asked for as flows ({@link #flow}) became NVLink transfers, their two ends GPUs of one server
     * with {@link LocalLinks}: they cross no RNIC and no switch (a streamed graph counts every one it was given).
     */
    public long nvlinkTransferCount() {
        return nvlinkTransfers;
    }

    /** The bytes of those transfers ({@link #nvlinkTransferCount}). */
    public long nvlinkTransferBytes() {
        return nvlinkTransferBytes;
    }

    /** Bytes of an NVLink transfer. */
    public long nvlinkBytes(int task) {
        return kind[task & taskMask] == NVLINK ? amount[task & taskMask] : 0;
    }

    /**
     * The connection of an NVLink transfer (its transfers go one after the other, as a queue pair's messages), or -1
     * (one of its own, or not an NVLink transfer).
     */
    public int nvlinkConnection(int task) {
        return kind[task & taskMask] == NVLINK ? linkConnection[task & taskMask] : -1;
    }

    /** Destination host of an NVLink transfer (its owner is the source). */
    public int nvlinkDestination(int task) {
        return kind[task & taskMask] == NVLINK ? -2 - ref[task & taskMask] : 0;
    }

    /** The sending host of a transfer (a flow or an NVLink transfer); -1 for any other task. */
    public int transferSource(int task) {
        Kind k = kind(task);
        return k == Kind.FLOW ? flowSource(flowIndex(task)) : k == Kind.NVLINK ? owner(task) : -1;
    }

    /** The receiving host of a transfer (a flow or an NVLink transfer); -1 for any other task. */
    public int transferDestination(int task) {
        Kind k = kind(task);
        return k == Kind.FLOW ? flowDestination(flowIndex(task)) : k == Kind.NVLINK ? nvlinkDestination(task) : -1;
    }

    /** Every flow, in the order added: flow i is flows().get(i) (a view; each get makes its record). */
    public List<FlowSpec> flows() {
        return new AbstractList<>() {
            @Override
            public FlowSpec get(int i) {
                return flowSpec(i);
            }

            @Override
            public int size() {
                return flowCount;
            }
        };
    }

    /** Flow i as a record. */
    public FlowSpec flowSpec(int i) {
        Objects.checkIndex(i, flowCount);
        int f = i & flowMask;
        return new FlowSpec(flowSrc[f], flowDst[f], flowBytes[f], flowStartPs[f], flowDscp[f]);
    }

    /** How many dependencies the tasks were given when added, every task's together (a promise's late ones not). */
    public int dependencyCount() {
        return depCount;
    }

    /** How many flows the graph holds (NVLink transfers are not flows). */
    public int flowCount() {
        return flowCount;
    }

    /** Sending host of flow i. */
    public int flowSource(int i) {
        return flowSrc[i & flowMask];
    }

    /** Receiving host of flow i. */
    public int flowDestination(int i) {
        return flowDst[i & flowMask];
    }

    /** Payload bytes of flow i. */
    public long flowBytes(int i) {
        return flowBytes[i & flowMask];
    }

    /** Earliest post time of flow i. */
    public long flowStartPs(int i) {
        return flowStartPs[i & flowMask];
    }

    /** DSCP of flow i (-1: the RNIC's default). */
    public int flowDscp(int i) {
        return flowDscp[i & flowMask];
    }

    /** Connections made by {@link #newConnection()}: connection ids are 0 up to this. */
    public int connectionCount() {
        return connections;
    }

    /** The connection of flow i, or -1 when it has a queue pair of its own. */
    public int connection(int flow) {
        return flowConnection[flow & flowMask];
    }
}
