package rocelab.observe.job;

/**
 * One rank of a job, seen from its GPU, averaged over the measured iterations: how long an iteration took for it,
 * how much of that it computed, and how long it sat idle (waiting for communication or for other ranks), in the
 * packet-level run and in ideal-network mode. What the ideal network would not have made it wait is the time the
 * GPU waited on the network.
 *
 * @param coords the rank's coordinates, such as {@code tp=0 pp=1 dp=3}
 */
public record RankRecord(String job, int rank, int host, String coords, double iterationUs, double computeUs,
        double idleUs, double idealIdleUs) {
    /** Idle time the network added: idle in the packet-level run minus idle with an ideal network (not below 0). */
    public double networkWaitUs() {
        return Math.max(0, idleUs - idealIdleUs);
    }
}
