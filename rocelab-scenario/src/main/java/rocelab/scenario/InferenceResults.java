package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.observe.inference.ServiceRecord;
import rocelab.observe.trace.GpuTimeline;
import rocelab.workload.flow.IdealBound;
import rocelab.workload.flow.IdealSpans;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.TaskTimes;
import rocelab.workload.inference.InferenceTasks;
import rocelab.workload.inference.ServingInstance;

/**
 * The user's view of the inference services of a run: per request and per LLM call, the milestones of the
 * packet-level run, and the end-to-end latency of the same graph in ideal-network mode (same static schedule,
 * closed-form transfers), whose difference is the request's network wait.
 */
final class InferenceResults {
    private final List<InferenceTasks> services;
    private final TaskTimes real;
    private final IdealBound ideal;
    /** What else of the workload ran on the services' hosts (null: not known, as in the ideal model). */
    private final BesideIndex beside;
    /** The index among {@link BesideIndex}'s parts of the first service (the others follow in order). */
    private final int firstPart;
    /** The run's end, to which a request still under way is counted. */
    private final long endPs;

    InferenceResults(List<InferenceTasks> services, TaskTimes real, IdealBound ideal) {
        this(services, real, ideal, null, -1, -1);
    }

    /**
     * With {@code beside} (null: none) for what else of the workload had flows on the services' hosts, the services
     * being its parts from {@code firstPart} on, and the run's end {@code endPs}.
     */
    InferenceResults(List<InferenceTasks> services, TaskTimes real, IdealBound ideal, BesideIndex beside,
            int firstPart, long endPs) {
        this.services = services;
        this.real = real;
        this.ideal = ideal;
        this.beside = beside;
        this.firstPart = firstPart;
        this.endPs = endPs;
    }

    /**
     * Each service, with no request too: its span (first arrival to the last request's end, or the run's end when
     * one did not end) and the workload's other items with flows on the hosts of its requests' flows within it.
     */
    List<ServiceRecord> serviceRecords() {
        List<ServiceRecord> out = new ArrayList<>();
        for (int i = 0; i < services.size(); i++) {
            InferenceTasks s = services.get(i);
            if (s.requests().isEmpty()) {
                out.add(new ServiceRecord(s.spec().name(), -1, -1));
                continue;
            }
            long from = Long.MAX_VALUE;
            long to = 0;
            TreeSet<Integer> hosts = new TreeSet<>();
            for (InferenceTasks.Request r : s.requests()) {
                from = Math.min(from, r.arrivalPs());
                to = Math.max(to, spanEnd(r));
                for (int h : r.hosts()) {
                    hosts.add(h);
                }
            }
            out.add(new ServiceRecord(s.spec().name(), from, to, besideOf(i, hosts.stream().mapToInt(Integer::intValue)
                    .toArray(), from, to)));
        }
        return out;
    }

    /** A request's end in the run, or the run's end when it did not end. */
    private long spanEnd(InferenceTasks.Request r) {
        long e = end(real, r.endTask());
        return e >= 0 ? e : Math.max(endPs, r.arrivalPs());
    }

    private CollectiveRecord.Beside besideOf(int service, int[] hosts, long fromPs, long toPs) {
        return beside == null || hosts.length == 0 ? CollectiveRecord.Beside.NONE
                : beside.of(firstPart + service, hosts, fromPs, toPs);
    }

    List<RequestRecord> requests() {
        List<RequestRecord> out = new ArrayList<>();
        for (int i = 0; i < services.size(); i++) {
            InferenceTasks s = services.get(i);
            List<ServingInstance> decode = s.spec().decode();
            for (InferenceTasks.Request r : s.requests()) {
                long prefilled = 0;
                long output = 0;
                long decodeTime = 0;
                long tokensAfterFirst = 0;
                boolean all = true;
                for (InferenceTasks.Call c : r.calls()) {
                    prefilled += c.prefillTokens();
                    output += c.outputTokens();
                    long first = end(real, c.firstTokenTask());
                    long last = end(real, c.lastTokenTask());
                    all &= first >= 0 && last >= 0;
                    decodeTime += last - first;
                    tokensAfterFirst += c.outputTokens() - 1;
                }
                long firstToken = end(real, r.calls().get(0).firstTokenTask());
                // The bound of the request's end: its own tasks' bounds and the work of its transfers' ports.
                long idealEnd = ideal.lastEndPs(new int[] {r.endTask()}, new int[0], r.arrivalTask());
                out.add(new RequestRecord(s.spec().name(), r.index(), r.arrivalPs(), r.calls().size(), prefilled,
                        output, decode.get(r.decodeInstance()).name(),
                        real == ideal ? idealEnd : end(real, r.endTask()),
                        idealEnd, firstToken < 0 ? -1 : firstToken - r.arrivalPs(),
                        all && tokensAfterFirst > 0 ? (double) decodeTime / tokensAfterFirst : Double.NaN,
                        besideOf(i, r.hosts(), r.arrivalPs(), spanEnd(r))));
            }
        }
        return out;
    }

    List<CallRecord> calls() {
        List<CallRecord> out = new ArrayList<>();
        long[] idealTtft = idealTtfts();
        int n = 0;
        for (InferenceTasks s : services) {
            List<ServingInstance> prefill = s.spec().prefill();
            List<ServingInstance> decode = s.spec().decode();
            for (InferenceTasks.Request r : s.requests()) {
                for (int k = 0; k < r.calls().size(); k++) {
                    InferenceTasks.Call c = r.calls().get(k);
                    long kvDone = JobResults.latest(real, c.kvTasks());
                    out.add(new CallRecord(s.spec().name(), r.index(), k, prefill.get(c.prefillInstance()).name(),
                            decode.get(c.decodeInstance()).name(), c.slot(), c.prefillTokens(), c.outputTokens(),
                            c.kvBytes(), end(real, c.readyTask()), end(real, c.prefillStartTask()),
                            end(real, c.prefillEndTask()), kvDone, end(real, c.decodeStartTask()),
                            end(real, c.firstTokenTask()),
                            end(real, c.lastTokenTask()), idealTtft[n++]));
                }
            }
        }
        return out;
    }

    /**
     * Per LLM call, in the order of {@link #calls}, the ideal network's bound of its TTFT: the least time from its
     * prompt at the prefill instance to its first token, the call alone ({@link IdealSpans}: its prefill, AllReduces,
     * KV slices and first decode step, nothing queued ahead of it on the instance or the decode slot). A lower bound
     * of the call's TTFT in every run, whenever its prompt came; -1 for all without an ideal bound.
     */
    private long[] idealTtfts() {
        int calls = 0;
        for (InferenceTasks s : services) {
            for (InferenceTasks.Request r : s.requests()) {
                calls += r.calls().size();
            }
        }
        int[] ready = new int[calls];
        int[] first = new int[calls];
        int n = 0;
        for (InferenceTasks s : services) {
            for (InferenceTasks.Request r : s.requests()) {
                for (InferenceTasks.Call c : r.calls()) {
                    ready[n] = c.readyTask();
                    first[n++] = c.firstTokenTask();
                }
            }
        }
        if (ideal == null) {
            long[] none = new long[calls];
            Arrays.fill(none, -1);
            return none;
        }
        return IdealSpans.of(ideal, ready, first);
    }

    /**
     * The services' GPUs in timeline.json: per LLM call its prefill on every GPU of the prefill instance, the
     * KV-cache transfer of each TP rank (send on the prefill GPU, receive on the decode GPU, joined by an arrow) and
     * its decode (its first decode step's start to its last token) on every GPU of the decode instance. The wait for
     * the decode slot (KV cache in to decode start) is not drawn: the GPU is busy with the calls ahead of it, or idle.
     * Calls batched together overlap and take lanes of their own.
     */
    void timeline(GpuTimeline out) {
        var g = real.graph();
        for (InferenceTasks s : services) {
            for (ServingInstance inst : s.spec().prefill()) {
                for (int h : inst.hosts()) {
                    out.gpu(g.serverOf(h), h, "gpu " + h + " (" + s.spec().name() + " " + inst.name() + ")");
                }
            }
            for (ServingInstance inst : s.spec().decode()) {
                for (int h : inst.hosts()) {
                    out.gpu(g.serverOf(h), h, "gpu " + h + " (" + s.spec().name() + " " + inst.name() + ")");
                }
            }
            for (InferenceTasks.Request r : s.requests()) {
                for (int k = 0; k < r.calls().size(); k++) {
                    InferenceTasks.Call c = r.calls().get(k);
                    String call = "request " + r.index() + " call " + k;
                    long pStart = end(real, c.prefillStartTask());
                    long pEnd = end(real, c.prefillEndTask());
                    if (pStart >= 0 && pEnd >= 0) {
                        for (int h : s.spec().prefill().get(c.prefillInstance()).hosts()) {
                            out.compute(h, "prefill " + call, pStart, pEnd, GpuTimeline.args("service",
                                    s.spec().name(), "request", r.index(), "call", k, "tokens", c.prefillTokens()));
                        }
                    }
                    for (int kv : c.kvTasks()) {
                        long delivered = end(real, kv);
                        long posted = real.taskStartPs(kv);
                        if (pEnd < 0 || delivered < 0 || posted < 0) {
                            continue;
                        }
                        int src;
                        int dst;
                        long sent = delivered;
                        if (g.kind(kv) == TaskGraph.Kind.FLOW) {
                            var f = g.flows().get(g.flowIndex(kv));
                            src = f.src();
                            dst = f.dst();
                            sent = Math.max(real.completedPs(g.flowIndex(kv)), posted);
                        } else {
                            src = g.owner(kv);
                            dst = g.nvlinkDestination(kv);
                        }
                        var args = GpuTimeline.args("service", s.spec().name(), "request", r.index(),
                                "call", k);
                        int from = out.comm(src, "kv", "kv cache send " + call, posted, sent, args);
                        int to = out.comm(dst, "kv", "kv cache recv " + call, posted, delivered, args);
                        out.arrow("kv cache " + call, from, to);
                    }
                    long decodeStart = end(real, c.decodeStartTask());
                    long last = end(real, c.lastTokenTask());
                    if (decodeStart >= 0 && last >= 0) {
                        for (int h : s.spec().decode().get(c.decodeInstance()).hosts()) {
                            out.compute(h, "decode " + call, decodeStart, last, GpuTimeline.args("service",
                                    s.spec().name(), "request", r.index(), "call", k, "tokens", c.outputTokens()));
                        }
                    }
                }
            }
        }
    }

    /** When a task ended in a run, or -1 (not reached, or no such run). */
    private static long end(TaskTimes d, int task) {
        return d == null || task < 0 ? -1 : d.taskEndPs(task);
    }
}
