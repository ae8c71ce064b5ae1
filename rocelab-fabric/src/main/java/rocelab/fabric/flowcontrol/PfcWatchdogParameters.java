package rocelab.fabric.flowcontrol;

/**
 * The switch PFC watchdog (SONiC design): every poll interval it looks at each lossless queue; a queue that is
 * paused by the peer, holds packets and transmitted nothing for the detection time is in a pause storm. The
 * watchdog then ignores PFC on that queue and drops its packets (action drop) or sends them anyway (forward),
 * until no PFC frame has arrived for the restoration time.
 *
 * @param enabled whether the watchdog runs
 * @param pollPs polling interval
 * @param detectionPs how long a queue must be stuck before a storm is declared
 * @param restorationPs how long without PFC frames before the queue honours PFC again
 * @param drop drop the queue's packets during a storm (otherwise forward them, ignoring the pause)
 */
public record PfcWatchdogParameters(boolean enabled, long pollPs, long detectionPs, long restorationPs, boolean drop) {
    public PfcWatchdogParameters {
        if (enabled && (pollPs <= 0 || detectionPs <= 0 || restorationPs <= 0)) {
            throw new IllegalArgumentException("watchdog poll, detection and restoration times must be positive");
        }
    }

    public static PfcWatchdogParameters off() {
        return new PfcWatchdogParameters(false, 100_000_000_000L, 200_000_000_000L, 200_000_000_000L, true);
    }

    /** SONiC's common settings: poll 100 ms, detection 200 ms, restoration 200 ms, action drop. */
    public static PfcWatchdogParameters sonicDefaults() {
        return new PfcWatchdogParameters(true, 100_000_000_000L, 200_000_000_000L, 200_000_000_000L, true);
    }

    /**
     * The text a record's generated toString() gives (name[component=value, ...], the scenario hash's input), written
     * out: the generated one is bootstrapped through method handles the first time it runs, tens of milliseconds of
     * a short run's start-up (RecordTextTest checks the two agree).
     */
    @Override
    public String toString() {
        return "PfcWatchdogParameters[" + "enabled=" + enabled + ", pollPs=" + pollPs + ", detectionPs=" + detectionPs
                + ", restorationPs=" + restorationPs + ", drop=" + drop + "]";
    }
}
