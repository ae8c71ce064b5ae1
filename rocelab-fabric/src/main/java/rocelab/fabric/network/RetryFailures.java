package rocelab.fabric.network;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.RetryExhaustionListener;
import rocelab.fabric.topology.Topology;

/**
 * Tells, when a queue pair runs out of retries while links are down, whether those links cut its destination off
 * ({@link RetryFailure}): from the links down at that very moment, never guessed afterwards. Runs
 * once per failed QP, not per packet; a run with no link down records nothing. Link events keep a run on one thread,
 * so nothing here is shared between partitions.
 */
final class RetryFailures implements RetryExhaustionListener {
    private final Topology topology;
    private final boolean[] edgeDown;
    private final long[] edgeDownSincePs;
    private final List<RetryFailure> failures = new ArrayList<>();
    private long linksChangedPs = -1;
    private int downEdges;

    RetryFailures(Topology topology, boolean[] edgeDown) {
        this.topology = topology;
        this.edgeDown = edgeDown;
        this.edgeDownSincePs = new long[edgeDown.length];
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
        // Only an unreachable destination is the links' doing: routing converges at once around every down link (the
        // switches' routes are shortest paths over the links up), and a multi-plane RNIC moves a QP whose plane no
        // longer reaches to one that does, so a QP whose destination is reachable has a whole path.
        if (toDst[src] < 0) {
            record(qp, nowPs, lastTimerStartPs, src, dst, toDst);
        }
    }

    private void record(QueuePair qp, long nowPs, long lastTimerStartPs, int from, int dst, int[] toDst) {
        int[] toFrom = topology.distancesTo(from, edgeDown);
        List<RetryFailure.DownLink> cut = new ArrayList<>();
        List<RetryFailure.DownLink> all = new ArrayList<>();
        // A link event takes every parallel link between two nodes down: they are told once, by the first.
        Set<Long> told = new HashSet<>();
        for (Topology.Edge e : topology.edges()) {
            int lo = Math.min(e.a().node(), e.b().node());
            int hi = Math.max(e.a().node(), e.b().node());
            if (!edgeDown[e.index()] || !told.add((long) lo << 32 | hi)) {
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
        failures.add(new RetryFailure(qp.id(), from, dst, nowPs, lastTimerStartPs, joins ? cut : all, joins,
                linksChangedPs));
    }

    /**
     * Whether {@code node} reaches {@code end} (distances to it in {@code toEnd}) and would pass packets on: the end
     * itself, or a switch (hosts do not relay).
     */
    private boolean relays(int node, int end, int[] toEnd) {
        return toEnd[node] >= 0 && (node == end || !topology.isHost(node));
    }

    private RetryFailure.DownLink downLink(int edgeIndex) {
        Topology.Edge e = topology.edges().get(edgeIndex);
        return new RetryFailure.DownLink(e.a().node(), e.b().node(), edgeDownSincePs[edgeIndex]);
    }

    List<RetryFailure> failures() {
        return List.copyOf(failures);
    }
}
