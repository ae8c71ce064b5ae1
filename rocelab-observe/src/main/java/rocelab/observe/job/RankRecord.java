package rocelab.observe.job;

/**
 * One rank of a job, seen from its GPU, averaged over the measured iterations: how long an iteration took for it,
 * how much of that it computed, how much it spent not computing while its own data was moving (exposed
 * communication), and how much it sat idle with nothing moving (waiting for another rank), in the packet-level
 * run and in ideal-network mode. The time not computing beyond what the ideal network causes is the time the GPU
 * waited on the network.
 *
 * @param coords the rank's coordinates, such as {@code tp=0 pp=1 dp=3}
 */
public record RankRecord(String job, int rank, int host, String coords, double iterationUs, double computeUs,
        double exposedCommUs, double idleUs, double idealExposedCommUs, double idealIdleUs) {
    /** Not computing in the packet-level run minus not computing on the ideal network (not below 0). */
    public double networkWaitUs() {
        return Math.max(0, exposedCommUs + idleUs - idealExposedCommUs - idealIdleUs);
    }
}
