package rocelab.workload.inference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeSet;
import rocelab.workload.collective.Algorithm;
import rocelab.workload.collective.Collective;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;
import rocelab.workload.graph.TaskGraph;

/**
 * Expands a service's requests into a task graph. The graph is built before the run, so the scheduler decides
 * before the run too, from nominal times: a sweep over the cost model alone (no network, no transfers) takes the LLM
 * calls in the order they would become ready, first come first served, and fixes for each call its prefill instance
 * and its decode slot. In the run each prefill instance then serves its calls in that order, one at a time, and each
 * decode slot generates for its calls in that order; a call that is later than its nominal time (because the network
 * slowed it) makes the calls queued behind it wait, as a FCFS queue would.
 *
 * <p>One call: its prompt is prefilled on every TP rank of the prefill instance ({@code allreducesPerPass} times:
 * compute a share of the pass, then a ring AllReduce of that share's activations, tokens x hidden x dtype bytes per
 * layer AllReduce); each rank then sends its slice of the new tokens' KV cache to the same rank of the decode
 * instance (rail to rail); once every slice is there and the slot is free, the decode instance runs one decode step
 * per output token (compute, then AllReduces of one token's activations).
 */
public final class InferenceEmitter {
    private final TaskGraph graph;
    private final InferenceSpec spec;
    private final List<ServingInstance> prefill;
    private final List<ServingInstance> decode;
    private final int tp;
    private final int parts;

    private InferenceEmitter(TaskGraph graph, InferenceSpec spec) {
        this.graph = graph;
        this.spec = spec;
        this.prefill = spec.prefill();
        this.decode = spec.decode();
        this.tp = spec.tp();
        this.parts = spec.allreducesPerPass();
    }

    /** Adds every request of the service to the graph; {@code random} draws Poisson arrivals. */
    public static InferenceTasks emit(TaskGraph graph, InferenceSpec spec, SplittableRandom random) {
        return new InferenceEmitter(graph, spec).emitAll(spec.arrivals().draw(random));
    }

    /** A request's progress through the sweep. */
    private static final class State {
        final int index;
        final Arrivals.Arrival arrival;
        final RequestTemplate template;
        final List<Integer> llmSteps = new ArrayList<>();
        int decodeInstance = -1;
        int arrivalTask;
        int cur = -1;
        int curHost = -1;
        final List<InferenceTasks.Call> calls = new ArrayList<>();
        int endTask = -1;
        /** The hosts of the request's flows: what its own tasks' flows leave from or arrive at. */
        final TreeSet<Integer> hosts = new TreeSet<>();

        State(int index, Arrivals.Arrival arrival, RequestTemplate template) {
            this.index = index;
            this.arrival = arrival;
            this.template = template;
            for (int i = 0; i < template.steps().size(); i++) {
                if (template.steps().get(i) instanceof RequestTemplate.LlmCall) {
                    llmSteps.add(i);
                }
            }
        }
    }

    /** The next LLM call of a request, at its nominal ready time. */
    private record Due(long nominalPs, int request, int call) {}

    private InferenceTasks emitAll(List<Arrivals.Arrival> arrivals) {
        List<State> states = new ArrayList<>();
        PriorityQueue<Due> due = new PriorityQueue<>((a, b) -> a.nominalPs() != b.nominalPs()
                ? Long.compare(a.nominalPs(), b.nominalPs())
                : a.request() != b.request() ? Integer.compare(a.request(), b.request())
                : Integer.compare(a.call(), b.call()));
        for (int i = 0; i < arrivals.size(); i++) {
            Arrivals.Arrival a = arrivals.get(i);
            RequestTemplate t = a.promptTokens() >= 0 ? spec.request().withFirstCall(a.promptTokens(),
                    a.outputTokens()) : spec.request();
            State s = new State(i, a, t);
            states.add(s);
            due.add(new Due(a.atPs() + toolLatency(t, 0, s.llmSteps.get(0)), i, 0));
        }
        long[] prefillFree = new long[prefill.size()];
        long[][] slotFree = new long[decode.size()][spec.maxBatch()];
        int[] slotTail = new int[decode.size() * spec.maxBatch()];
        Arrays.fill(slotTail, -1);
        int[][] prefillTail = new int[prefill.size()][];
        int nextPrefill = 0;
        int nextDecode = 0;
        while (!due.isEmpty()) {
            Due d = due.poll();
            State s = states.get(d.request());
            RequestTemplate.LlmCall call = (RequestTemplate.LlmCall) s.template.steps().get(s.llmSteps.get(d.call()));
            int p;
            if (spec.placement() == InferenceSpec.Placement.ROUND_ROBIN) {
                p = nextPrefill++ % prefill.size();
            } else {
                p = argMin(prefillFree);
            }
            if (s.decodeInstance < 0) {
                s.decodeInstance = spec.placement() == InferenceSpec.Placement.ROUND_ROBIN
                        ? nextDecode++ % decode.size() : leastLoaded(slotFree, d.nominalPs());
            }
            int di = s.decodeInstance;
            int slot = argMin(slotFree[di]);
            long prefillEnd = Math.max(d.nominalPs(), prefillFree[p]) + call.newTokens() * spec.cost().prefillPerTokenPs();
            prefillFree[p] = prefillEnd;
            long decodeEnd = Math.max(prefillEnd, slotFree[di][slot])
                    + (long) call.outputTokens() * spec.cost().decodeStepPs();
            slotFree[di][slot] = decodeEnd;

            int slotKey = di * spec.maxBatch() + slot;
            emitCall(s, d.call(), call, p, di, slot, prefillTail, slotTail, slotKey);

            if (d.call() + 1 < s.llmSteps.size()) {
                int from = s.llmSteps.get(d.call()) + 1;
                int to = s.llmSteps.get(d.call() + 1);
                due.add(new Due(decodeEnd + toolLatency(s.template, from, to), s.index, d.call() + 1));
            }
        }
        List<InferenceTasks.Request> out = new ArrayList<>();
        for (State s : states) {
            out.add(new InferenceTasks.Request(s.index, s.arrival.atPs(), s.arrivalTask, s.endTask, s.decodeInstance,
                    s.calls, s.hosts.stream().mapToInt(Integer::intValue).toArray()));
        }
        return new InferenceTasks(spec, out);
    }

    private static long toolLatency(RequestTemplate t, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            if (t.steps().get(i) instanceof RequestTemplate.ToolCall tool) {
                sum += tool.latencyPs();
            }
        }
        return sum;
    }

    private static int argMin(long[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] < v[best]) {
                best = i;
            }
        }
        return best;
    }

    /** The decode instance with the least nominal decode work still ahead of it at {@code nowPs}. */
    private static int leastLoaded(long[][] slotFree, long nowPs) {
        int best = 0;
        long bestBacklog = Long.MAX_VALUE;
        for (int i = 0; i < slotFree.length; i++) {
            long backlog = 0;
            for (long free : slotFree[i]) {
                backlog += Math.max(0, free - nowPs);
            }
            if (backlog < bestBacklog) {
                best = i;
                bestBacklog = backlog;
            }
        }
        return best;
    }

    private void emitCall(State s, int k, RequestTemplate.LlmCall call, int p, int di, int slot, int[][] prefillTail,
            int[] slotTail, int slotKey) {
        ServingInstance pre = prefill.get(p);
        ServingInstance dec = decode.get(di);
        List<RequestTemplate.Step> steps = s.template.steps();
        // Every task added from here to the end of this method is the request's own: its flows' hosts are its hosts.
        int firstTask = graph.taskCount();
        int from;
        if (k == 0) {
            s.arrivalTask = graph.at(s.arrival.atPs(), -1);
            s.cur = s.arrivalTask;
            s.curHost = pre.host(0);
            if (s.template.ingressBytes() > 0) {
                s.cur = graph.flow(spec.gateway(), pre.host(0), s.template.ingressBytes(), spec.dscp(), -1, 0, s.cur);
            }
            from = 0;
        } else {
            from = s.llmSteps.get(k - 1) + 1;
        }
        tools(s, from, s.llmSteps.get(k), pre.host(0));
        int ready = s.cur;

        // Prefill: the instance takes the call once the previous one it served is done.
        int[] entry = new int[tp];
        for (int r = 0; r < tp; r++) {
            entry[r] = prefillTail[p] == null ? ready : graph.join(pre.host(r), ready, prefillTail[p][r]);
        }
        int prefillStart = tp == 1 ? entry[0] : graph.join(pre.host(0), entry);
        long computePs = call.newTokens() * spec.cost().prefillPerTokenPs();
        long arBytes = 2L * spec.model().layers() * spec.model().activationBytes(call.newTokens());
        int[] prefillDone = pass(pre, entry, computePs, arBytes, expertBytes(call.newTokens()));
        prefillTail[p] = prefillDone;
        int prefillEnd = tp == 1 ? prefillDone[0] : graph.join(pre.host(0), prefillDone);

        // KV cache: rank r of the prefill instance to rank r of the decode instance. KV heads are sharded over the
        // ranks; with more ranks than KV heads each head is replicated (as vLLM does), and every copy moves.
        long kvBytes = Math.multiplyExact(call.newTokens(), spec.model().kvBytesPerToken());
        int shards = Math.min(tp, spec.model().kvHeads());
        int[] kv = new int[tp];
        for (int r = 0; r < tp; r++) {
            kv[r] = graph.flow(pre.host(r), dec.host(r), Math.max(1, Collective.part(kvBytes, shards, r % shards)),
                    spec.dscp(), -1, 0, prefillDone[r]);
        }
        int[] waits = Arrays.copyOf(kv, tp + 1);
        waits[tp] = slotTail[slotKey];
        int decodeStart = graph.join(dec.host(0), waits);
        int[] prev = new int[tp];
        Arrays.fill(prev, decodeStart);
        long stepBytes = 2L * spec.model().layers() * spec.model().activationBytes(1);
        int first = -1;
        int last = -1;
        for (int t = 0; t < call.outputTokens(); t++) {
            prev = pass(dec, prev, spec.cost().decodeStepPs(), stepBytes, expertBytes(1));
            if (t == 0 || t == call.outputTokens() - 1) {
                int j = tp == 1 ? prev[0] : graph.join(dec.host(0), prev);
                if (t == 0) {
                    first = j;
                }
                last = j;
            }
        }
        slotTail[slotKey] = last;
        s.cur = last;
        s.curHost = dec.host(0);
        s.calls.add(new InferenceTasks.Call(ready, prefillStart, prefillEnd, kv, decodeStart, first, last, p, di, slot,
                call.newTokens(), call.outputTokens(), kvBytes));
        if (k == s.llmSteps.size() - 1) {
            tools(s, s.llmSteps.get(k) + 1, steps.size(), s.curHost);
            if (s.template.egressBytes() > 0) {
                s.cur = graph.flow(s.curHost, spec.gateway(), s.template.egressBytes(), spec.dscp(), -1, 0, s.cur);
            }
            s.endTask = s.cur;
        }
        for (int t = firstTask; t < graph.taskCount(); t++) {
            int f = graph.flowIndex(t);
            if (f >= 0) {
                s.hosts.add(graph.flowSource(f));
                s.hosts.add(graph.flowDestination(f));
            }
        }
    }

    /** Tool calls from step {@code from} up to {@code to}: out to the gateway, the tool's time, back to {@code next}. */
    private void tools(State s, int from, int to, int next) {
        for (int i = from; i < to; i++) {
            if (s.template.steps().get(i) instanceof RequestTemplate.ToolCall tool) {
                if (tool.egressBytes() > 0) {
                    s.cur = graph.flow(s.curHost, spec.gateway(), tool.egressBytes(), spec.dscp(), -1, 0, s.cur);
                }
                s.cur = graph.delay(tool.latencyPs(), -1, s.cur);
                if (tool.ingressBytes() > 0) {
                    s.cur = graph.flow(spec.gateway(), next, tool.ingressBytes(), spec.dscp(), -1, 0, s.cur);
                }
                s.curHost = next;
            }
        }
    }

    /** Bytes each rank sends in a pass's expert AlltoAlls (dispatch and combine of every layer); 0 for a dense model. */
    private long expertBytes(long tokens) {
        if (!spec.model().moe() || tp == 1) {
            return 0;
        }
        return Math.multiplyExact(2L * spec.model().layers(), spec.model().expertDispatchBytes(tokens, tp));
    }

    /**
     * One forward pass on every rank of an instance: {@code parts} times a share of the compute, then (with TP) a
     * ring AllReduce of that share of the pass's AllReduce bytes and, for a MoE model, an AlltoAll of that share of
     * the expert traffic. Returns each rank's last task.
     */
    private int[] pass(ServingInstance inst, int[] entry, long computePs, long allReduceBytes, long expertBytes) {
        int[] prev = entry.clone();
        for (int j = 0; j < parts; j++) {
            long c = computePs / parts + (j < computePs % parts ? 1 : 0);
            for (int r = 0; r < tp; r++) {
                prev[r] = graph.compute(c, inst.host(r), prev[r]);
            }
            if (tp > 1) {
                long bytes = Math.max(1, Collective.part(allReduceBytes, parts, j));
                prev = Collectives.emit(graph, new Collective(CollectiveOp.ALL_REDUCE, Algorithm.RING, inst.hosts(),
                        bytes, 0, 1, spec.dscp()), prev);
            }
            if (expertBytes > 0) {
                prev = allToAll(inst, prev, Collective.part(expertBytes, parts, j));
            }
        }
        return prev;
    }

    /**
     * Expert-parallel AlltoAll by direct sends: each rank sends 1/tp of {@code perRank} to every other rank (its own
     * share stays on the GPU), each send once both ends have entered. A rank is done when its sends are acknowledged
     * and its receives delivered.
     */
    private int[] allToAll(ServingInstance inst, int[] entry, long perRank) {
        long perPeer = Math.max(1, perRank / tp);
        int[][] sentBy = new int[tp][tp - 1];
        int[][] receivedBy = new int[tp][tp - 1];
        int[] fill = new int[tp];
        int[] got = new int[tp];
        for (int i = 0; i < tp; i++) {
            for (int k = 1; k < tp; k++) {
                int j = (i + k) % tp;
                int f = graph.flow(inst.host(i), inst.host(j), perPeer, spec.dscp(), -1, 0, entry[i], entry[j]);
                sentBy[i][fill[i]++] = TaskGraph.acked(f);
                receivedBy[j][got[j]++] = f;
            }
        }
        int[] done = new int[tp];
        for (int r = 0; r < tp; r++) {
            int[] all = Arrays.copyOf(sentBy[r], 2 * (tp - 1));
            System.arraycopy(receivedBy[r], 0, all, tp - 1, tp - 1);
            done[r] = graph.join(inst.host(r), all);
        }
        return done;
    }
}
