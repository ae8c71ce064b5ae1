package rocelab.observe.inference;

/**
 * One LLM call of a request: where it ran, its sizes, and its milestones (-1 when not reached): ready (its prompt
 * at the prefill instance), prefill start and end, KV cache at the decode instance, decode start (its first decode
 * step began: KV cache in and its decode slot free), first and last output token.
 */
public record CallRecord(String service, int request, int call, String prefillInstance, String decodeInstance,
        int slot, long prefillTokens, int outputTokens, long kvBytes, long readyPs, long prefillStartPs,
        long prefillEndPs, long kvDonePs, long decodeStartPs, long firstTokenPs, long lastTokenPs, long idealTtftPs) {
    public boolean completed() {
        return lastTokenPs >= 0;
    }

    /** Time to first token of this call: ready to first output token. */
    public long ttftPs() {
        return firstTokenPs - readyPs;
    }

    /** Time per output token after the first, or NaN for a one-token answer. */
    public double tpotPs() {
        return outputTokens > 1 ? (double) (lastTokenPs - firstTokenPs) / (outputTokens - 1) : Double.NaN;
    }

    /** Waiting for the prefill instance: ready to prefill start. */
    public long queuePs() {
        return prefillStartPs - readyPs;
    }

    /**
     * Waiting for the decode slot: the KV cache in (every slice delivered, so the call could decode) to its first
     * decode step's start, when the call before it on the slot had its last token. 0 when the slot was free.
     */
    public long slotWaitPs() {
        return decodeStartPs - kvDonePs;
    }

    /** KV-cache transfer: prefill end to the last slice delivered. */
    public long kvTransferPs() {
        return kvDonePs - prefillEndPs;
    }
}
