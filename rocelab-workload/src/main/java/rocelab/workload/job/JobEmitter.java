package rocelab.workload.job;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.collective.PairSizes;
import rocelab.workload.graph.TaskGraph;

/**
 * Unrolls a job's program into a task graph, rank by rank and step by step in program order. A step of a rank waits
 * for the previous step of its stream on that rank, for the latest earlier instance of each step named in its
 * {@code after}, and for the start of the rank's iteration. Collectives are called once per group; sends and
 * receives between the same two ranks pair up in program order.
 */
public final class JobEmitter {
    private final TaskGraph graph;
    private final JobSpec job;
    private final Layout layout;
    private final int n;
    private final List<Instance> instances = new ArrayList<>();
    /** Every compute task with its rank and iteration, as ints (a large job has millions: no boxing). */
    private final Ints computeTasks = new Ints();
    private final Ints computeRanks = new Ints();
    private final Ints computeIterations = new Ints();
    private final List<String> computeNames = new ArrayList<>();
    private final List<JobTasks.Call> calls = new ArrayList<>();
    private final List<JobTasks.Transfer> transfers = new ArrayList<>();

    /**
     * Which ranks run an instance: its {@code when} for every rank, once per distinct condition text and loop binding
     * (a program of thousands of steps names a handful of conditions). An expression is a pure function of the
     * variables, so a cached answer is the one evaluating again would give; the first instance of a condition
     * evaluates it, so an error is reported for the same step as without the cache.
     */
    private final Map<WhenKey, Active> activeCache = new HashMap<>();
    /** The ranks of an instance without a {@code when}: all of them. */
    private Active everyRank;

    /** The ranks an instance runs on, per rank ({@code of}) and as a list in rank order ({@code ranks}). */
    private record Active(boolean[] of, int[] ranks) {
        static Active of(boolean[] of) {
            int count = 0;
            for (boolean a : of) {
                count += a ? 1 : 0;
            }
            int[] ranks = new int[count];
            int k = 0;
            for (int r = 0; r < of.length; r++) {
                if (of[r]) {
                    ranks[k++] = r;
                }
            }
            return new Active(of, ranks);
        }
    }

    private record WhenKey(String text, Map<String, Long> loop) {}

    /** Index of every step id named in some {@code after} (only those need their latest instance per rank). */
    private final Map<String, Integer> afterIndex = new HashMap<>();
    private final Map<String, Integer> streamIndex = new HashMap<>();

    /** A step with its loop variables bound. */
    private record Instance(Step step, Map<String, Long> loop, String name) {}

    /** One side of a point-to-point transfer waiting for the other. */
    private record Half(boolean send, int rank, int entry, int promise, long bytes, Step.Meta meta, String name) {}

    private JobEmitter(TaskGraph graph, JobSpec job) {
        this.graph = graph;
        this.job = job;
        this.layout = job.layout();
        this.n = layout.size();
    }

    /** Adds every iteration of the job to the graph. */
    public static JobTasks emit(TaskGraph graph, JobSpec job) {
        return new JobEmitter(graph, job).emitAll();
    }

    private JobTasks emitAll() {
        flatten(job.program(), Map.of(), "");
        for (Instance inst : instances) {
            for (String id : inst.step().meta().after()) {
                afterIndex.putIfAbsent(id, afterIndex.size());
            }
            streamIndex.putIfAbsent(inst.step().meta().stream(), streamIndex.size());
        }
        int start = graph.at(job.startPs(), -1);
        int[] previousEnd = new int[n];
        Arrays.fill(previousEnd, start);
        int[][] gates = new int[job.iterations()][];
        int[][] ends = new int[job.iterations()][];
        for (int k = 0; k < job.iterations(); k++) {
            gates[k] = new int[n];
            for (int r = 0; r < n; r++) {
                gates[k][r] = graph.join(layout.host(r), previousEnd[r]);
            }
            ends[k] = iteration(k, gates[k]);
            previousEnd = ends[k];
        }
        return new JobTasks(job, gates, ends, computeTasks.toArray(), computeRanks.toArray(),
                computeIterations.toArray(), computeNames, calls, transfers);
    }

    private void flatten(List<Step> steps, Map<String, Long> loop, String suffix) {
        for (Step s : steps) {
            if (s instanceof Step.Repeat rep) {
                for (int i = 0; i < rep.count(); i++) {
                    Map<String, Long> inner = new HashMap<>(loop);
                    String sfx = suffix;
                    if (rep.variable() != null) {
                        inner.put(rep.variable(), (long) i);
                        sfx = suffix + (suffix.isEmpty() ? "" : ",") + rep.variable() + "=" + i;
                    }
                    flatten(rep.steps(), inner, sfx);
                }
            } else {
                instances.add(new Instance(s, loop, s.meta().id() + (suffix.isEmpty() ? "" : "[" + suffix + "]")));
            }
        }
    }

    private int[] iteration(int k, int[] gate) {
        // Per step id named in an 'after' and per stream, each rank's latest done task (-1: none yet).
        int[][] lastById = new int[afterIndex.size()][];
        int[][] lastInStream = new int[streamIndex.size()][];
        // Per rank, the done task of every instance it ran, in program order (the iteration's end waits for all).
        int[][] allDone = new int[n][];
        int[] allDoneCount = new int[n];
        List<Map<String, Long>> rankVars = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            rankVars.add(layout.variables(r));
        }
        Map<Long, Deque<Half>> pending = new HashMap<>();
        int[] deps = new int[2];
        // One entry and one done array for every instance: an instance writes (and its step reads) only its active
        // ranks' slots, and most instances of a large program run on a fraction of the ranks (one pipeline stage).
        int[] entry = new int[n];
        int[] done = new int[n];
        for (Instance inst : instances) {
            Step step = inst.step();
            Step.Meta meta = step.meta();
            Active active = active(meta, meta.when(), inst.loop(), rankVars);
            boolean[] members = null;
            if (step instanceof Step.Collective c && c.members() != null) {
                // Ranks outside the chosen members skip the step, as if its 'when' failed for them.
                members = active(meta, c.members(), inst.loop(), rankVars).of();
                active = both(active, members);
            }
            int[] ranks = active.ranks();
            int stream = streamIndex.get(meta.stream());
            int[] streamLast = lastInStream[stream];
            List<String> after = meta.after();
            if (deps.length < 2 + after.size()) {
                deps = new int[2 + after.size()];
            }
            int[][] afterLast = new int[after.size()][];
            for (int a = 0; a < after.size(); a++) {
                afterLast[a] = lastById[afterIndex.get(after.get(a))];
            }
            for (int r : ranks) {
                int count = 0;
                deps[count++] = gate[r];
                if (streamLast != null && streamLast[r] >= 0) {
                    deps[count++] = streamLast[r];
                }
                for (int[] last : afterLast) {
                    if (last != null && last[r] >= 0) {
                        deps[count++] = last[r];
                    }
                }
                entry[r] = count == 1 ? deps[0] : graph.join(layout.host(r), Arrays.copyOf(deps, count));
                done[r] = -1;
            }
            if (step instanceof Step.Compute c) {
                for (int r : ranks) {
                    done[r] = graph.compute(c.durationPs(), layout.host(r), entry[r]);
                    computeTasks.add(done[r]);
                    computeRanks.add(r);
                    computeIterations.add(k);
                    computeNames.add(inst.name());
                }
            } else if (step instanceof Step.Delay d) {
                for (int r : ranks) {
                    done[r] = graph.delay(d.durationPs(), layout.host(r), entry[r]);
                }
            } else if (step instanceof Step.Collective c) {
                collective(c, inst, k, active.of(), members, ranks, entry, done);
            } else if (step instanceof Step.Transfer t) {
                transfer(t, inst, k, rankVars, ranks, entry, done, pending);
            } else {
                throw new IllegalStateException("loops are flattened");
            }
            if (streamLast == null) {
                streamLast = minusOnes(n);
                lastInStream[stream] = streamLast;
            }
            Integer byId = afterIndex.get(meta.id());
            int[] idLast = null;
            if (byId != null) {
                idLast = lastById[byId];
                if (idLast == null) {
                    idLast = minusOnes(n);
                    lastById[byId] = idLast;
                }
            }
            for (int r : ranks) {
                streamLast[r] = done[r];
                if (idLast != null) {
                    idLast[r] = done[r];
                }
                if (allDone[r] == null) {
                    allDone[r] = new int[16];
                } else if (allDoneCount[r] == allDone[r].length) {
                    allDone[r] = Arrays.copyOf(allDone[r], allDoneCount[r] * 2);
                }
                allDone[r][allDoneCount[r]++] = done[r];
            }
        }
        for (Deque<Half> q : pending.values()) {
            if (!q.isEmpty()) {
                Half h = q.peek();
                throw new JobException(h.meta(), "rank " + h.rank() + "'s " + (h.send() ? "send" : "receive")
                        + " in step '" + h.meta().id() + "' has no matching " + (h.send() ? "receive" : "send")
                        + " on its peer; expected a " + (h.send() ? "recv" : "send") + " step on the peer rank");
            }
        }
        int[] end = new int[n];
        for (int r = 0; r < n; r++) {
            int[] d = allDone[r] == null ? new int[1] : Arrays.copyOf(allDone[r], allDoneCount[r] + 1);
            d[d.length - 1] = gate[r];
            end[r] = graph.join(layout.host(r), d);
        }
        return end;
    }

    private static int[] minusOnes(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** The ranks for which a condition of an instance (its {@code when}, or a collective's members) holds. */
    private Active active(Step.Meta meta, Expr condition, Map<String, Long> loop, List<Map<String, Long>> rankVars) {
        if (condition == null) {
            if (everyRank == null) {
                boolean[] all = new boolean[n];
                Arrays.fill(all, true);
                everyRank = Active.of(all);
            }
            return everyRank;
        }
        WhenKey key = new WhenKey(condition.toString(), loop);
        Active cached = activeCache.get(key);
        if (cached == null) {
            boolean[] of = new boolean[n];
            for (int r = 0; r < n; r++) {
                Map<String, Long> v = variables(rankVars, r, loop);
                of[r] = evaluate(meta, () -> condition.eval(v)) != 0;
            }
            cached = Active.of(of);
            activeCache.put(key, cached);
        }
        return cached;
    }

    private static Active both(Active a, boolean[] b) {
        boolean[] of = new boolean[a.of().length];
        for (int r = 0; r < of.length; r++) {
            of[r] = a.of()[r] && b[r];
        }
        return Active.of(of);
    }

    /** Rank r's variables with the loop variables of an instance bound. */
    private static Map<String, Long> variables(List<Map<String, Long>> rankVars, int r, Map<String, Long> loop) {
        if (loop.isEmpty()) {
            return rankVars.get(r);
        }
        Map<String, Long> m = new HashMap<>(rankVars.get(r));
        m.putAll(loop);
        return m;
    }

    private static long evaluate(Step.Meta meta, LongSupplier call) {
        try {
            return call.getAsLong();
        } catch (ArithmeticException | IllegalStateException e) {
            throw new JobException(meta, e.getMessage());
        }
    }

    private void collective(Step.Collective c, Instance inst, int k, boolean[] active, boolean[] chosen, int[] ranks,
            int[] entry, int[] done) {
        String callPrefix = null;
        for (int r : ranks) {
            if (done[r] >= 0) {
                continue;
            }
            int[] members = layout.group(r, c.dims());
            if (chosen != null) {
                members = Arrays.stream(members).filter(q -> chosen[q]).toArray();
            }
            if (members.length < 2 && chosen == null) {
                // Its dimensions have degree 1 (tp 1 in a sweep over tp): a group of one rank has nothing to
                // exchange, as NCCL's one-rank communicator copies locally; the rank goes on at once (the reader
                // notes it).
                done[r] = entry[r];
                continue;
            }
            if (members.length < 2) {
                throw new JobException(c.meta(), "the members of step '" + c.meta().id() + "' leave its group only"
                        + " one rank; expected a group of two or more");
            }
            int[] hosts = new int[members.length];
            int[] entries = new int[members.length];
            for (int i = 0; i < members.length; i++) {
                if (!active[members[i]]) {
                    throw new JobException(c.meta(), "rank " + r + " runs step '" + c.meta().id() + "' but its group"
                            + " member rank " + members[i] + " does not; expected a 'when' that holds for the whole"
                            + " group");
                }
                hosts[i] = layout.host(members[i]);
                entries[i] = entry[members[i]];
            }
            if (c.rootIndex() >= members.length) {
                throw new JobException(c.meta(), "root " + c.rootIndex() + " is outside the group of "
                        + members.length + " ranks");
            }
            long size = c.perRank() ? c.op().totalFromPerRank(c.sizeBytes(), members.length) : c.sizeBytes();
            Collective call;
            if (c.op() == CollectiveOp.ALL_TO_ALLV) {
                // Each rank sends S bytes in all (its own part included), spread over destinations by the skew.
                var pairs = c.skew() == null
                        ? PairSizes.uniform(members.length, size)
                        : PairSizes.zipf(members.length, size, c.skew().zipf(),
                                c.skew().seed());
                call = Collective.allToAllv(c.algorithm(), hosts, pairs, c.channels(), job.dscp())
                        .withQpsPerConnection(c.qpsPerConnection());
            } else {
                call = new Collective(c.op(), c.algorithm(), hosts, size, c.rootIndex(), c.channels(), job.dscp(),
                        c.qpsPerConnection(), null);
            }
            int first = graph.taskCount();
            int[] finished = Collectives.emit(graph, call, entries);
            for (int i = 0; i < members.length; i++) {
                done[members[i]] = finished[i];
            }
            if (callPrefix == null) {
                callPrefix = job.name() + "/" + inst.name() + "/" + groupDims(c);
            }
            calls.add(new JobTasks.Call(callPrefix + groupCoordinates(c, members[0]), call, k, first,
                    graph.taskCount(), entries, finished));
        }
    }

    /** The first part of a call's group name: its dimensions (the same for every group of an instance). */
    private String groupDims(Step.Collective c) {
        String dims = String.join("+", c.dims().stream().filter(d -> layout.degree(d) > 1).map(Dim::key).toList());
        return c.dims().size() == Dim.values().length ? "world" : dims;
    }

    /** The rest of a call's group name: the coordinates its members share, e.g. "(dp=3,pp=0)", or nothing. */
    private String groupCoordinates(Step.Collective c, int firstMember) {
        StringBuilder b = new StringBuilder();
        for (Dim d : Dim.values()) {
            if (!c.dims().contains(d) && layout.degree(d) > 1) {
                b.append(b.length() == 0 ? "" : ",").append(d.key()).append('=').append(layout.coord(firstMember, d));
            }
        }
        return b.length() == 0 ? "" : "(" + b + ")";
    }

    private void transfer(Step.Transfer t, Instance inst, int k, List<Map<String, Long>> rankVars, int[] ranks,
            int[] entry, int[] done, Map<Long, Deque<Half>> pending) {
        for (int r : ranks) {
            EnumMap<Dim, Integer> coords = new EnumMap<>(layout.coords(r));
            Map<String, Long> rv = variables(rankVars, r, inst.loop());
            for (Map.Entry<Dim, Expr> e : t.peer().entrySet()) {
                long v = evaluate(t.meta(), () -> e.getValue().eval(rv));
                int deg = layout.degree(e.getKey());
                if (v < 0 || v >= deg) {
                    throw new JobException(t.meta(), "rank " + r + "'s peer has " + e.getKey().key() + " = " + v
                            + ", outside 0.." + (deg - 1) + "; expected a 'when' that keeps the peer inside the job");
                }
                coords.put(e.getKey(), (int) v);
            }
            int q = layout.rank(coords);
            if (q == r) {
                throw new JobException(t.meta(), "rank " + r + " would " + (t.send() ? "send to" : "receive from")
                        + " itself; expected a peer that differs in at least one coordinate");
            }
            int src = t.send() ? r : q;
            int dst = t.send() ? q : r;
            Deque<Half> queue = pending.computeIfAbsent((long) src * n + dst, x -> new ArrayDeque<>());
            if (!queue.isEmpty() && queue.peek().send() != t.send()) {
                Half other = queue.poll();
                Half send = t.send() ? new Half(true, r, entry[r], -1, t.sizeBytes(), t.meta(), inst.name()) : other;
                Half recv = t.send() ? other : new Half(false, r, entry[r], -1, t.sizeBytes(), t.meta(), inst.name());
                if (send.bytes() <= 0) {
                    throw new JobException(send.meta(), "the send of step '" + send.meta().id() + "' has no size");
                }
                int flow = graph.flow(layout.host(src), layout.host(dst), send.bytes(), job.dscp(), -1, 0,
                        send.entry(), recv.entry());
                graph.fulfil(other.promise(), other.send() ? TaskGraph.acked(flow) : flow);
                transfers.add(new JobTasks.Transfer(job.name() + "/" + send.name(), job.name() + "/" + recv.name(), k,
                        src, dst, send.bytes(), send.entry(), recv.entry(), flow));
                done[r] = t.send() ? graph.join(layout.host(r), TaskGraph.acked(flow)) : flow;
            } else {
                int promise = graph.promise(layout.host(r));
                queue.add(new Half(t.send(), r, entry[r], promise, t.sizeBytes(), t.meta(), inst.name()));
                done[r] = promise;
            }
        }
    }

    /** A growing list of ints. */
    private static final class Ints {
        private int[] values = new int[64];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
