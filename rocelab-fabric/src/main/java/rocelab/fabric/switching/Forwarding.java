package rocelab.fabric.switching;

/**
 * A switch's choice of egress port for a flow, as those who explain a run ask it: its next hops per destination host,
 * how it spreads over them, its hash and seed, and nothing that changes while it forwards. Made again when the routes
 * change ({@link Switch#routes}).
 *
 * <p>It is an object of its own so that a reader on another thread (the PFC log's replay of a parallel run, one wait
 * after another) reads only lines no partition writes: read from the {@link Switch}, the same fields share cache lines
 * with what the switch writes at every frame.
 */
public final class Forwarding {
    private final int[][] routes;
    private final LoadBalancing loadBalancing;
    private final EcmpHash hash;
    private final long hashSeed;

    Forwarding(int[][] routes, LoadBalancing loadBalancing, EcmpHash hash, long hashSeed) {
        this.routes = routes;
        this.loadBalancing = loadBalancing;
        this.hash = hash;
        this.hashSeed = hashSeed;
    }

    /**
     * The one port by which a data packet from {@code srcHost} to {@code dstHost} with UDP source port {@code entropy}
     * leaves: the ECMP choice; -1 when there is no route, or the switch spreads a flow's packets over several ports.
     */
    public int port(int srcHost, int dstHost, int entropy) {
        int[] candidates = routes[dstHost];
        if (candidates.length == 0 || candidates.length > 1 && loadBalancing.mayReorder()) {
            return -1;
        }
        return candidates.length == 1 ? candidates[0]
                : candidates[hash.hash(Switch.ipOf(srcHost), Switch.ipOf(dstHost), entropy, 4791, hashSeed)
                        % candidates.length];
    }

    /**
     * Whether a data packet from {@code srcHost} to {@code dstHost} with UDP source port {@code entropy} leaves by
     * {@code port}: the ECMP choice, or with spraying, adaptive routing or flowlets any of the equal-cost ports.
     */
    public boolean through(int srcHost, int dstHost, int entropy, int port) {
        int[] candidates = routes[dstHost];
        if (candidates.length == 0) {
            return false;
        }
        if (candidates.length == 1) {
            return candidates[0] == port;
        }
        if (loadBalancing.mayReorder()) {
            for (int c : candidates) {
                if (c == port) {
                    return true;
                }
            }
            return false;
        }
        int h = hash.hash(Switch.ipOf(srcHost), Switch.ipOf(dstHost), entropy, 4791, hashSeed);
        return candidates[h % candidates.length] == port;
    }
}
