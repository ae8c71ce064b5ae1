package rocelab.workload.inference;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A request-driven inference service: a model served by prefill and decode instances (disaggregated serving), a
 * cost model, a static scheduler, request arrivals and what each request does.
 *
 * @param name the service's name in outputs
 * @param model the model's shape (AllReduce and KV-cache sizes)
 * @param instances the instances, prefill and decode, in the order given
 * @param cost GPU time of prefill and decode
 * @param maxBatch requests one decode instance generates for at the same time (its slots)
 * @param placement how calls are spread over instances
 * @param allreducesPerPass TP AllReduces a forward pass is modelled with: 2 x layers is exact (two per layer), fewer
 *     merge consecutive layers' AllReduces into one of their summed size
 * @param arrivals when requests arrive
 * @param request what each request does
 * @param gateway the host north-south traffic enters and leaves through (-1: none, all sizes must be 0)
 * @param dscp DSCP of the service's packets (-1: the RNIC's default)
 */
public record InferenceSpec(String name, ModelShape model, List<ServingInstance> instances, CostModel cost,
        int maxBatch, Placement placement, int allreducesPerPass, Arrivals arrivals, RequestTemplate request,
        int gateway, int dscp) {
    /** How an instance is picked; both decide before the run, from the cost model's nominal times. */
    public enum Placement {
        /** Prefill calls and requests (for decode) take the instances in turn. */
        ROUND_ROBIN("round-robin"),
        /**
         * Prefill: the instance the cost model says frees up first. Decode (chosen per request): the instance with the
         * least nominal decode work still queued on its slots when the request's first call is due.
         */
        LEAST_LOADED("least-loaded");

        private final String key;

        Placement(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    public InferenceSpec {
        instances = List.copyOf(instances);
        if (instances.stream().noneMatch(i -> i.role() == ServingInstance.Role.PREFILL)
                || instances.stream().noneMatch(i -> i.role() == ServingInstance.Role.DECODE)) {
            throw new IllegalArgumentException("a service needs at least one prefill and one decode instance");
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("max-batch must be at least 1");
        }
        if (allreducesPerPass < 1 || allreducesPerPass > 2 * model.layers()) {
            throw new IllegalArgumentException("allreduces-per-pass must be 1.." + 2 * model.layers());
        }
        int tp = instances.get(0).tp();
        for (ServingInstance i : instances) {
            if (i.tp() != tp) {
                throw new IllegalArgumentException("instance " + i.name() + " has tp " + i.tp() + " but "
                        + instances.get(0).name() + " has tp " + tp + "; the KV cache moves rank to rank, so every"
                        + " instance needs the same tp");
            }
        }
        if (!shards(tp, model.kvHeads())) {
            throw new IllegalArgumentException("tp " + tp + " does not shard " + model.kvHeads() + " KV heads evenly");
        }
        Set<Integer> used = new HashSet<>();
        for (ServingInstance i : instances) {
            for (int h : i.hosts()) {
                if (!used.add(h)) {
                    throw new IllegalArgumentException("host " + h + " belongs to two instances");
                }
            }
        }
        if (gateway >= 0 && used.contains(gateway)) {
            throw new IllegalArgumentException("the gateway host " + gateway + " also serves an instance");
        }
        long longest = longestPrompt(request, arrivals);
        if (!fits(model, longest)) {
            throw new IllegalArgumentException("a prompt of " + longest + " tokens makes a KV cache or AllReduce of"
                    + " more than 2^63 bytes");
        }
        long mostOutput = mostOutput(request, arrivals);
        if (!withinLongestCall(longest, cost.prefillPerTokenPs()) || !withinLongestCall(mostOutput,
                cost.decodeStepPs())) {
            throw new IllegalArgumentException("a call's prefill or decode would take longer than 2^61 ps (26 days)");
        }
        if (request.northSouth() && gateway < 0) {
            throw new IllegalArgumentException("requests move bytes through the gateway but no gateway is set");
        }
    }

    /** The most tokens one LLM call prefills: the request's steps' and, for a trace, its rows' prompts. */
    public static long longestPrompt(RequestTemplate request, Arrivals arrivals) {
        long longest = request.steps().stream().filter(x -> x instanceof RequestTemplate.LlmCall)
                .mapToLong(x -> ((RequestTemplate.LlmCall) x).newTokens()).max().orElse(1);
        if (arrivals instanceof Arrivals.Trace t) {
            longest = Math.max(longest, t.requests().stream().mapToLong(Arrivals.Arrival::promptTokens).max()
                    .orElse(1));
        }
        return longest;
    }

    /** The most tokens one LLM call generates: the request's steps' and, for a trace, its rows'. */
    public static long mostOutput(RequestTemplate request, Arrivals arrivals) {
        long most = request.steps().stream().filter(x -> x instanceof RequestTemplate.LlmCall)
                .mapToLong(x -> ((RequestTemplate.LlmCall) x).outputTokens()).max().orElse(1);
        if (arrivals instanceof Arrivals.Trace t) {
            most = Math.max(most, t.requests().stream().mapToLong(Arrivals.Arrival::outputTokens).max().orElse(1));
        }
        return most;
    }

    /** Whether the KV cache and the prefill's AllReduce bytes of a prompt of {@code tokens} fit in 63 bits. */
    public static boolean fits(ModelShape model, long tokens) {
        try {
            Math.multiplyExact(tokens, model.kvBytesPerToken());
            Math.multiplyExact(2L * model.layers(), model.activationBytes(tokens));
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** Whether {@code count} passes of {@code eachPs} (a prefill's tokens, a call's decode steps) take at most 2^61 ps. */
    public static boolean withinLongestCall(long count, long eachPs) {
        return Math.multiplyHigh(count, eachPs) == 0 && count * eachPs >= 0 && count * eachPs <= 1L << 61;
    }

    /** Whether every instance's {@code tp} shards {@code kvHeads} evenly: a multiple of it, or a divisor. */
    public static boolean shards(int tp, int kvHeads) {
        return kvHeads % tp == 0 || tp % kvHeads == 0;
    }

    public List<ServingInstance> prefill() {
        return instances.stream().filter(i -> i.role() == ServingInstance.Role.PREFILL).toList();
    }

    public List<ServingInstance> decode() {
        return instances.stream().filter(i -> i.role() == ServingInstance.Role.DECODE).toList();
    }

    public int tp() {
        return instances.get(0).tp();
    }
}
