package rocelab.scenario;

import java.util.Locale;

/**
 * The heap a run may use (by default the JVM's {@code -Xmx}, {@link Runtime#maxMemory()}), and the verdict on a
 * {@link Footprint}: a scenario that cannot fit is refused before it is built, with the estimate and what to change,
 * instead of ending in an OutOfMemoryError.
 */
public record MemoryBudget(long maxBytes, boolean flowLevel, boolean streaming) {
    public MemoryBudget {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive");
        }
    }

    /** A budget for a packet-level run. */
    public MemoryBudget(long maxBytes) {
        this(maxBytes, false);
    }

    /** A budget for a run at flow level ({@code flowLevel}) or packet level, never streamed. */
    public MemoryBudget(long maxBytes, boolean flowLevel) {
        this(maxBytes, flowLevel, false);
    }

    /** This JVM's maximum heap, for a packet-level run. */
    public static MemoryBudget ofJvm() {
        return ofJvm(false);
    }

    /** This JVM's maximum heap, for a run at flow level ({@code flowLevel}: no queue pairs) or packet level. */
    public static MemoryBudget ofJvm(boolean flowLevel) {
        return new MemoryBudget(Runtime.getRuntime().maxMemory(), flowLevel);
    }

    /**
     * This JVM's maximum heap, for a run at flow level or packet level; {@code streaming}: the run is
     * {@code --model flow}, so a workload {@link StreamedRun} can stream may be run streamed ({@link FlowsOutput}).
     */
    public static MemoryBudget ofJvm(boolean flowLevel, boolean streaming) {
        return new MemoryBudget(Runtime.getRuntime().maxMemory(), flowLevel, streaming);
    }

    /** Why the footprint cannot run within this budget, or null when it fits. */
    public String refusal(Footprint f) {
        if (f.tooManyTasks()) {
            return "the scenario expands to more than " + String.format(Locale.ROOT, "%,d",
                    Footprint.MAX_TASKS) + " tasks (" + f.counts() + "), more than a run can hold; expected a smaller"
                    + " scenario (fewer hosts in an all-to-all, fewer iterations or repeats)";
        }
        long need = f.bytes(flowLevel);
        if (need <= maxBytes) {
            return null;
        }
        // A quarter more than the estimate, rounded up to whole GiB: rounding down could suggest a heap below the need.
        long suggest = Math.max(1, Footprint.addSat(Footprint.addSat(need, need / 4), (1L << 30) - 1) >> 30);
        return "the scenario needs about " + Footprint.gib(need) + " of memory" + (flowLevel ? " at flow level" : "")
                + (f.streamed() && flowLevel ? ", streamed" : "")
                + " (" + f.counts() + "), more than the "
                + Footprint.gib(maxBytes) + " this JVM may use; expected a smaller scenario, or a larger heap"
                + (need < Long.MAX_VALUE / 2 ? " (ROCELAB_JAVA_OPTS=-Xmx" + suggest + "g ./rocelab ...)" : "");
    }
}
