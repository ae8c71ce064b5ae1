package rocelab.fabric.network;

import java.util.List;

/**
 * A queue pair that ran out of retries (IBTA "retry exceeded") while the links that were down at that moment left
 * its destination unreachable from its source: no route around them joined the two, so every packet it sent was
 * dropped for want of a route or lost on a down link. Known by construction, from the links down then; a QP whose
 * destination was reachable has none.
 *
 * @param atPs when its retries ran out (its local ACK timer's last firing)
 * @param lastTimerStartPs when that timer last started: no new ACK came from then to {@code atPs}
 * @param links with {@code eachReconnects}, the down links that cut its source off from its destination, any one of
 *     which back up would have joined them again; without (no one link would), every link that was down
 * @param linksSteadySincePs when a link last went down or up before {@code atPs}: the links were as told from then on
 */
public record RetryFailure(int queuePair, int src, int dst, long atPs, long lastTimerStartPs, List<DownLink> links,
        boolean eachReconnects, long linksSteadySincePs) {

    public RetryFailure {
        links = List.copyOf(links);
    }

    /** A link that was down (every parallel link between the two nodes), and since when. */
    public record DownLink(int nodeA, int nodeB, long downSincePs) {}

    /**
     * No link went down or up from the last start of its timer to its failure: everything it sent or re-sent in
     * that time met the links as told, and no new ACK came.
     */
    public boolean heldThroughLastAttempt() {
        return linksSteadySincePs <= lastTimerStartPs;
    }
}
