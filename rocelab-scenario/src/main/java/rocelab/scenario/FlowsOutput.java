package rocelab.scenario;

/**
 * How a run reports its flows ({@code observe: {flows: ...}}): a row per flow in flows.csv ({@code per-flow}), or
 * aggregated ({@code aggregated}: flows_aggregated.csv, one row per message size, and a streamed run, see
 * {@link StreamedRun}), or {@code auto} (the default): aggregated when the run is flow level ({@code --model flow}),
 * its workload can be streamed and it has more than {@link #AUTO_THRESHOLD} flows, a row per flow otherwise.
 *
 * @param where the position of the key in the scenario ({@code file:line:col}), or null when it was not written
 */
public record FlowsOutput(Choice choice, String where) {
    /** Flows above which {@code auto} aggregates: about 1 GB of flows.csv. */
    public static final long AUTO_THRESHOLD = 10_000_000L;

    public static final FlowsOutput AUTO = new FlowsOutput(Choice.AUTO, null);

    /** What the scenario asks for. */
    public enum Choice {
        AUTO("auto"), PER_FLOW("per-flow"), AGGREGATED("aggregated");

        private final String key;

        Choice(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        public static Choice ofKey(String key) {
            for (Choice c : values()) {
                if (c.key.equals(key)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown flows output " + key);
        }
    }

    /**
     * Whether the run is streamed and its flows aggregated: asked for, or {@code auto} with a flow-level run
     * ({@code flowModel}) of a workload that can be streamed ({@code streamable}) and more than the threshold of flows.
     */
    public boolean aggregated(boolean flowModel, boolean streamable, long estimatedFlows) {
        return switch (choice) {
            case AGGREGATED -> true;
            case PER_FLOW -> false;
            case AUTO -> flowModel && streamable && estimatedFlows > AUTO_THRESHOLD;
        };
    }
}
