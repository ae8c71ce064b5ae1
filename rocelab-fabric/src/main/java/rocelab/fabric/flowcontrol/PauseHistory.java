package rocelab.fabric.flowcontrol;

import java.util.Arrays;
import rocelab.fabric.probe.PfcProbe;

/**
 * Which XOFF held a transmitter's priority at each point of its paused-time clock ({@link PauseState#pausedPs}), so
 * that a wait that spans several pauses is told, part by part, to the PFC frame that caused each part: carried
 * identity, not the last XOFF's name for the whole wait. The clock advances only while the priority is paused, so
 * the XOFFs acted on, in order, cut it into consecutive ranges: XOFF i held [its clock, the next XOFF's clock). A
 * refresh that arrives while the pause holds starts a range of its own (from then on that frame holds it).
 *
 * <p>Kept per priority in a small ring; the owner says, at each XOFF, from which clock value on its waits can still
 * be asked for (its oldest held frame's), so the ring holds only what may still be needed. Costs nothing on a
 * priority that is never paused.
 */
public final class PauseHistory {
    private final long[][] clocks = new long[8][];
    private final long[][] xoffs = new long[8][];
    private final int[] first = new int[8];
    private final int[] count = new int[8];

    /**
     * An XOFF sent by the peer at {@code xoffSentPs} holds {@code priority} from the clock value {@code clockPs} on;
     * ranges that end at or before {@code keepFromClockPs} are no longer needed.
     */
    public void xoff(int priority, long clockPs, long xoffSentPs, long keepFromClockPs) {
        long[] c = clocks[priority];
        if (c == null) {
            clocks[priority] = c = new long[8];
            xoffs[priority] = new long[8];
        }
        int n = count[priority];
        int f = first[priority];
        int mask = c.length - 1;
        // Drop the oldest ranges whose end (the next XOFF's clock) is at or before what may still be asked for.
        while (n > 1 && c[(f + 1) & mask] <= keepFromClockPs) {
            f = (f + 1) & mask;
            n--;
        }
        if (n == 1 && clockPs <= keepFromClockPs) {
            // The one left ends where the new XOFF starts, before anything that may still be asked for.
            n = 0;
        }
        if (n == c.length) {
            long[] nc = new long[2 * n];
            long[] nx = new long[2 * n];
            for (int i = 0; i < n; i++) {
                nc[i] = c[(f + i) & mask];
                nx[i] = xoffs[priority][(f + i) & mask];
            }
            clocks[priority] = c = nc;
            xoffs[priority] = nx;
            f = 0;
            mask = c.length - 1;
        }
        int at = (f + n) & mask;
        c[at] = clockPs;
        xoffs[priority][at] = xoffSentPs;
        first[priority] = f;
        count[priority] = n + 1;
    }

    /** The XOFF that acted last on {@code priority} (its send time at the peer), or -1. */
    public long lastXoffSentPs(int priority) {
        int n = count[priority];
        return n == 0 ? -1 : xoffs[priority][(first[priority] + n - 1) & (clocks[priority].length - 1)];
    }

    /**
     * Tells {@code probe} that a packet (or QP) waited behind pauses of {@code priority} over the clock range
     * [{@code fromClockPs}, {@code toClockPs}], one report per XOFF that held part of it, in clock order. A range
     * older than the oldest XOFF kept (which the owner's keep-from prevents) goes to the oldest.
     */
    public void report(PfcProbe probe, long nowPs, int node, int port, int priority, int queuePair, long flowCookie,
            boolean ack, long fromClockPs, long toClockPs) {
        int n = count[priority];
        if (n == 0) {
            probe.onPausedWait(nowPs, node, port, priority, queuePair, flowCookie, ack, fromClockPs, toClockPs, -1);
            return;
        }
        long[] c = clocks[priority];
        long[] x = xoffs[priority];
        int mask = c.length - 1;
        int f = first[priority];
        int last = (f + n - 1) & mask;
        if (fromClockPs >= c[last]) {
            // Nearly always: the whole wait lies within the last pause.
            probe.onPausedWait(nowPs, node, port, priority, queuePair, flowCookie, ack, fromClockPs, toClockPs,
                    x[last]);
            return;
        }
        // The first XOFF that may hold part of it: the last whose clock is at or before the wait's start (a long
        // pause under refreshes keeps many, and an RNIC's pause end asks for every ready QP).
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (c[(f + mid) & mask] <= fromClockPs) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        for (int i = lo; i < n; i++) {
            int at = (f + i) & mask;
            long partFrom = i == 0 ? fromClockPs : Math.max(fromClockPs, c[at]);
            long partTo = i == n - 1 ? toClockPs : Math.min(toClockPs, c[(at + 1) & mask]);
            if (partTo > partFrom) {
                probe.onPausedWait(nowPs, node, port, priority, queuePair, flowCookie, ack, partFrom, partTo, x[at]);
            }
            if (partTo >= toClockPs) {
                break;
            }
        }
    }

    /** How many XOFFs {@code priority} keeps (tests). */
    int kept(int priority) {
        return count[priority];
    }

    @Override
    public String toString() {
        return "PauseHistory" + Arrays.toString(count);
    }
}
