package rocelab.workload.traffic;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.QueuePair;

/**
 * Drives plain traffic: each flow is one RDMA WRITE on its own queue pair, posted at its start time. Keeps one
 * pending wake-up (the next start) and records, per flow, when the receiver had every byte and when the sender
 * saw the last ACK (the flow completion time). Stops the simulation when every flow has finished.
 */
public final class FlowDriver implements EventHandler, MessageListener {
    private static final int START = 1;
    private static final long NOT_YET = -1;

    private final Simulator sim;
    private final int handlerId;
    private final FlowSpec[] flows;
    private final QueuePair[] queuePairs;
    private final int[] startOrder;
    private final long[] deliveredPs;
    private final long[] completedPs;
    private final boolean[] failed;
    private int nextToStart;
    private int finished;
    private long lastFinishPs;

    public FlowDriver(Network network, List<FlowSpec> flowList) {
        this.sim = network.simulator();
        this.handlerId = sim.register(this);
        this.flows = flowList.toArray(new FlowSpec[0]);
        int n = flows.length;
        this.queuePairs = new QueuePair[n];
        this.deliveredPs = new long[n];
        this.completedPs = new long[n];
        this.failed = new boolean[n];
        Arrays.fill(deliveredPs, NOT_YET);
        Arrays.fill(completedPs, NOT_YET);
        int firstQp = network.queuePairs().size();
        for (int i = 0; i < n; i++) {
            queuePairs[i] = network.connect(flows[i].src(), flows[i].dst(), this, flows[i].dscp());
            if (queuePairs[i].id() != firstQp + i) {
                throw new IllegalStateException("queue pairs of a flow driver must be contiguous");
            }
        }
        this.startOrder = java.util.stream.IntStream.range(0, n).boxed()
                .sorted((a, b) -> Long.compare(flows[a].startPs(), flows[b].startPs()))
                .mapToInt(Integer::intValue).toArray();
        if (n > 0) {
            sim.schedule(flows[startOrder[0]].startPs(), handlerId, START, 0L);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        while (nextToStart < startOrder.length && flows[startOrder[nextToStart]].startPs() <= nowPs) {
            int f = startOrder[nextToStart++];
            queuePairs[f].postWrite(nowPs, flows[f].sizeBytes(), f);
        }
        if (nextToStart < startOrder.length) {
            sim.schedule(flows[startOrder[nextToStart]].startPs(), handlerId, START, 0L);
        }
    }

    @Override
    public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
        deliveredPs[(int) cookie] = nowPs;
    }

    @Override
    public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
        completedPs[(int) cookie] = nowPs;
        finish(nowPs);
    }

    @Override
    public void onQueuePairError(long nowPs, int queuePair) {
        int f = queuePair - queuePairs[0].id();
        failed[f] = true;
        finish(nowPs);
    }

    private void finish(long nowPs) {
        finished++;
        lastFinishPs = nowPs;
        if (finished == flows.length) {
            sim.stop();
        }
    }

    public int flowCount() {
        return flows.length;
    }

    public FlowSpec flow(int i) {
        return flows[i];
    }

    public QueuePair queuePair(int i) {
        return queuePairs[i];
    }

    /** When the receiver had the whole message, or -1. */
    public long deliveredPs(int i) {
        return deliveredPs[i];
    }

    /** When the sender saw the last ACK (flow completion), or -1. */
    public long completedPs(int i) {
        return completedPs[i];
    }

    public boolean failed(int i) {
        return failed[i];
    }

    /** Flows whose message has been posted. */
    public int startedCount() {
        return nextToStart;
    }

    public int finishedCount() {
        return finished;
    }

    public boolean allFinished() {
        return finished == flows.length;
    }

    /** Time of the last completion or failure. */
    public long lastFinishPs() {
        return lastFinishPs;
    }
}
