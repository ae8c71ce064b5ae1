package rocelab.scenario;

/** Hears about a long run's progress between batches of events (never from the per-event hot path). */
public interface ProgressListener {
    ProgressListener NONE = (simulatedPs, events, wallNanos, flowsFinished, flowsTotal) -> {};

    void onProgress(long simulatedPs, long events, long wallNanos, int flowsFinished, int flowsTotal);
}
