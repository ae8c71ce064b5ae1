package rocelab.workload.collective;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.traffic.FlowSpec;

/**
 * The sends of one collective call read back from its task graph, without simulating: who sends how many bytes to
 * whom, and at which step (the longest chain of flows that a send waits for, through joins).
 */
final class Sends {
    record Send(int step, int src, int dst, long bytes, int task) {}

    final TaskGraph graph;
    final List<Send> sends = new ArrayList<>();
    final int[] done;

    Sends(TaskGraph graph, int[] done) {
        this.graph = graph;
        this.done = done;
        int[] level = new int[graph.taskCount()];
        for (int t = 0; t < graph.taskCount(); t++) {
            int l = 0;
            for (int i = 0; i < graph.dependencyCount(t); i++) {
                int d = graph.dependency(t, i);
                int target = TaskGraph.target(d);
                l = Math.max(l, level[target] + (graph.kind(target) == TaskGraph.Kind.FLOW ? 1 : 0));
            }
            level[t] = l;
            if (graph.kind(t) == TaskGraph.Kind.FLOW) {
                FlowSpec f = graph.flows().get(graph.flowIndex(t));
                sends.add(new Send(l, f.src(), f.dst(), f.sizeBytes(), t));
            }
        }
    }

    /** Emits {@code call} with every rank entering at once. */
    static Sends of(Collective call) {
        TaskGraph g = new TaskGraph();
        int[] entry = new int[call.rankCount()];
        Arrays.fill(entry, -1);
        return new Sends(g, Collectives.emit(g, call, entry));
    }

    static Sends of(CollectiveOp op, Algorithm a, int n, long size) {
        return of(new Collective(op, a, range(n), size));
    }

    static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    List<Send> atStep(int step) {
        return sends.stream().filter(s -> s.step() == step).toList();
    }

    int steps() {
        return sends.stream().mapToInt(Send::step).max().orElse(-1) + 1;
    }

    long sentBy(int host) {
        return sends.stream().filter(s -> s.src() == host).mapToLong(Send::bytes).sum();
    }

    long receivedBy(int host) {
        return sends.stream().filter(s -> s.dst() == host).mapToLong(Send::bytes).sum();
    }

    long between(int src, int dst) {
        return sends.stream().filter(s -> s.src() == src && s.dst() == dst).mapToLong(Send::bytes).sum();
    }

    /** Whether task {@code t} waits, directly or not, for task {@code target}. */
    boolean waitsFor(int t, int target) {
        boolean[] seen = new boolean[graph.taskCount()];
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(t));
        while (!todo.isEmpty()) {
            int x = todo.pop();
            if (x == target) {
                return true;
            }
            for (int i = 0; i < graph.dependencyCount(x); i++) {
                int d = graph.dependency(x, i);
                int y = TaskGraph.target(d);
                if (!seen[y]) {
                    seen[y] = true;
                    todo.push(y);
                }
            }
        }
        return false;
    }
}
