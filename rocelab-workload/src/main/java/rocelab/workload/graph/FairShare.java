package rocelab.workload.graph;

import java.util.PriorityQueue;

/**
 * Processor sharing of one sender's link among its messages, as an RNIC's round robin over active queue pairs (or
 * a GPU's NVLink ports) shares it: with k messages in progress each gets 1/k of the rate. Kept in virtual time (the
 * service a single message would have received since the start), so an arrival or a departure costs a heap
 * operation and one rescheduled wake-up per port; stale wake-ups are recognised by a version number. Used where
 * no packets are simulated: NVLink, and the RNICs in ideal-network mode. Not on the packet path.
 */
final class FairShare {
    /** Called when a message has been fully sent. */
    interface Done {
        void sent(long nowPs, int task);
    }

    private final int ports;
    private final double[] virtualPs;
    private final long[] updatedPs;
    private final int[] active;
    private final int[] version;
    private final PriorityQueue<double[]>[] queues;

    @SuppressWarnings("unchecked")
    FairShare(int ports) {
        this.ports = ports;
        this.virtualPs = new double[ports];
        this.updatedPs = new long[ports];
        this.active = new int[ports];
        this.version = new int[ports];
        this.queues = new PriorityQueue[ports];
    }

    /** Starts sending a message that alone would take {@code workPs}; returns when the port next needs a wake-up. */
    long add(int port, long nowPs, int task, long workPs) {
        advance(port, nowPs);
        if (queues[port] == null) {
            queues[port] = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        }
        queues[port].add(new double[] {virtualPs[port] + workPs, task});
        active[port]++;
        return nextWakeUp(port, nowPs);
    }

    /** The version a wake-up for the port must carry to be current. */
    int version(int port) {
        return version[port];
    }

    /**
     * Handles a wake-up: reports every message that has finished and returns the next wake-up time, or -1 when the
     * port is idle or the wake-up was stale.
     */
    long wake(int port, int wakeVersion, long nowPs, Done done) {
        if (wakeVersion != version[port]) {
            return -1;
        }
        advance(port, nowPs);
        PriorityQueue<double[]> q = queues[port];
        // Half a picosecond of slack: virtual time is a double, wake-ups are whole picoseconds.
        while (!q.isEmpty() && q.peek()[0] <= virtualPs[port] + 0.5 * Math.max(1, active[port])) {
            double[] m = q.poll();
            active[port]--;
            done.sent(nowPs, (int) m[1]);
        }
        return nextWakeUp(port, nowPs);
    }

    private void advance(int port, long nowPs) {
        if (active[port] > 0) {
            virtualPs[port] += (double) (nowPs - updatedPs[port]) / active[port];
        }
        updatedPs[port] = nowPs;
    }

    private long nextWakeUp(int port, long nowPs) {
        version[port]++;
        PriorityQueue<double[]> q = queues[port];
        if (q == null || q.isEmpty()) {
            return -1;
        }
        double remaining = Math.max(0, q.peek()[0] - virtualPs[port]) * active[port];
        return nowPs + (long) Math.ceil(remaining);
    }

    int ports() {
        return ports;
    }
}
