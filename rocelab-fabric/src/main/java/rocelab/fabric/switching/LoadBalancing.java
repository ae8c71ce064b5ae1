package rocelab.fabric.switching;

/** How a switch spreads packets over equal-cost next hops. */
public enum LoadBalancing {
    /** Per-flow: a hash of the 5-tuple, so every packet of a QP takes the same path (in-order delivery). */
    ECMP,
    /** Per-packet spraying: a uniformly random next hop for each packet (reordering is possible). */
    SPRAY
}
