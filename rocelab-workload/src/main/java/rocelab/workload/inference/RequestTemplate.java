package rocelab.workload.inference;

import java.util.ArrayList;
import java.util.List;

/**
 * What every request does, in order: {@code ingressBytes} arrive from the gateway, the steps run one after the other
 * (LLM calls and tool calls), and {@code egressBytes} of answer go back to the gateway. A size of 0 skips that
 * transfer.
 */
public record RequestTemplate(long ingressBytes, List<Step> steps, long egressBytes) {
    /** One step of a request. */
    public sealed interface Step permits LlmCall, ToolCall {}

    /**
     * An LLM call. With {@code reuseContext} only {@code newTokens} are prefilled (the earlier context's KV cache is
     * still on the request's decode instance, as with prefix caching); otherwise the whole {@code newTokens}-long
     * prompt is. Either way those tokens' KV cache moves to the decode instance, which then generates
     * {@code outputTokens} tokens.
     */
    public record LlmCall(long newTokens, boolean reuseContext, int outputTokens) implements Step {
        public LlmCall {
            if (newTokens < 1 || outputTokens < 1) {
                throw new IllegalArgumentException("an LLM call needs at least one prompt token and one output token");
            }
        }

        /** The same call with other token counts (a trace row). */
        public LlmCall withTokens(long prompt, int output) {
            return new LlmCall(prompt, reuseContext, output);
        }
    }

    /**
     * A tool call: {@code egressBytes} go from the request's decode instance to the gateway, the tool takes
     * {@code latencyPs}, and {@code ingressBytes} of result come back from the gateway to the instance that runs
     * the next LLM call.
     */
    public record ToolCall(long latencyPs, long egressBytes, long ingressBytes) implements Step {
        public ToolCall {
            if (latencyPs < 0 || egressBytes < 0 || ingressBytes < 0) {
                throw new IllegalArgumentException("tool latency and sizes must not be negative");
            }
        }
    }

    public RequestTemplate {
        steps = List.copyOf(steps);
        if (ingressBytes < 0 || egressBytes < 0) {
            throw new IllegalArgumentException("sizes must not be negative");
        }
        if (steps.stream().noneMatch(s -> s instanceof LlmCall)) {
            throw new IllegalArgumentException("a request needs at least one llm step");
        }
        if (steps.get(0) instanceof LlmCall c && c.reuseContext()) {
            throw new IllegalArgumentException("the first llm step has no context to reuse");
        }
    }

    /** The template with its first LLM call's prompt and output tokens replaced (a trace row). */
    /** Whether a request moves bytes through the gateway: ingress, egress or a tool call's bytes. */
    public boolean northSouth() {
        return ingressBytes > 0 || egressBytes > 0 || steps.stream()
                .anyMatch(s -> s instanceof ToolCall t && (t.egressBytes() > 0 || t.ingressBytes() > 0));
    }

    public RequestTemplate withFirstCall(long promptTokens, int outputTokens) {
        ArrayList<Step> s = new ArrayList<>(steps);
        for (int i = 0; i < s.size(); i++) {
            if (s.get(i) instanceof LlmCall c) {
                s.set(i, c.withTokens(promptTokens, outputTokens));
                break;
            }
        }
        return new RequestTemplate(ingressBytes, s, egressBytes);
    }
}
