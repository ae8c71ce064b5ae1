package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.List;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.RetryExhaustionListener;
import rocelab.fabric.switching.Switch;
import rocelab.fabric.topology.PlaneSelection;
import rocelab.fabric.topology.Topology;

/**
 * Tells, when a queue pair runs out of retries while links are down, what those links did to it ({@link
 * RetryFailure}): from the down links and the switches' routes at that very moment, never guessed afterwards. Runs
 * once per failed QP, not per packet; a run with no link down records nothing. Link events keep a run on one thread,
 * so nothing here is shared between partitions.
 */
final class RetryFailures implements RetryExhaustionListener {
    private final Topology topology;
    private final Switch[] switches;
    private final boolean[] edgeDown;
    private final long[] edgeDownSincePs;
    private final List<RetryFailure> failures = new ArrayList<>();
    private long linksChangedPs = -1;
    private int downEdges;
    private boolean spray;

    RetryFailures(Topology topology, Switch[] switches, boolean[] edgeDown) {
        this.topology = topology;
        this.switches = switches;
        this.edgeDown = edgeDown;
        this.edgeDownSincePs = new long[edgeDown.length];
    }

    /** A multi-plane fabric whose RNICs spray a QP's packets over every plane: no QP has one path. */
    void spraysOverPlanes(boolean sprays) {
        this.spray = sprays;
    }

    /** The edge went down or came up now ({@code edgeDown} already says so). */
    void onLinkState(long nowPs, int edgeIndex, boolean up) {
        linksChangedPs = nowPs;
        downEdges += up ? -1 : 1;
        if (!up) {
            edgeDownSincePs[edgeIndex] = nowPs;
        }
    }

    @Override
    public void onRetriesExhausted(long nowPs, QueuePair qp, long lastTimerStartPs) {
        if (downEdges == 0) {
            return;
        }
        int src = qp.sourceHost();
        int dst = qp.destinationHost();
        int[] toDst = topology.distancesTo(dst, edgeDown);
        if (toDst[src] < 0) {
            record(qp, nowPs, lastTimerStartPs, RetryFailure.Kind.UNREACHABLE, -1, src, dst, toDst);
            return;
        }
        walk(qp, nowPs, lastTimerStartPs, toDst);
    }

    /** Follows the QP's data path by the routes of now, if it has one path, to a down link or a switch with none. */
    private void walk(QueuePair qp, long nowPs, long lastTimerStartPs, int[] toDst) {
        int src = qp.sourceHost();
        int dst = qp.destinationHost();
        int port = topology.portCount(src) == 1 ? 0 : spray ? -1 : qp.plane();
        int node = src;
        // A path has at most as many hops as there are switches, plus the last; the bound guards a wrong table.
        for (int guard = 0; port >= 0 && guard <= switches.length; guard++) {
            Topology.Edge e = topology.edgeAt(node, port);
            if (edgeDown[e.index()]) {
                List<RetryFailure.DownLink> link = List.of(downLink(e.index()));
                failures.add(new RetryFailure(qp.id(), src, dst, nowPs, lastTimerStartPs,
                        RetryFailure.Kind.DOWN_LINK_ON_PATH, -1, link, true, linksChangedPs));
                return;
            }
            node = topology.peer(node, port).node();
            if (topology.isHost(node)) {
                return;
            }
            Switch sw = switches[node - topology.hostCount()];
            if (sw.candidates(dst).length == 0) {
                record(qp, nowPs, lastTimerStartPs, RetryFailure.Kind.NO_ROUTE_ON_PATH, node, node, dst, toDst);
                return;
            }
            // -1: the switch chooses per packet (spray, adaptive, flowlets), so the QP has no one path.
            port = sw.forwardingPort(src, dst, qp.entropy());
        }
    }

    private void record(QueuePair qp, long nowPs, long lastTimerStartPs, RetryFailure.Kind kind, int noRouteSwitch,
            int from, int dst, int[] toDst) {
        int[] toFrom = topology.distancesTo(from, edgeDown);
        List<RetryFailure.DownLink> cut = new ArrayList<>();
        List<RetryFailure.DownLink> all = new ArrayList<>();
        for (Topology.Edge e : topology.edges()) {
            if (!edgeDown[e.index()] || isParallelToEarlier(e)) {
                continue;
            }
            all.add(downLink(e.index()));
            int a = e.a().node();
            int b = e.b().node();
            if (relays(a, from, toFrom) && relays(b, dst, toDst) || relays(b, from, toFrom) && relays(a, dst, toDst)) {
                cut.add(downLink(e.index()));
            }
        }
        boolean joins = !cut.isEmpty();
        failures.add(new RetryFailure(qp.id(), qp.sourceHost(), dst, nowPs, lastTimerStartPs, kind, noRouteSwitch,
                joins ? cut : all, joins, linksChangedPs));
    }

    /**
     * Whether {@code node} reaches {@code end} (distances to it in {@code toEnd}) and would pass packets on: the end
     * itself, or a switch (hosts do not relay).
     */
    private boolean relays(int node, int end, int[] toEnd) {
        return toEnd[node] >= 0 && (node == end || !topology.isHost(node));
    }

    /** A link event takes every parallel link between two nodes down: they are told once, by the first. */
    private boolean isParallelToEarlier(Topology.Edge e) {
        for (int i = 0; i < e.index(); i++) {
            Topology.Edge o = topology.edges().get(i);
            if (edgeDown[i] && (o.a().node() == e.a().node() && o.b().node() == e.b().node()
                    || o.a().node() == e.b().node() && o.b().node() == e.a().node())) {
                return true;
            }
        }
        return false;
    }

    private RetryFailure.DownLink downLink(int edgeIndex) {
        Topology.Edge e = topology.edges().get(edgeIndex);
        return new RetryFailure.DownLink(e.a().node(), e.b().node(), edgeDownSincePs[edgeIndex]);
    }

    List<RetryFailure> failures() {
        return List.copyOf(failures);
    }
}
