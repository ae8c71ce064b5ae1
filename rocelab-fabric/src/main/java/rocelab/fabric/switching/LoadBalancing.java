package rocelab.fabric.switching;

/** How a switch spreads packets over equal-cost next hops. */
public enum LoadBalancing {
    /** Per-flow: a hash of the 5-tuple, so every packet of a QP takes the same path (in-order delivery). */
    ECMP,
    /** Per-packet spraying: a uniformly random next hop for each packet (reordering is possible). */
    SPRAY,
    /** Per-packet adaptive routing: the least-loaded next hop for each packet (reordering is possible). */
    ADAPTIVE,
    /**
     * Per-flowlet adaptive routing: a flow keeps its next hop while its packets follow each other closely; after an
     * idle gap longer than the flowlet timeout its next packet starts a new flowlet on the least-loaded next hop.
     */
    FLOWLET;

    /** Whether packets of one QP can take different paths (and so arrive out of order). */
    public boolean mayReorder() {
        return this != ECMP;
    }

    /** Whether the choice depends on the ports' load ({@link AdaptiveParameters}). */
    public boolean loadAware() {
        return this == ADAPTIVE || this == FLOWLET;
    }
}
