package rocelab.fabric.congestion;

/**
 * Where a congestion control reports every change of its queue pair's rate or window, with the cause. The RNIC
 * forwards it to its journey probe; {@link #NONE} ignores it. Called only on a change, never per packet otherwise.
 */
public interface RateListener {
    RateListener NONE = (nowPs, queuePair, fromBps, toBps, windowBytes, cause, value, index) -> {};

    /**
     * @param fromBps the rate before, {@code toBps} after
     * @param windowBytes the window after ({@code Long.MAX_VALUE} for a purely rate-based control)
     * @param value, index details of the cause, as {@link RateCause} documents for each
     */
    void onRateChange(long nowPs, int queuePair, long fromBps, long toBps, long windowBytes, RateCause cause,
            long value, int index);

    /** Reports a change of rate or window, if there was one. */
    default void report(long nowPs, int queuePair, long fromBps, long toBps, long windowFrom, long windowTo,
            RateCause cause, long value, int index) {
        if (fromBps != toBps || windowFrom != windowTo) {
            onRateChange(nowPs, queuePair, fromBps, toBps, windowTo, cause, value, index);
        }
    }
}
