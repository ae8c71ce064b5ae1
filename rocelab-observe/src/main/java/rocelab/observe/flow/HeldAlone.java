package rocelab.observe.flow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * The last flow into a receiver, alone there for a while, held back by its own congestion control's rate while the
 * receiver's link had room: after an incast its other flows have ended, and a rate control that recovers slowly
 * (DCQCN's additive increase) keeps the one left far below the link it now has to itself. {@link HeldByRate} looks
 * at the time when all of a receiver's flows were sending, and says nothing when that time kept the link full.
 * Three measurements, each from its own source, none inferred from another: the flow spent at least
 * {@link HeldByRate#HELD_SHARE} of its life with data ready that its rate held back (flows.csv {@code rate_held_us}),
 * its QP's allowed rate over the sampled time it was alone (rates.csv, with the congestion notifications received
 * then), and what the switch port towards the receiver carried of its capacity meanwhile, at most
 * {@link HeldByRate#MAX_UTILISATION} and at least {@link #SENT_AT_RATE} of the flow's lowest allowed rate (links.csv):
 * the flow went at its rate, which held it. No switch port on its path carried more than
 * {@link HeldByRate#MAX_UTILISATION} either, and its sender's link is not slower than the receiver's ({@link PathLoad}):
 * a flow behind a full uplink or a slower link was held to that link's share, which its congestion control rightly
 * found, and is not told. The time alone, from when the receiver's other flows had all ended to
 * the flow's delivery, must be at least a tenth of the flow's life.
 *
 * @param flow the flow's id
 * @param sender the host it comes from
 * @param receiver the host it goes to
 * @param switchIndex the switch (index among switches) whose port {@code port} sends to the receiver
 * @param heldShare the share of its life its rate held it back (0..1)
 * @param fromPs the first sample time at which it was the receiver's only unfinished flow
 * @param toPs the last sample time before it was delivered
 * @param utilisation what that port carried of its capacity from {@code fromPs} to {@code toPs}
 * @param minRateBps the least rate its congestion control allowed its QP from {@code fromPs} to {@code toPs}
 * @param maxRateBps the greatest
 * @param notifications the congestion notifications its QP received from {@code fromPs} to {@code toPs}
 * @param linkBps the capacity of the port towards the receiver
 * @param pathUtilisation the greatest share of its capacity any switch port on the flow's path carried meanwhile
 */
public record HeldAlone(int flow, int sender, int receiver, int switchIndex, int port, double heldShare, long fromPs, long toPs,
        double utilisation, long minRateBps, long maxRateBps, long notifications, long linkBps, double pathUtilisation) {
    /** The least share of the flow's life that it must have been alone at its receiver for. */
    public static final int ALONE_PART_OF_LIFE = 10;
    /** What the receiver's link carried, at least, as a share of the flow's lowest allowed rate meanwhile. */
    public static final double SENT_AT_RATE = 0.9;

    /**
     * The receivers' last flows held back alone (see the class comment), least used link first; receivers
     * {@link HeldByRate} already names are left out. Empty at flow level or without sampling.
     */
    public static List<HeldAlone> find(List<FlowRecord> flows, long endPs, Network network, TimeSeriesSampler series,
            List<HeldByRate> already) {
        List<HeldAlone> out = new ArrayList<>();
        Topology topo = network.topology();
        if (series == null || flows.isEmpty() || series.lastSamplePs() < 0) {
            return out;
        }
        int hosts = topo.hostCount();
        // Per receiver: the flow that ended last (-1 when two ended together, or one's end is not known), and the
        // latest end of the others.
        int[] last = new int[hosts];
        long[] lastEnd = new long[hosts];
        long[] othersEnd = new long[hosts];
        boolean[] unusable = new boolean[hosts];
        Arrays.fill(last, -1);
        Arrays.fill(lastEnd, -1);
        for (HeldByRate h : already) {
            unusable[h.receiver()] = true;
        }
        for (int i = 0; i < flows.size(); i++) {
            FlowRecord f = flows.get(i);
            int h = f.dst();
            if (h < 0 || h >= hosts || unusable[h]) {
                continue;
            }
            if (f.startPs() < 0) {
                continue; // never posted: it was never at the receiver
            }
            long end = f.completed() ? f.finishPs() : endPs;
            if (end > lastEnd[h]) {
                othersEnd[h] = Math.max(othersEnd[h], lastEnd[h]);
                lastEnd[h] = end;
                last[h] = i;
            } else {
                othersEnd[h] = Math.max(othersEnd[h], end);
            }
        }
        long interval = series.intervalPs();
        List<int[]> candidates = new ArrayList<>();
        List<long[]> windows = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            if (unusable[h] || last[h] < 0 || othersEnd[h] == lastEnd[h] || topo.portCount(h) != 1
                    || topo.isHost(topo.peer(h, 0).node())) {
                continue;
            }
            FlowRecord f = flows.get(last[h]);
            long life = lastEnd[h] - f.startPs();
            if (f.failed() || f.rateHeldPs() < 0 || life <= 0
                    || (double) f.rateHeldPs() / life < HeldByRate.HELD_SHARE) {
                continue;
            }
            long alone = Math.max(f.startPs(), othersEnd[h]);
            long from = (alone + interval - 1) / interval * interval;
            // To its delivery, not its last ACK: after the receiver has the whole message the flow has nothing left
            // to send, and the link's idle time is not its rate's doing.
            long delivered = f.deliveredPs() >= 0 ? f.deliveredPs() : lastEnd[h];
            long to = Math.min(delivered, series.lastSamplePs()) / interval * interval;
            if (to > from && (to - from) * ALONE_PART_OF_LIFE >= life) {
                candidates.add(new int[] {h, last[h]});
                windows.add(new long[] {from, to});
            }
        }
        if (candidates.isEmpty()) {
            return out;
        }
        int n = candidates.size();
        int[] sw = new int[2 * n];
        int[] port = new int[2 * n];
        long[] at = new long[2 * n];
        for (int i = 0; i < n; i++) {
            Topology.End far = topo.peer(candidates.get(i)[0], 0);
            for (int k = 0; k < 2; k++) {
                sw[2 * i + k] = far.node() - hosts;
                port[2 * i + k] = far.port();
                at[2 * i + k] = windows.get(i)[k];
            }
        }
        long[] tx = series.txBytesAt(sw, port, at);
        Map<Integer, long[]> rates = rates(series, candidates, windows, flows);
        List<int[]> queuePairs = new ArrayList<>();
        long[] froms = new long[n];
        long[] tos = new long[n];
        long[] receiverBps = new long[n];
        for (int i = 0; i < n; i++) {
            queuePairs.add(new int[] {flows.get(candidates.get(i)[1]).queuePair()});
            froms[i] = at[2 * i];
            tos[i] = at[2 * i + 1];
            receiverBps[i] = topo.edgeAt(candidates.get(i)[0], 0).parameters().rateBps();
        }
        PathLoad[] load = PathLoad.busiest(network, series, queuePairs, froms, tos, receiverBps);
        for (int i = 0; i < n; i++) {
            int h = candidates.get(i)[0];
            FlowRecord f = flows.get(candidates.get(i)[1]);
            long from = at[2 * i];
            long to = at[2 * i + 1];
            long rate = topo.edgeAt(sw[2 * i] + hosts, port[2 * i]).parameters().rateBps();
            double utilisation = (tx[2 * i + 1] - tx[2 * i]) * 8.0 / (rate * ((to - from) / 1e12));
            long[] q = rates.get(f.queuePair());
            // The link, which carried only this flow towards the receiver, carried at least nearly its lowest
            // allowed rate: the flow went as fast as its rate let it. One that carried much less (a flow whose
            // packets waited elsewhere, behind pauses or another queue) was not held by its rate, and is not told.
            boolean atItsRate = q != null && utilisation * rate >= SENT_AT_RATE * q[0];
            double path = Math.max(utilisation, load[i].utilisation());
            if (path <= HeldByRate.MAX_UTILISATION && q != null && q[0] >= 0 && atItsRate) {
                long life = lastEnd[h] - f.startPs();
                out.add(new HeldAlone(f.id(), f.src(), h, sw[2 * i], port[2 * i], (double) f.rateHeldPs() / life, from, to,
                        utilisation, q[0], q[1], q[3] - q[2], rate, path));
            }
        }
        out.sort(Comparator.comparingDouble(HeldAlone::utilisation).thenComparingInt(HeldAlone::receiver));
        return out;
    }

    /**
     * Per candidate QP over its window, from rates.csv's rows: {least rate, greatest rate, notifications at the
     * window's start, at its end}; the rate at the start is the QP's last row at or before it (-1 for none: a QP
     * whose rate was never sampled is not told).
     */
    private static Map<Integer, long[]> rates(TimeSeriesSampler series, List<int[]> candidates, List<long[]> windows,
            List<FlowRecord> flows) {
        Map<Integer, long[]> window = new HashMap<>();
        Map<Integer, long[]> out = new HashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            int qp = flows.get(candidates.get(i)[1]).queuePair();
            window.put(qp, windows.get(i));
            out.put(qp, new long[] {-1, -1, 0, 0});
        }
        try {
            series.forEachRate((timePs, queuePair, rateBps, cnps) -> {
                long[] w = window.get(queuePair);
                if (w == null || timePs > w[1]) {
                    return;
                }
                long[] q = out.get(queuePair);
                if (timePs <= w[0]) {
                    // The rate in force at the window's start: the last row at or before it.
                    q[0] = rateBps;
                    q[1] = rateBps;
                    q[2] = cnps;
                    q[3] = cnps;
                } else if (q[0] >= 0) {
                    q[0] = Math.min(q[0], rateBps);
                    q[1] = Math.max(q[1], rateBps);
                    q[3] = cnps;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
