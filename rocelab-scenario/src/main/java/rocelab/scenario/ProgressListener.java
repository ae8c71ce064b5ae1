package rocelab.scenario;

/**
 * Hears about a long run's progress between batches of events (never from the per-event hot path). Engines of either
 * level (packets, or flows as fluids) report the same {@link RunProgress}.
 */
public interface ProgressListener {
    ProgressListener NONE = progress -> {};

    void onProgress(RunProgress progress);

    /**
     * The run has ended a phase of its own after the event loop ({@code loop}: the events; then the records made
     * from the run alone, the wait for the ideal figures, and the rest), for {@code rocelab run --timing}. Called a few
     * times per run, from the thread that runs it.
     */
    default void onPhase(String name) {}
}
