package rocelab.workload.flow;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/**
 * Lower bounds of the time between two tasks of a run, each pair on the ideal network alone: for a pair (a, b), the
 * least time from a's end to b's end in any run on capacities like {@link IdealNetwork}'s, whatever else the run had
 * and whenever a ended. An LLM call's TTFT (from its prompt at the prefill instance to its first token) is such a
 * span, and {@link IdealBound}'s own figures are not a bound of it: the bound of b's end minus the bound of a's end is
 * the difference of two lower bounds, which a run whose a was late (and found the instance free that the ideal network
 * kept it waiting for) undercuts.
 *
 * <p>The tasks between a and b (those b waits on, directly or through others, that wait on a, directly or through
 * others) each started after a ended in every run, and waited on each other as the graph says. They are copied into a
 * graph of their own, a's place taken by the time 0; whatever else they waited on (a queue's earlier work, another
 * request's decode step, an earlier message on a connection) is left out, as done at 0, and so are absolute start
 * times: each only makes a run later, so leaving it out keeps a lower bound. Each pair gets a group of capacities of its
 * own (as if alone), and {@link IdealBound#lastEndPs} bounds b's copy there: each message at its closed form along
 * the waits, and the work of every RNIC and NVLink port its transfers cross. A pair nothing lies between (b does
 * not wait on a) gets 0.
 */
public final class IdealSpans {
    private IdealSpans() {}

    /** Groups of at least this many tasks have their copy's room made at once. */
    private static final int LARGE_GROUP = 1 << 20;

    /**
     * Per pair i, the bound of the time from the end of {@code from[i]} to the end of {@code to[i]} (ps); -1 where
     * either task is -1. The tasks are those of {@code bound}'s graph, on its ideal network.
     */
    public static long[] of(IdealBound bound, int[] from, int[] to) {
        int[][] froms = new int[from.length][];
        int[][] tos = new int[to.length][];
        for (int i = 0; i < from.length; i++) {
            froms[i] = from[i] < 0 || to[i] < 0 ? null : new int[] {from[i]};
            tos[i] = from[i] < 0 || to[i] < 0 ? null : new int[] {to[i]};
        }
        return ofGroups(bound, froms, tos);
    }

    /**
     * Per group i, the bound of the time from the end of the first of {@code from[i]} to the end of the last of
     * {@code to[i]} (ps), -1 where a group is null: the tasks between (those a task of {@code to[i]} waits on, itself
     * included, that wait on one of {@code from[i]}) are copied with every task of {@code from[i]} as done at 0. In any
     * run each of those ended no earlier than the first of them, so the copy's bound is one of that span: an
     * iteration's, from its first rank's start to its last rank's end, where the bound of its end minus the bound of
     * its start is not one.
     */
    public static long[] ofGroups(IdealBound bound, int[][] from, int[][] to) {
        return ofGroups(bound, from, null, to);
    }

    /**
     * As above, each task of {@code from[i]} ending {@code fromAtPs[i][j]} after the first of them (>= 0; null: all
     * at 0), as they did in a run: the bound is then of the span from the first of them to the last of {@code to[i]}
     * in any run whose {@code from[i]} ended as that run's did. A collective call's time runs from its last member's
     * entry; members that entered earlier may have sent most of the call's bytes by then, so the call with every
     * member entering at once is not a bound of it (an audit's skewed AlltoAllv ran 735 us against such an "ideal" of
     * 893 us, its late member held up by background traffic before the call).
     */
    public static long[] ofGroups(IdealBound bound, int[][] from, long[][] fromAtPs, int[][] to) {
        TaskGraph g = bound.graph();
        TaskGraph sub = new TaskGraph();
        sub.localLinks(g.localLinks());
        int pairs = from.length;
        long[] out = new long[pairs];
        int[][] subEnds = new int[pairs][];
        int[] subFirst = new int[pairs];
        // Per group, the earlier group whose copy is the same task for task (-1: none): a job's calls repeat, layer
        // after layer, on the same ranks with the same entries, and a copy's bound is a function of the copy alone
        // (each group has capacities of its own, and nothing of it waits on another group), so one copy and one walk
        // serve them all.
        int[] sameAs = new int[pairs];
        Map<CopyRecipe.Key, Integer> copies = new HashMap<>();
        // Each copy's group, made once a second group comes (until then every copy is in group 0, and one group is
        // no array at all: a job's iteration alone is tens of millions of copies).
        int[] groupOf = null;
        int groups = 0;
        CopyRecipe recipe = new CopyRecipe(sub, g.connectionCount());
        // Look-ups by task id, over the whole graph, made once and reset after each group (only what it touched):
        // a large job's groups span millions of ids, where arrays per group (or binary searches) cost most of the
        // bound's time (the 4,096-GPU iteration: 68 s of ideal figures).
        int[] place = new int[g.taskCount()];
        Arrays.fill(place, -1);
        boolean[] isA = new boolean[g.taskCount()];
        int[] after = new int[16];
        for (int i = 0; i < pairs; i++) {
            sameAs[i] = -1;
            subEnds[i] = new int[0];
            if (from[i] == null || to[i] == null) {
                out[i] = -1;
                continue;
            }
            int[] as = from[i].clone();
            Arrays.sort(as);
            // Each of as ends at its offset: a delay from 0 made for it when a copied task first waits on it.
            long[] atOfSorted = new long[as.length];
            if (fromAtPs != null && fromAtPs[i] != null) {
                for (int j = 0; j < from[i].length; j++) {
                    int x = Arrays.binarySearch(as, from[i][j]);
                    atOfSorted[x] = Math.max(atOfSorted[x], fromAtPs[i][j]);
                }
            }
            int[] delayOf = new int[as.length];
            Arrays.fill(delayOf, -1);
            int[] between = between(bound, as, to[i], place, isA);
            // The copy of each task, by the task's place in between's order (-1 until copied): in that topological
            // order every task a task waits on among them is copied before it. A copy's number counts from the
            // group's first copy (CopyRecipe).
            for (int k = 0; k < between.length; k++) {
                place[between[k]] = k;
            }
            int[] copyOf = new int[between.length];
            Arrays.fill(copyOf, -1);
            subFirst[i] = sub.taskCount();
            if (between.length >= LARGE_GROUP) {
                // A copy of millions of tasks (a job's iteration) is made at its size, not doubled into: an array
                // half empty, and each doubling's copy, is room the bound needs then (the 4,096-GPU iteration's
                // peak of live heap is while this copy is bounded).
                long flows = 0;
                long deps = 0;
                for (int t : between) {
                    flows += g.kind(t) == TaskGraph.Kind.FLOW ? 1 : 0;
                    deps += bound.dependencies(t);
                }
                sub.expect((long) sub.taskCount() + between.length + as.length, sub.flowCount() + flows,
                        sub.dependencyCount() + deps);
            }
            recipe.start();
            for (int t : between) {
                int deps = bound.dependencies(t);
                if (after.length < deps) {
                    after = new int[Math.max(deps, 2 * after.length)];
                }
                for (int j = 0; j < deps; j++) {
                    int d = bound.dependency(t, j);
                    int x = place[TaskGraph.target(d)];
                    int c = x < 0 ? -1 : copyOf[x];
                    int gate = x < 0 ? Arrays.binarySearch(as, TaskGraph.target(d)) : -1;
                    if (gate >= 0 && atOfSorted[gate] > 0) {
                        if (delayOf[gate] < 0) {
                            delayOf[gate] = recipe.delay(atOfSorted[gate], g.owner(as[gate]), after, 0);
                        }
                        after[j] = delayOf[gate];
                        continue;
                    }
                    after[j] = c < 0 ? TaskGraph.NONE : TaskGraph.isAck(d) ? TaskGraph.acked(c) : c;
                }
                copyOf[place[t]] = switch (g.kind(t)) {
                    case FLOW -> {
                        int f = g.flowIndex(t);
                        yield recipe.flow(g.flowSource(f), g.flowDestination(f), g.flowBytes(f), g.flowDscp(f),
                                g.connection(f), after, deps);
                    }
                    case NVLINK -> recipe.flow(g.owner(t), g.nvlinkDestination(t), g.nvlinkBytes(t), -1,
                            g.nvlinkConnection(t), after, deps);
                    case COMPUTE -> recipe.compute(g.durationPs(t), g.owner(t), after, deps);
                    case DELAY -> recipe.delay(g.durationPs(t), g.owner(t), after, deps);
                    case JOIN -> recipe.join(g.owner(t), after, deps);
                };
            }
            int[] ends = new int[to[i].length];
            int e = 0;
            for (int b : to[i]) {
                int at = place[b];
                if (at >= 0 && copyOf[at] >= 0) {
                    ends[e++] = copyOf[at];
                }
            }
            for (int t : between) {
                place[t] = -1;
            }
            ends = Arrays.copyOf(ends, e);
            // A group none of whose ends waits on from[i] has the span 0: copied (a group of its own), never walked.
            CopyRecipe.Key key = e == 0 ? null : recipe.key(ends);
            Integer earlier = key == null ? null : copies.putIfAbsent(key, i);
            if (earlier != null) {
                recipe.drop();
                sameAs[i] = earlier;
                continue;
            }
            recipe.finish();
            for (int k = 0; k < e; k++) {
                ends[k] += subFirst[i];
            }
            subEnds[i] = ends;
            if (groups > 0) {
                if (groupOf == null) {
                    groupOf = new int[Math.max(16, sub.taskCount())];
                } else if (groupOf.length < sub.taskCount()) {
                    groupOf = Arrays.copyOf(groupOf, Math.max(sub.taskCount(), 2 * groupOf.length));
                }
                Arrays.fill(groupOf, subFirst[i], sub.taskCount(), groups);
            }
            groups++;
        }
        if (sub.taskCount() == 0) {
            return out;
        }
        IdealBound alone = new IdealBound(sub, bound.network(), bound.hostCount(),
                groupOf == null ? null : Arrays.copyOf(groupOf, sub.taskCount()));
        for (int i = 0; i < pairs; i++) {
            if (subEnds[i].length > 0 && sameAs[i] < 0) {
                out[i] = alone.lastEndPs(subEnds[i], new int[0], subFirst[i]);
            }
        }
        for (int i = 0; i < pairs; i++) {
            if (sameAs[i] >= 0) {
                out[i] = out[sameAs[i]];
            }
        }
        return out;
    }

    /**
     * The tasks a task of {@code bs} waits on, those of {@code bs} included, that wait on one of {@code as} (neither
     * those nor anything below the first of them), in an order in which each comes after what it waits on among them
     * and after the message before it on its connection: a promise's waits (a receive's join whose matching send was
     * added later) point to later tasks, so the order is a topological one, the lowest task first where several are
     * ready (which keeps each connection's messages in their order). Leaving out a promise's waits made an 1F1B
     * pipeline's bubble vanish from the bound: an iteration that takes 17.6 ms on the ideal network got 15.0.
     */
    private static int[] between(IdealBound bound, int[] as, int[] bs, int[] place, boolean[] isA) {
        int a = as[0];
        int[] found = new int[16];
        int n = 0;
        // place[x] >= 0 marks a task found (its place in the order found, then in the sorted order); every entry this
        // touches is -1 again, and every isA false, when it returns.
        for (int b : bs) {
            if (b > a && place[b] < 0) {
                place[b] = n;
                if (n == found.length) {
                    found = Arrays.copyOf(found, 2 * n);
                }
                found[n++] = b;
            }
        }
        // What they wait on above the first of as, found from them down, and on each connection the messages added
        // before one of them: a queue pair sends, delivers and completes its messages in order.
        for (int i = 0; i < n; i++) {
            int t = found[i];
            int deps = bound.dependencies(t);
            for (int j = -1; j < deps; j++) {
                int x = j < 0 ? bound.earlierOnConnection(t) : TaskGraph.target(bound.dependency(t, j));
                if (x > a && place[x] < 0) {
                    place[x] = n;
                    if (n == found.length) {
                        found = Arrays.copyOf(found, 2 * n);
                    }
                    found[n++] = x;
                }
            }
        }
        // In the order of their ids: read off the marks where they are dense (a job's iteration: tens of millions of
        // tasks, whose sort cost 9 s of the 4,096-GPU iteration's bound), else sorted.
        int lowest = Integer.MAX_VALUE;
        int highest = -1;
        for (int i = 0; i < n; i++) {
            lowest = Math.min(lowest, found[i]);
            highest = Math.max(highest, found[i]);
        }
        if (n > 0 && (long) highest - lowest < 8L * n) {
            int k = 0;
            for (int x = lowest; x <= highest; x++) {
                if (place[x] >= 0) {
                    found[k++] = x;
                }
            }
        } else {
            Arrays.sort(found, 0, n);
        }
        found = Arrays.copyOf(found, n);
        // Each task's place among them, and whether it is one of as, by its id: a look-up per dependency.
        for (int i = 0; i < n; i++) {
            place[found[i]] = i;
        }
        for (int t : as) {
            isA[t] = true;
        }
        // The edges among them, each from a task to one that waits on it (or comes after it on its connection), as
        // lists per task: count, then fill.
        int[] start = new int[n + 1];
        for (int i = 0; i < n; i++) {
            int t = found[i];
            int deps = bound.dependencies(t);
            for (int j = -1; j < deps; j++) {
                int x = j < 0 ? bound.earlierOnConnection(t) : TaskGraph.target(bound.dependency(t, j));
                int at = x <= a ? -1 : place[x];
                if (at >= 0 && at != i) {
                    start[at + 1]++;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            start[i + 1] += start[i];
        }
        int[] next = new int[start[n]];
        int[] fill = Arrays.copyOf(start, n);
        boolean[] gate = new boolean[n];
        boolean[] kept = new boolean[n];
        int[] work = new int[n];
        int queued = 0;
        for (int i = 0; i < n; i++) {
            int t = found[i];
            gate[i] = isA[t];
            int deps = bound.dependencies(t);
            for (int j = -1; j < deps; j++) {
                boolean wait = j >= 0;
                int x = wait ? TaskGraph.target(bound.dependency(t, j)) : bound.earlierOnConnection(t);
                int at = x <= a ? -1 : place[x];
                if (at >= 0 && at != i) {
                    next[fill[at]++] = i;
                }
                // Waiting on one of as: the seed of those kept.
                boolean onA = x >= a && isA[x];
                if (wait && !kept[i] && onA && !gate[i]) {
                    kept[i] = true;
                    work[queued++] = i;
                }
            }
        }
        // Those that wait on a kept one (or follow it on its connection) are kept too; as themselves are not.
        for (int q = 0; q < queued; q++) {
            int i = work[q];
            for (int e = start[i]; e < start[i + 1]; e++) {
                int k = next[e];
                if (!kept[k] && !gate[k]) {
                    kept[k] = true;
                    work[queued++] = k;
                }
            }
        }
        // Kahn's order over the kept, the lowest task first among the ready.
        int[] waiting = new int[n];
        for (int i = 0; i < n; i++) {
            if (kept[i]) {
                for (int e = start[i]; e < start[i + 1]; e++) {
                    if (kept[next[e]]) {
                        waiting[next[e]]++;
                    }
                }
            }
        }
        // The ready as a binary min-heap of places (a place's order is its task's): millions of them in a large
        // job's iteration, which boxed in a PriorityQueue cost seconds.
        int[] ready = new int[Math.max(1, queued)];
        int readyCount = 0;
        for (int i = 0; i < n; i++) {
            if (kept[i] && waiting[i] == 0) {
                ready[readyCount++] = i; // ascending: already a heap
            }
        }
        int[] order = new int[queued];
        int m = 0;
        while (readyCount > 0) {
            int i = ready[0];
            siftDown(ready, --readyCount, ready[readyCount]);
            order[m++] = found[i];
            for (int e = start[i]; e < start[i + 1]; e++) {
                int k = next[e];
                if (kept[k] && --waiting[k] == 0) {
                    siftUp(ready, readyCount++, k);
                }
            }
        }
        for (int t : found) {
            place[t] = -1;
        }
        for (int t : as) {
            isA[t] = false;
        }
        // A cycle (which the driver refuses in a run) would leave tasks out: a relaxation, still a bound.
        return Arrays.copyOf(order, m);
    }

    /** Puts {@code v} into the min-heap {@code heap} at free slot {@code at} (the heap's old size) and restores order. */
    private static void siftUp(int[] heap, int at, int v) {
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap[parent] <= v) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = v;
    }

    /** Puts {@code v} (the heap's former last) at the root of the min-heap of {@code size} and restores order. */
    private static void siftDown(int[] heap, int size, int v) {
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (v <= heap[child]) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        if (size > 0) {
            heap[at] = v;
        }
    }
}
