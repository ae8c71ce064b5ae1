package rocelab.scenario;

/**
 * Hears about a long run's progress between batches of events (never from the per-event hot path). Engines of either
 * level (packets, or flows as fluids) report the same {@link RunProgress}.
 */
public interface ProgressListener {
    ProgressListener NONE = progress -> {};

    void onProgress(RunProgress progress);
}
