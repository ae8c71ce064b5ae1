package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/**
 * The bookkeeping every algorithm shares while it writes one call into a task graph: connections between ranks (each
 * with the call's queue pairs per connection, whole messages round-robin over them, and NCCL's window of
 * {@link NcclChunks#WINDOW} messages in flight, a slot freed when the receiver has consumed its message), the rule that a send waits until sender and receiver have entered,
 * and each rank's done task (every send acknowledged, every receive delivered).
 */
final class Schedule {
    private final TaskGraph graph;
    private final Collective call;
    private final int[] entry;
    private final Communicator communicator;
    /** Connections this call opened so far, per (source host, destination host): the next one's ordinal. */
    private final Map<Long, Integer> opened = new HashMap<>();
    private final List<Connection> connections = new ArrayList<>();
    private final Map<Long, Connection> byPair = new HashMap<>();
    /** Reused dependency arrays, by length ({@link #dependencies}). */
    private int[][] byLength = new int[8][];

    Schedule(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        this.graph = graph;
        this.call = call;
        this.entry = entry.clone();
        this.communicator = communicator;
    }

    Collective call() {
        return call;
    }

    TaskGraph graph() {
        return graph;
    }

    int rankCount() {
        return call.rankCount();
    }

    /** The task rank i entered at, or -1. */
    int entry(int i) {
        return entry[i];
    }

    /**
     * A new connection of this call from rank index {@code src} to {@code dst}, over the communicator's queue pairs
     * for it: this call's k-th connection between those hosts is the communicator's k-th.
     */
    Connection connect(int src, int dst) {
        long pair = ((long) call.host(src) << 32) | call.host(dst);
        int ordinal = opened.merge(pair, 1, Integer::sum) - 1;
        int[] qps = communicator.connection(graph, call.host(src), call.host(dst), ordinal, call.qpsPerConnection(),
                call.dscp());
        Connection c = new Connection(src, dst, qps);
        connections.add(c);
        return c;
    }

    /**
     * The connection from {@code src} to {@code dst} of key {@code key} (a channel, a tree), made on first use: the
     * same pair of ranks talks over one connection per key, whatever the step.
     */
    Connection connection(int key, int src, int dst) {
        long k = ((long) key * rankCount() + src) * rankCount() + dst;
        return byPair.computeIfAbsent(k, x -> connect(src, dst));
    }

    /**
     * Writes {@code bytes} (at least one: a part that rounds to nothing still carries its synchronisation) over
     * {@code c} once every task of {@code after} is done (-1 entries ignored), both ranks have entered, and the message
     * {@link NcclChunks#WINDOW} before it on this connection has been consumed ({@link #consumedBy}) or, without a
     * mark, delivered. Returns the flow task.
     */
    int send(Connection c, long bytes, int... after) {
        int slot = c.sent % NcclChunks.WINDOW;
        int window = c.sent < NcclChunks.WINDOW ? -1 : c.consumed[slot] >= 0 ? c.consumed[slot] : c.recent[slot];
        c.consumed[slot] = -1;
        int[] deps = dependencies(after.length + 3);
        System.arraycopy(after, 0, deps, 0, after.length);
        deps[after.length] = entry[c.src];
        deps[after.length + 1] = entry[c.dst];
        deps[after.length + 2] = window;
        int qp = c.qps[c.sent % c.qps.length];
        int t = graph.flow(call.host(c.src), call.host(c.dst), Math.max(1, bytes), call.dscp(), qp, 0, deps);
        c.recent[c.sent % NcclChunks.WINDOW] = t;
        c.last[c.sent % c.qps.length] = t;
        c.sent++;
        return t;
    }

    /**
     * An array of exactly {@code length} for a send's dependencies, the same one for every send of that length: the
     * graph copies what it is given, and a large job makes tens of millions of sends.
     */
    private int[] dependencies(int length) {
        if (length >= byLength.length) {
            byLength = Arrays.copyOf(byLength, length + 1);
        }
        if (byLength[length] == null) {
            byLength[length] = new int[length];
        }
        return byLength[length];
    }

    /**
     * Marks message {@code message} of {@code c} as consumed by its receiver once {@code task} is done (the
     * receiver's send that forwards or reduces it): NCCL frees the buffer slot, and so returns the sender's credit,
     * only then. Without a mark the slot counts as free on delivery.
     */
    void consumedBy(Connection c, int message, int task) {
        if (message < c.sent && message >= c.sent - NcclChunks.WINDOW) {
            c.consumed[message % NcclChunks.WINDOW] = task;
        }
    }

    /**
     * Per rank, a task that ends when its part is done: the last message on each of its queue pairs acknowledged (a
     * queue pair completes in order) and the last on each queue pair towards it delivered, and never before it
     * entered.
     */
    int[] done() {
        int n = rankCount();
        int[] count = new int[n];
        Arrays.fill(count, 1);
        for (Connection c : connections) {
            for (int t : c.last) {
                if (t >= 0) {
                    count[c.src]++;
                    count[c.dst]++;
                }
            }
        }
        int[][] ends = new int[n][];
        for (int i = 0; i < n; i++) {
            ends[i] = new int[count[i]];
            ends[i][0] = entry[i];
            count[i] = 1;
        }
        for (Connection c : connections) {
            for (int t : c.last) {
                if (t >= 0) {
                    ends[c.src][count[c.src]++] = TaskGraph.acked(t);
                    ends[c.dst][count[c.dst]++] = t;
                }
            }
        }
        int[] done = new int[n];
        for (int i = 0; i < n; i++) {
            done[i] = graph.join(call.host(i), ends[i]);
        }
        return done;
    }

    /** A connection between two ranks: its queue pairs and the messages sent on it so far. */
    static final class Connection {
        final int src;
        final int dst;
        private final int[] qps;
        private final int[] last;
        private final int[] recent = new int[NcclChunks.WINDOW];
        private final int[] consumed = new int[NcclChunks.WINDOW];
        private int sent;

        private Connection(int src, int dst, int[] qps) {
            this.src = src;
            this.dst = dst;
            this.qps = qps;
            this.last = new int[qps.length];
            Arrays.fill(last, -1);
            Arrays.fill(consumed, -1);
        }

        /** Messages sent on it so far. */
        int sent() {
            return sent;
        }
    }
}
