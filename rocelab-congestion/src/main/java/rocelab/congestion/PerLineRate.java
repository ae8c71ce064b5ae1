package rocelab.congestion;

import java.util.function.LongFunction;

/**
 * A congestion control's parameters resolved once per RNIC line rate and shared by every QP of that rate: they are
 * immutable records and a QP never changes them, so an all-to-all of a million QPs keeps one copy, not a million.
 * Remembers the last rate asked for (a fabric's RNICs mostly have one), resolving again only when it changes.
 */
public final class PerLineRate<P> {
    private final LongFunction<P> resolve;
    private long lineRateBps = -1;
    private P last;

    public PerLineRate(LongFunction<P> resolve) {
        this.resolve = resolve;
    }

    public P get(long rateBps) {
        if (rateBps != lineRateBps || last == null) {
            last = resolve.apply(rateBps);
            lineRateBps = rateBps;
        }
        return last;
    }
}
