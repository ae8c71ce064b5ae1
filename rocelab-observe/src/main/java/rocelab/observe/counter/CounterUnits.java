package rocelab.observe.counter;

import java.util.TreeSet;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;

/**
 * What {@code counters.rate_cuts} and {@code counters.cnp_sent} count in a run, in the words of what counted them: each
 * queue pair's congestion control says what its cuts are, each receiving RNIC's notification point what its
 * notifications are. The controls count different events (a DCQCN cut at most once per decrease period, an HPCC
 * window update at most once per window of data, an IB CC index raise per BECN; a paced CNP frame against a flag on
 * an ACK), so a sweep or a compare that sets them side by side needs the unit of each.
 */
public final class CounterUnits {
    private CounterUnits() {}

    /** What the run's rate cuts are: each kind the QPs' controls count, "; " between kinds (sorted). */
    public static String rateCuts(Network network) {
        TreeSet<String> kinds = new TreeSet<>();
        for (int q = 0; q < network.queuePairs().size(); q++) {
            kinds.add(network.queuePairs().get(q).congestionControl().cutsCounted());
        }
        return kinds.isEmpty() ? "none: the run has no queue pairs" : String.join("; ", kinds);
    }

    /**
     * What the run's sent congestion notifications are: each kind the QPs' receiving RNICs send, "; " between kinds
     * (sorted); on InfiniBand ({@code infiniband}) the notifications are BECNs.
     */
    public static String cnpSent(Network network, boolean infiniband) {
        TreeSet<String> kinds = new TreeSet<>();
        for (int q = 0; q < network.queuePairs().size(); q++) {
            QueuePair qp = network.queuePairs().get(q);
            kinds.add(network.nic(qp.destinationHost()).notificationParameters().counted(infiniband));
        }
        return kinds.isEmpty() ? "none: the run has no queue pairs" : String.join("; ", kinds);
    }

    /** How many queue pairs have a control that limits their bytes in flight by a window (DCTCP, Swift, HPCC). */
    public static int windowLimited(Network network) {
        int n = 0;
        for (int q = 0; q < network.queuePairs().size(); q++) {
            n += network.queuePairs().get(q).congestionControl().windowed() ? 1 : 0;
        }
        return n;
    }
}
