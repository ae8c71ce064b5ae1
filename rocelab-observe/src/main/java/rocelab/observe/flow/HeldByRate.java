package rocelab.observe.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.sample.TimeSeriesSampler;

/**
 * Receivers whose senders' congestion control held them below what the receiver's link could carry: every flow into
 * the receiver (at least two) spent at least {@link #HELD_SHARE} of its life with data ready that its rate held back
 * ({@link FlowRecord#rateHeldPs}, measured at its sender), while, over the sampled interval when all of them were
 * sending, the switch port towards the receiver transmitted at most {@link #MAX_UTILISATION} of its capacity
 * (links.csv's byte counter at two sample times, exact), and no other switch port on any of their paths carried more
 * ({@link PathLoad}: a flow whose path had a full link, an oversubscribed uplink or a slower link, was held by that
 * link's share, which its congestion control rightly found, not by its rate while the network had room). Each fact is
 * measured; none is inferred from the other. An
 * incast under a congestion control that cuts too deep shows here (DCQCN's paper profile at 8:1), one that keeps the
 * link full does not, however throttled its senders are.
 *
 * @param receiver the host the flows go to
 * @param switchIndex the switch (index among switches) whose port {@code port} sends to it
 * @param flows how many flows went to it
 * @param minShare the least share of a flow's life its rate held it back (0..1)
 * @param maxShare the greatest
 * @param utilisation what the port towards the receiver carried of its capacity from {@code fromPs} to {@code toPs}
 * @param fromPs the first sample time at which every flow had started
 * @param toPs the last sample time before the first of them ended
 * @param pausedWaitPs the flows' waits behind PFC pauses, summed over flows and hops (0 without PFC)
 * @param pathUtilisation the greatest share of its capacity any switch port on the flows' paths carried meanwhile
 */
public record HeldByRate(int receiver, int switchIndex, int port, int flows, double minShare, double maxShare,
        double utilisation, long fromPs, long toPs, long pausedWaitPs, double pathUtilisation) {
    /** Share of its life a flow's rate held it back, at least, for its receiver to count. */
    public static final double HELD_SHARE = 0.5;
    /** Share of its capacity the receiver's link, and every link of the flows' paths, carried, at most, to count. */
    public static final double MAX_UTILISATION = 0.7;

    /**
     * The receivers whose senders were held back by their rates while the receiver's link had room, least used link
     * first; empty at flow level, without sampling (no links.csv) or when none was.
     */
    public static List<HeldByRate> find(List<FlowRecord> flows, long endPs, Network network, TimeSeriesSampler series,
            PfcLog pfc) {
        List<HeldByRate> out = new ArrayList<>();
        Topology topo = network.topology();
        if (series == null || flows.isEmpty() || series.lastSamplePs() < 0) {
            return out;
        }
        int hosts = topo.hostCount();
        int[] count = new int[hosts];
        boolean[] allHeld = new boolean[hosts];
        double[] minShare = new double[hosts];
        double[] maxShare = new double[hosts];
        long[] lastStart = new long[hosts];
        long[] firstEnd = new long[hosts];
        long[] paused = new long[hosts];
        Arrays.fill(allHeld, true);
        Arrays.fill(minShare, Double.MAX_VALUE);
        Arrays.fill(firstEnd, Long.MAX_VALUE);
        for (FlowRecord f : flows) {
            int h = f.dst();
            if (h < 0 || h >= hosts || !allHeld[h]) {
                continue;
            }
            long end = f.completed() ? f.finishPs() : endPs;
            long life = end - f.startPs();
            if (f.rateHeldPs() < 0 || f.startPs() < 0 || life <= 0 || f.failed()) {
                allHeld[h] = false; // a flow whose holds are unknown (or that failed): nothing is said of its receiver
                continue;
            }
            double share = (double) f.rateHeldPs() / life;
            if (share < HELD_SHARE) {
                allHeld[h] = false;
                continue;
            }
            count[h]++;
            minShare[h] = Math.min(minShare[h], share);
            maxShare[h] = Math.max(maxShare[h], share);
            lastStart[h] = Math.max(lastStart[h], f.startPs());
            firstEnd[h] = Math.min(firstEnd[h], end);
            paused[h] += pfc == null ? 0 : pfc.pausedWaitPs(f.id());
        }
        long interval = series.intervalPs();
        List<Integer> candidates = new ArrayList<>();
        List<long[]> windows = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            if (!allHeld[h] || count[h] < 2 || topo.portCount(h) != 1 || topo.isHost(topo.peer(h, 0).node())) {
                continue;
            }
            long from = (lastStart[h] + interval - 1) / interval * interval;
            long to = Math.min(firstEnd[h], series.lastSamplePs()) / interval * interval;
            if (to > from) {
                candidates.add(h);
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
            Topology.End far = topo.peer(candidates.get(i), 0);
            for (int k = 0; k < 2; k++) {
                sw[2 * i + k] = far.node() - hosts;
                port[2 * i + k] = far.port();
                at[2 * i + k] = windows.get(i)[k];
            }
        }
        long[] tx = series.txBytesAt(sw, port, at);
        PathLoad[] load = pathLoads(flows, network, series, candidates, at);
        for (int i = 0; i < n; i++) {
            int h = candidates.get(i);
            long from = at[2 * i];
            long to = at[2 * i + 1];
            long rate = topo.edgeAt(sw[2 * i] + hosts, port[2 * i]).parameters().rateBps();
            double utilisation = (tx[2 * i + 1] - tx[2 * i]) * 8.0 / (rate * ((to - from) / 1e12));
            double path = Math.max(utilisation, load[i].utilisation());
            if (path <= MAX_UTILISATION) {
                out.add(new HeldByRate(h, sw[2 * i], port[2 * i], count[h], minShare[h], maxShare[h], utilisation,
                        from, to, paused[h], path));
            }
        }
        out.sort(Comparator.comparingDouble(HeldByRate::utilisation).thenComparingInt(HeldByRate::receiver));
        return out;
    }

    /** The busiest link on the paths of each candidate receiver's flows over its window ({@link PathLoad}). */
    private static PathLoad[] pathLoads(List<FlowRecord> flows, Network network, TimeSeriesSampler series,
            List<Integer> candidates, long[] at) {
        int n = candidates.size();
        int[] index = new int[network.topology().hostCount()];
        Arrays.fill(index, -1);
        List<List<Integer>> qps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            index[candidates.get(i)] = i;
            qps.add(new ArrayList<>());
        }
        for (FlowRecord f : flows) {
            int h = f.dst();
            if (h >= 0 && h < index.length && index[h] >= 0 && f.queuePair() >= 0
                    && !qps.get(index[h]).contains(f.queuePair())) {
                qps.get(index[h]).add(f.queuePair());
            }
        }
        List<int[]> queuePairs = new ArrayList<>();
        long[] from = new long[n];
        long[] to = new long[n];
        long[] receiverBps = new long[n];
        Topology topo = network.topology();
        for (int i = 0; i < n; i++) {
            queuePairs.add(qps.get(i).stream().mapToInt(Integer::intValue).toArray());
            from[i] = at[2 * i];
            to[i] = at[2 * i + 1];
            receiverBps[i] = topo.edgeAt(candidates.get(i), 0).parameters().rateBps();
        }
        return PathLoad.busiest(network, series, queuePairs, from, to, receiverBps);
    }
}
