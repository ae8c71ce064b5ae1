package rocelab.fabric.nic;

import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * Which planes of a multi-plane fabric reach which hosts, as the RNICs see it: plane p carries traffic from
 * {@code src} to {@code dst} while src's port on p is up and the switches of plane p have a route from src's leaf
 * to dst. It follows the switches' routes (the fabric's link-state view, updated the instant a link event changes
 * them, as the switches themselves are), so a QP moves off, or a sprayer skips, a plane the moment that plane
 * loses its path. Packets already on a failed link are lost and recovered by the transport.
 */
public final class PlaneRouting {
    private final int planes;
    private final PlaneSelection selection;
    /** By plane and host: the switch (index) the host's port on that plane is linked to, and that link's edge. */
    private final int[][] leafSwitch;
    private final int[][] accessEdge;
    private boolean[] edgeDown;
    private int[][][] routes;
    /** Per-QP mode: each QP's home plane, recorded as the network opens it (null when spraying). */
    private final HomePlanes homes;

    public PlaneRouting(Topology topology) {
        this.planes = topology.planes();
        this.selection = topology.planeSelection();
        int hosts = topology.hostCount();
        this.leafSwitch = new int[planes][hosts];
        this.accessEdge = new int[planes][hosts];
        for (int p = 0; p < planes; p++) {
            for (int h = 0; h < hosts; h++) {
                leafSwitch[p][h] = topology.peer(h, p).node() - hosts;
                accessEdge[p][h] = topology.edgeAt(h, p).index();
            }
        }
        this.edgeDown = new boolean[topology.edges().size()];
        this.routes = topology.shortestPathPorts();
        this.homes = selection == PlaneSelection.PER_QP ? new HomePlanes(planes, hosts) : null;
    }

    public int planes() {
        return planes;
    }

    public PlaneSelection selection() {
        return selection;
    }

    /** The switches' new routes around the links marked down (by edge index). */
    public void update(int[][][] newRoutes, boolean[] down) {
        this.routes = newRoutes;
        this.edgeDown = down;
    }

    /** Whether plane {@code plane} has a path from host {@code src} to host {@code dst} now. */
    public boolean reaches(int plane, int src, int dst) {
        return !edgeDown[accessEdge[plane][src]] && routes[leafSwitch[plane][src]][dst].length > 0;
    }

    /**
     * Whether traffic from {@code src} to {@code dst} may take {@code plane}: it reaches, or no plane does and this
     * is plane 0 (the packets then go where a single-plane RNIC's would: into a fabric that drops them, and the
     * transport retries until a link comes back or it gives up).
     */
    public boolean usable(int plane, int src, int dst) {
        if (reaches(plane, src, dst)) {
            return true;
        }
        if (plane != 0) {
            return false;
        }
        for (int p = 1; p < planes; p++) {
            if (reaches(p, src, dst)) {
                return false;
            }
        }
        return true;
    }

    /** The planes that reach {@code dst} from {@code src} now (at least 1: see {@link #usable}). */
    public int usableCount(int src, int dst) {
        int n = 0;
        for (int p = 0; p < planes; p++) {
            n += usable(p, src, dst) ? 1 : 0;
        }
        return n;
    }

    /**
     * Opens queue pair {@code qp} (the next id) from {@code src} to {@code dst}: per-QP mode records its home plane
     * ({@link HomePlanes}) and returns the plane it starts on ({@link #planeOf}); spraying, where a QP has no plane
     * of its own, returns 0.
     */
    public int open(int qp, int src, int dst) {
        if (homes == null) {
            return 0;
        }
        homes.open(qp, src, dst);
        return planeOf(qp, src, dst);
    }

    /** The plane of opened queue pair {@code qp} in {@link PlaneSelection#PER_QP} mode: see {@link #planeFrom}. */
    public int planeOf(int qp, int src, int dst) {
        return planeFrom(homes.home(qp), src, dst);
    }

    /** A per-QP QP's plane: its home plane, or the next one after it that reaches {@code dst}; home when none does. */
    public int planeFrom(int home, int src, int dst) {
        for (int k = 0; k < planes; k++) {
            int p = (home + k) % planes;
            if (reaches(p, src, dst)) {
                return p;
            }
        }
        return home;
    }

    /** Per-QP mode after a route change: every QP whose plane no longer reaches (or reaches again) moves. */
    public void replan(long nowPs, QueuePairTable table) {
        if (selection != PlaneSelection.PER_QP) {
            return;
        }
        for (int i = 0; i < table.size(); i++) {
            QueuePair qp = table.get(i);
            int p = planeOf(qp.id, qp.sourceHost(), qp.destinationHost());
            if (p != qp.plane) {
                qp.source.movePlane(nowPs, qp, p);
            }
        }
    }
}
