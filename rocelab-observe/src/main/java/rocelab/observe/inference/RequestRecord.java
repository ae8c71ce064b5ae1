package rocelab.observe.inference;

/**
 * One inference request, seen from its user: when it arrived, when its answer was back at the gateway (-1: never),
 * the same on an ideal network, its time to first token (arrival to the first output token of its first LLM call),
 * and its time per output token (decode time of all its calls over the tokens after each call's first).
 */
public record RequestRecord(String service, int request, long arrivalPs, int llmCalls, long prefillTokens,
        long outputTokens, String decodeInstance, long endPs, long idealEndPs, long ttftPs, double tpotPs) {
    public boolean completed() {
        return endPs >= 0;
    }

    /** End-to-end latency: arrival (before ingress) to the answer delivered to the gateway. */
    public long e2ePs() {
        return endPs - arrivalPs;
    }

    public long idealE2ePs() {
        return idealEndPs - arrivalPs;
    }

    /** How much longer the request took than its lower bound on the ideal network (same schedule; IdealBound). */
    public long networkWaitPs() {
        return e2ePs() - idealE2ePs();
    }
}
