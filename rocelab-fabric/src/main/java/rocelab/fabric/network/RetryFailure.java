package rocelab.fabric.network;

import java.util.List;

/**
 * What the links say about a queue pair that ran out of retries (IBTA "retry exceeded"), as they stood at that
 * moment: its destination unreachable by any route around the links that were down, or its own data path (its RNIC
 * port, then each switch's ECMP choice by the routes of that moment) crossing a link that was down or meeting a switch
 * with no route. Known by construction: the same down links and routes the fabric forwarded by; a QP whose path was
 * whole when it failed has none.
 *
 * @param atPs when its retries ran out (its local ACK timer's last firing)
 * @param lastTimerStartPs when that timer last started: no new ACK came from then to {@code atPs}
 * @param noRouteSwitch {@link Kind#NO_ROUTE_ON_PATH}: the switch node on its path with no route to its destination;
 *     else -1
 * @param links {@link Kind#UNREACHABLE}: the down links that cut its source off from its destination (with
 *     {@code eachReconnects}, any one of them back up would join them again; without, every link that was down);
 *     {@link Kind#DOWN_LINK_ON_PATH}: the down link its path crossed; {@link Kind#NO_ROUTE_ON_PATH}: as for
 *     unreachable, from the switch with no route
 * @param linksSteadySincePs when a link last went down or up before {@code atPs}: the links and routes were as told
 *     from then on
 */
public record RetryFailure(int queuePair, int src, int dst, long atPs, long lastTimerStartPs, Kind kind,
        int noRouteSwitch, List<DownLink> links, boolean eachReconnects, long linksSteadySincePs) {

    public RetryFailure {
        links = List.copyOf(links);
    }

    /** Which way the links kept the QP's packets from their destination. */
    public enum Kind {
        /** No route around the down links joined its source to its destination. */
        UNREACHABLE,
        /** Its path crossed a link that was down (a multi-plane RNIC's port on a failed link). */
        DOWN_LINK_ON_PATH,
        /** A switch on its path had no route to its destination, though some other path reached it. */
        NO_ROUTE_ON_PATH
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
