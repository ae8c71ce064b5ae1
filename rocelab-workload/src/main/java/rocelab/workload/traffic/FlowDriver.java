package rocelab.workload.traffic;

import java.util.Arrays;
import java.util.List;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.QueuePair;

/**
 * Drives traffic: each flow is one RDMA WRITE, on its own queue pair or on a connection it shares with other flows,
 * posted at its start time or when the flow it waits for has been delivered (the steps of a collective). Keeps one
 * pending wake-up (the next start) and records, per flow, when it was posted, when the receiver had every byte and
 * when the sender saw the last ACK (the flow completion time). Stops the simulation when every flow has finished.
 */
public final class FlowDriver implements EventHandler, MessageListener {
    private static final int START = 1;
    private static final long NOT_YET = -1;

    private final Simulator sim;
    private final int handlerId;
    private final FlowSpec[] flows;
    private final QueuePair[] queuePairs;
    private final int[] startOrder;
    private final int[][] dependents;
    private final long[] startedPs;
    private final long[] deliveredPs;
    private final long[] completedPs;
    private final boolean[] failed;
    private final java.util.Map<Integer, List<Integer>> flowsOfQueuePair = new java.util.HashMap<>();
    private int nextToStart;
    private int started;
    private int finished;
    private long lastFinishPs;

    public FlowDriver(Network network, List<FlowSpec> flowList) {
        this.sim = network.simulator();
        this.handlerId = sim.register(this);
        this.flows = flowList.toArray(new FlowSpec[0]);
        int n = flows.length;
        this.queuePairs = new QueuePair[n];
        this.startedPs = new long[n];
        this.deliveredPs = new long[n];
        this.completedPs = new long[n];
        this.failed = new boolean[n];
        Arrays.fill(startedPs, NOT_YET);
        Arrays.fill(deliveredPs, NOT_YET);
        Arrays.fill(completedPs, NOT_YET);
        java.util.Map<Integer, QueuePair> connections = new java.util.HashMap<>();
        List<List<Integer>> deps = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            FlowSpec f = flows[i];
            QueuePair qp = f.connection() >= 0 ? connections.get(f.connection()) : null;
            if (qp == null) {
                qp = network.connect(f.src(), f.dst(), this, f.dscp());
                if (f.connection() >= 0) {
                    connections.put(f.connection(), qp);
                }
            }
            queuePairs[i] = qp;
            flowsOfQueuePair.computeIfAbsent(qp.id(), k -> new java.util.ArrayList<>()).add(i);
            deps.add(new java.util.ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            int a = flows[i].after();
            if (a >= n || a == i) {
                throw new IllegalArgumentException("flow " + i + " waits for flow " + a + ", which cannot be");
            }
            if (a >= 0) {
                deps.get(a).add(i);
            }
        }
        this.dependents = new int[n][];
        for (int i = 0; i < n; i++) {
            dependents[i] = deps.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        this.startOrder = java.util.stream.IntStream.range(0, n).filter(i -> flows[i].after() < 0).boxed()
                .sorted((a, b) -> Long.compare(flows[a].startPs(), flows[b].startPs()))
                .mapToInt(Integer::intValue).toArray();
        if (startOrder.length > 0) {
            sim.schedule(flows[startOrder[0]].startPs(), handlerId, START, 0L);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        while (nextToStart < startOrder.length && flows[startOrder[nextToStart]].startPs() <= nowPs) {
            post(nowPs, startOrder[nextToStart++]);
        }
        if (nextToStart < startOrder.length) {
            sim.schedule(flows[startOrder[nextToStart]].startPs(), handlerId, START, 0L);
        }
    }

    private void post(long nowPs, int f) {
        startedPs[f] = nowPs;
        started++;
        queuePairs[f].postWrite(nowPs, flows[f].sizeBytes(), f);
    }

    @Override
    public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
        int f = (int) cookie;
        deliveredPs[f] = nowPs;
        for (int d : dependents[f]) {
            post(nowPs, d);
        }
    }

    @Override
    public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
        completedPs[(int) cookie] = nowPs;
        finish(nowPs);
    }

    /** Every unfinished flow of the QP fails, and so do the flows that were waiting for them. */
    @Override
    public void onQueuePairError(long nowPs, int queuePair) {
        for (int f : flowsOfQueuePair.getOrDefault(queuePair, List.of())) {
            fail(nowPs, f);
        }
    }

    private void fail(long nowPs, int f) {
        if (failed[f] || completedPs[f] >= 0) {
            return;
        }
        failed[f] = true;
        finish(nowPs);
        if (deliveredPs[f] < 0) {
            for (int d : dependents[f]) {
                fail(nowPs, d);
            }
        }
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
        return started;
    }

    /** When the flow was posted (its start time, or when the flow it waited for was delivered), or -1. */
    public long startedPs(int i) {
        return startedPs[i];
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
