package rocelab.observe.flow;

import java.util.ArrayList;
import java.util.List;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.sample.TimeSeriesSampler;
import rocelab.observe.victim.FlowPaths;

/**
 * How busy the links of some flows' paths were over a window, for {@link HeldByRate} and {@link HeldAlone}: a flow
 * held back by its rate "while the link had room" is only told when every link its data crossed had room, not only
 * the receiver's. The path is the one its packets take by construction (the switches' forwarding for its QP's
 * entropy, every equal-cost port where a switch spreads them: {@link FlowPaths#dataPorts}); each switch port's load
 * over the window is measured (links.csv's byte counter at the window's two sample times). The sender's own link is
 * not sampled: it counts as busy when it is slower than the receiver's link, the one the rate is compared with.
 *
 * @param utilisation the greatest share of its capacity a switch port on the paths carried over the window
 *     ({@link Double#MAX_VALUE} when a sender's link is slower than the receiver's)
 * @param switchIndex the switch (index among switches) of that port (-1 for a sender's link)
 * @param port that port
 */
record PathLoad(double utilisation, int switchIndex, int port) {
    /**
     * A load that rules the claim out: a sender's own (unsampled) link slower than the receiver's, or a flow whose QP
     * (so whose path) is not known.
     */
    private static final PathLoad RULED_OUT = new PathLoad(Double.MAX_VALUE, -1, -1);

    /**
     * Per window {@code i} (from {@code fromPs[i]} to {@code toPs[i]}, multiples of the sampling interval), the
     * busiest port on the paths of the queue pairs {@code queuePairs.get(i)}, whose receiver's link carries
     * {@code receiverBps[i]}.
     */
    static PathLoad[] busiest(Network network, TimeSeriesSampler series, List<int[]> queuePairs, long[] fromPs,
            long[] toPs, long[] receiverBps) {
        Topology topo = network.topology();
        FlowPaths paths = new FlowPaths(network);
        int n = queuePairs.size();
        PathLoad[] out = new PathLoad[n];
        List<int[]> asked = new ArrayList<>();
        List<Integer> owner = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int qp : queuePairs.get(i)) {
                if (qp < 0) {
                    out[i] = RULED_OUT;
                    continue;
                }
                int src = network.queuePairs().get(qp).sourceHost();
                for (int p = 0; p < topo.portCount(src); p++) {
                    if (topo.edgeAt(src, p).parameters().rateBps() < receiverBps[i]) {
                        out[i] = RULED_OUT;
                    }
                }
                for (int[] sp : paths.dataPorts(qp)) {
                    asked.add(sp);
                    owner.add(i);
                }
            }
        }
        int m = asked.size();
        int[] sw = new int[2 * m];
        int[] port = new int[2 * m];
        long[] at = new long[2 * m];
        for (int k = 0; k < m; k++) {
            int i = owner.get(k);
            sw[2 * k] = asked.get(k)[0];
            sw[2 * k + 1] = asked.get(k)[0];
            port[2 * k] = asked.get(k)[1];
            port[2 * k + 1] = asked.get(k)[1];
            at[2 * k] = fromPs[i];
            at[2 * k + 1] = toPs[i];
        }
        long[] tx = series.txBytesAt(sw, port, at);
        for (int k = 0; k < m; k++) {
            int i = owner.get(k);
            if (out[i] == RULED_OUT) {
                continue;
            }
            long rate = topo.edgeAt(sw[2 * k] + topo.hostCount(), port[2 * k]).parameters().rateBps();
            double used = (tx[2 * k + 1] - tx[2 * k]) * 8.0 / (rate * ((toPs[i] - fromPs[i]) / 1e12));
            if (out[i] == null || used > out[i].utilisation()) {
                out[i] = new PathLoad(used, sw[2 * k], port[2 * k]);
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] == null) {
                out[i] = new PathLoad(0, -1, -1);
            }
        }
        return out;
    }
}
