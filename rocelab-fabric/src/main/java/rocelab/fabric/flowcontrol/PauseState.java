package rocelab.fabric.flowcontrol;

/**
 * The receiving side of 802.1Qbb for one transmitter (a switch port or an RNIC): which priorities a peer has
 * paused, since when, and for how long in all. A pause ends at its expiry or on XON; the expiry wake-up carries an
 * epoch so that a refreshed or lifted pause makes the older wake-up stale.
 */
public final class PauseState {
    private final long[] sincePs = new long[8];
    private final long[] epoch = new long[8];
    private final long[] pausedPs = new long[8];
    private int mask;

    /** Bit p set while priority p is paused. */
    public int mask() {
        return mask;
    }

    public boolean isPaused(int priority) {
        return (mask & (1 << priority)) != 0;
    }

    /**
     * Pauses {@code priority} (or extends its pause) and returns the argument its expiry wake-up must carry.
     */
    public long pause(long nowPs, int priority) {
        if ((mask & (1 << priority)) == 0) {
            mask |= 1 << priority;
            sincePs[priority] = nowPs;
        }
        return ++epoch[priority] << 3 | priority;
    }

    /** Whether an expiry wake-up with {@code arg} is still the current one of its priority. */
    public boolean isCurrent(long arg) {
        return arg >>> 3 == epoch[(int) (arg & 7)];
    }

    /** Lifts the pause of {@code priority}; returns how long it lasted, or -1 when it was not paused. */
    public long resume(long nowPs, int priority) {
        if ((mask & (1 << priority)) == 0) {
            return -1;
        }
        mask &= ~(1 << priority);
        ++epoch[priority];
        long lasted = nowPs - sincePs[priority];
        pausedPs[priority] += lasted;
        return lasted;
    }

    /**
     * The end of a run with {@code priority} still paused: the pause so far is counted as spent (it stays in force,
     * counted from {@code nowPs} on), so that what reads the completed pauses afterwards sees it. Returns how long it
     * had lasted, or -1 when the priority is not paused.
     */
    public long settle(long nowPs, int priority) {
        if ((mask & (1 << priority)) == 0) {
            return -1;
        }
        long lasted = nowPs - sincePs[priority];
        pausedPs[priority] += lasted;
        sincePs[priority] = nowPs;
        return lasted;
    }

    /** Time {@code priority} spent paused up to {@code nowPs}, a pause still in force included. */
    public long pausedPs(int priority, long nowPs) {
        return pausedPs[priority] + (isPaused(priority) ? nowPs - sincePs[priority] : 0);
    }

    /** Time {@code priority} spent in pauses that have ended. */
    public long completedPausedPs(int priority) {
        return pausedPs[priority];
    }
}
