package rocelab.observe.inference;

import rocelab.observe.flow.CollectiveRecord;

/**
 * One inference request, seen from its user: when it arrived, when its answer was back at the gateway (-1: never),
 * the same on an ideal network, its time to first token (arrival to the first output token of its first LLM call),
 * its time per output token (decode time of all its calls over the tokens after each call's first), and
 * {@code beside}: the workload's other items (traffic items, jobs, other services) with flows from or to the hosts of
 * its own flows while it ran (arrival to its end, or to the run's end), the one there longest and for how long.
 */
public record RequestRecord(String service, int request, long arrivalPs, int llmCalls, long prefillTokens,
        long outputTokens, String decodeInstance, long endPs, long idealEndPs, long ttftPs, double tpotPs,
        CollectiveRecord.Beside beside) {
    /** A request with nothing known of the workload's other items beside it. */
    public RequestRecord(String service, int request, long arrivalPs, int llmCalls, long prefillTokens,
            long outputTokens, String decodeInstance, long endPs, long idealEndPs, long ttftPs, double tpotPs) {
        this(service, request, arrivalPs, llmCalls, prefillTokens, outputTokens, decodeInstance, endPs, idealEndPs,
                ttftPs, tpotPs, CollectiveRecord.Beside.NONE);
    }

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
