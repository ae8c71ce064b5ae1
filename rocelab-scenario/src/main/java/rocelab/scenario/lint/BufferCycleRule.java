package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * L14: cyclic buffer dependency. A lossless egress queue waits on the next switch's ingress buffer (that switch
 * pauses it), which drains only through that switch's egress queue: an edge of the buffer-dependency graph. Over
 * all paths of data and ACKs (every ECMP branch, before and after each link event) a cycle of lossless queues can
 * deadlock: every queue of the cycle paused by the next, forever (Hu et al., HotNets 2016; Guo et al., SIGCOMM
 * 2016). A path that visits a switch twice is flagged too. On InfiniBand every data lane is lossless by credits: a
 * lane's queue waits for the next switch's input buffer of that lane, and a cycle of them is a credit loop, which
 * deadlocks the same way (the reason subnet managers route up/down (Up*-Down*) or give each layer of a route its own lane).
 */
final class BufferCycleRule implements LintRule {
    private static final int MAX_CYCLES = 5;

    @Override
    public String id() {
        return "L14";
    }

    @Override
    public String title() {
        return "Cyclic buffer dependency (deadlock possible: PFC, or credits on InfiniBand)";
    }

    @Override
    public void check(LintContext c, Findings out) {
        boolean ib = c.infiniband();
        if (!c.lossless() && !ib) {
            return;
        }
        Map<Queues.Queue, Set<Queues.Queue>> graph = new LinkedHashMap<>();
        List<LintContext.Path> paths = new ArrayList<>(c.dataPaths());
        paths.addAll(c.ackPaths());
        boolean[] seen = new boolean[c.topology().switchCount()];
        for (LintContext.Path p : paths) {
            Queues.Queue before = null;
            for (LintContext.Hop h : p.hops()) {
                if (seen[h.switchIndex()]) {
                    out.add(this, Severity.ERROR, List.of(c.name(h.node())), List.of(), "a path from h" + p.src()
                            + " to h" + p.dst() + " passes " + c.name(h.node()) + " twice in the same lossless "
                            + (ib ? "lane" : "class"), ib ? "the lane can wait for its own credits around the loop:"
                            + " deadlock" : "the class can pause itself around the loop: deadlock",
                            "routes without loops");
                }
                seen[h.switchIndex()] = true;
                int tc = c.switchAt(h.switchIndex()).trafficClass(p.dscp());
                Queues.Queue q = ib ? new Queues.Queue(h.switchIndex(), h.node(), h.outPort(), c.lane(tc))
                        : c.switchAt(h.switchIndex()).pfc().isLossless(tc)
                                ? new Queues.Queue(h.switchIndex(), h.node(), h.outPort(), tc) : null;
                if (before != null && q != null) {
                    graph.computeIfAbsent(before, k -> new LinkedHashSet<>()).add(q);
                }
                before = q;
            }
            for (LintContext.Hop h : p.hops()) {
                seen[h.switchIndex()] = false;
            }
        }
        int reported = 0;
        for (List<Queues.Queue> cycle : cycles(graph)) {
            if (reported++ == MAX_CYCLES) {
                break;
            }
            List<String> devices = new ArrayList<>();
            List<String> ports = new ArrayList<>();
            for (Queues.Queue q : cycle) {
                devices.add(c.name(q.node()));
                ports.add(c.port(q.node(), q.port()) + (ib ? " VL " : " class ") + q.tc());
            }
            if (ib) {
                out.add(this, Severity.ERROR, devices, ports, "the lanes " + String.join(" -> ", devices) + " -> "
                        + devices.get(0) + " form a cycle of buffer dependencies (a credit loop)",
                        "once every input buffer of the cycle fills, each lane waits for credits from the next and none"
                                + " drains: a credit deadlock (PortXmitWait grows, throughput 0 on the lane for good;"
                                + " rocelab run ends with stop_reason deadlock)",
                        "break the cycle: routing without up-down-up paths (a tree or Clos with shortest paths, as an"
                                + " up*/down* subnet manager routes)");
                continue;
            }
            // A PFC watchdog on a switch of the cycle ends each deadlock after its detection time (the run goes on
            // through it), at the cost of the stuck queue's packets; without one nothing ends it.
            List<String> watched = new ArrayList<>();
            for (Queues.Queue q : cycle) {
                var wd = c.switchAt(q.switchIndex()).pfc().watchdog();
                if (wd.enabled() && !watched.contains(c.name(q.node()))) {
                    watched.add(c.name(q.node()));
                }
            }
            out.add(this, Severity.ERROR, devices, ports, "the lossless queues " + String.join(" -> ", devices)
                    + " -> " + devices.get(0) + " form a cycle of buffer dependencies",
                    watched.isEmpty() ? "once every queue of the cycle fills, each is paused by the next and none"
                            + " drains: a PFC deadlock (throughput 0 on the class for good; rocelab run ends with"
                            + " stop_reason deadlock)"
                            : "once every queue of the cycle fills, each is paused by the next and none drains: a PFC"
                            + " deadlock, which the PFC watchdog of " + String.join(", ", watched) + " ends after its"
                            + " detection time by ignoring the pause on a stuck queue (dropping or forwarding its"
                            + " packets); throughput is 0 on the class until then, and the cycle can close again once"
                            + " the watchdog restores PFC",
                    watched.isEmpty() ? "break the cycle: routing without up-down-up paths (a tree or Clos with"
                            + " shortest paths), a lossy class for the traffic that closes it, or a watchdog to recover"
                            : "break the cycle: routing without up-down-up paths (a tree or Clos with shortest paths),"
                            + " or a lossy class for the traffic that closes it");
        }
    }

    /** Simple cycles found by depth-first search, one per back edge, each rotated to start at its first queue. */
    private static List<List<Queues.Queue>> cycles(Map<Queues.Queue, Set<Queues.Queue>> graph) {
        List<List<Queues.Queue>> found = new ArrayList<>();
        Set<List<Queues.Queue>> distinct = new LinkedHashSet<>();
        Map<Queues.Queue, Integer> state = new HashMap<>();
        for (Queues.Queue start : graph.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            List<Queues.Queue> stack = new ArrayList<>();
            dfs(start, graph, state, stack, distinct);
        }
        found.addAll(distinct);
        return found;
    }

    private static void dfs(Queues.Queue q, Map<Queues.Queue, Set<Queues.Queue>> graph,
            Map<Queues.Queue, Integer> state, List<Queues.Queue> stack, Set<List<Queues.Queue>> out) {
        state.put(q, 1);
        stack.add(q);
        for (Queues.Queue next : graph.getOrDefault(q, Set.of())) {
            Integer s = state.get(next);
            if (s == null) {
                dfs(next, graph, state, stack, out);
            } else if (s == 1) {
                out.add(new ArrayList<>(stack.subList(stack.indexOf(next), stack.size())));
            }
        }
        stack.remove(stack.size() - 1);
        state.put(q, 2);
    }
}
