package rocelab.workload.inference;

import java.util.List;

/** Where a service's requests landed in a task graph, for per-request latencies. */
public record InferenceTasks(InferenceSpec spec, List<Request> requests) {
    /**
     * One request: when it arrived, the task that marks its arrival, the task after which it is done (its egress
     * delivered), its decode instance (an index into the spec's decode instances), its LLM calls, and {@code hosts}:
     * the hosts its flows leave from or arrive at (the request's own tasks' flows, ascending; not its NVLink transfers).
     */
    public record Request(int index, long arrivalPs, int arrivalTask, int endTask, int decodeInstance,
            List<Call> calls, int[] hosts) {
        public Request {
            calls = List.copyOf(calls);
            hosts = hosts.clone();
        }
    }

    /**
     * One LLM call: the task whose end is the call's arrival (its prompt is at the prefill instance), the prefill's
     * start (the instance took it) and end (every rank done), the KV-cache transfers (one per TP rank), the task
     * whose end is its first decode step's start (every KV slice delivered and its decode slot free: the previous
     * call on the slot had its last token), the end of its first and of its last decode step, where it ran, and its
     * sizes.
     */
    public record Call(int readyTask, int prefillStartTask, int prefillEndTask, int[] kvTasks, int decodeStartTask,
            int firstTokenTask,
            int lastTokenTask, int prefillInstance, int decodeInstance, int slot, long prefillTokens,
            int outputTokens, long kvBytes) {}

    public InferenceTasks {
        requests = List.copyOf(requests);
    }
}
