package rocelab.workload.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import rocelab.workload.graph.TaskGraph;

/**
 * The RDMA WRITEs one perftest run posts (linux-rdma/perftest, {@code ib_write_bw} and {@code ib_write_lat}), with the
 * rules its loops post them by, so that the simulated fabric is driven as the tool drives a real one.
 *
 * <p>Bandwidth ({@code ib_write_bw}): the client posts {@code iterations} WRITEs of {@code sizeBytes} on each of
 * {@code queuePairs} QPs to the server. A QP keeps at most {@code txDepth} WRITEs outstanding, and it learns of their
 * completions only from the signalled ones: every {@code cqMod}-th WRITE and the last ({@code run_iter_bw}'s CQ
 * moderation). So WRITE m of a QP, from {@code txDepth} on, is posted when the signalled WRITE that makes
 * {@code m - txDepth + 1} completions known has been acknowledged.
 *
 * <p>Latency ({@code ib_write_lat}): a ping-pong on one QP each way. Each side posts its next WRITE once its last one
 * has completed (the ACK) and the other side's WRITE has landed in its memory ({@code run_iter_lat_write}: wait for
 * the peer's byte, post, poll the completion). perftest's server, the side started without a host name, posts first
 * ({@code !(scnt < 1 && machine == SERVER)} skips its first wait); here the client does, so that the client's posts
 * are the initiator's. The two are the same ping-pong with the names swapped: each side's posts are one round trip
 * apart, so both sides' tables read the same.
 *
 * <p>Bidirectional ({@code ib_write_bw -b}): the server runs the same loop towards the client at the same time, on QPs
 * of its own.
 *
 * <p>The flows are added client's QPs first, each QP's WRITEs in order, then (bidirectional) the server's; in latency
 * mode client and server WRITEs alternate, the client's first.
 *
 * @param dscp the DSCP of the WRITEs and their ACKs (perftest's {@code --tclass} is DSCP << 2), or -1 for the RNIC's
 */
public record PerftestTraffic(int client, int server, long sizeBytes, int iterations, int queuePairs, int txDepth,
        int cqMod, boolean latency, boolean bidirectional, int dscp) implements TrafficSpec {
    public PerftestTraffic {
        if (client == server || client < 0 || server < 0) {
            throw new IllegalArgumentException("perftest needs two different hosts, got " + client + " and " + server);
        }
        if (sizeBytes < 1 || iterations < 1 || queuePairs < 1 || txDepth < 1 || cqMod < 1 || cqMod > txDepth) {
            throw new IllegalArgumentException("perftest: size, iterations, QPs, TX depth and CQ moderation must be"
                    + " positive, the moderation at most the depth");
        }
        if (latency && (queuePairs != 1 || bidirectional)) {
            throw new IllegalArgumentException("the latency test runs on one QP each way");
        }
        if (dscp < -1 || dscp > 63) {
            throw new IllegalArgumentException("DSCP must be 0..63, got " + dscp);
        }
    }

    @Override
    public void addTo(TaskGraph graph, int hostCount, SplittableRandom random) {
        if (latency) {
            addPingPong(graph);
            return;
        }
        addWriter(graph, client, server);
        if (bidirectional) {
            addWriter(graph, server, client);
        }
    }

    /** One side's loop of {@code ib_write_bw}: its QPs, each keeping at most the depth outstanding. */
    private void addWriter(TaskGraph graph, int from, int to) {
        for (int q = 0; q < queuePairs; q++) {
            int connection = graph.newConnection();
            int[] task = new int[iterations];
            for (int m = 0; m < iterations; m++) {
                int after = m < txDepth ? TaskGraph.NONE : TaskGraph.acked(task[completionNeeded(m)]);
                task[m] = graph.flow(from, to, sizeBytes, dscp, connection, 0, after);
            }
        }
    }

    /**
     * The WRITE of a QP whose signalled completion lets WRITE {@code m} be posted: the first signalled one (index
     * {@code cqMod - 1}, {@code 2 cqMod - 1}, ...) at or after WRITE {@code m - txDepth}. Always before {@code m}, since
     * the moderation is at most the depth.
     */
    public int completionNeeded(int m) {
        int known = m - txDepth + 1;
        return (known + cqMod - 1) / cqMod * cqMod - 1;
    }

    private void addPingPong(TaskGraph graph) {
        int toServer = graph.newConnection();
        int toClient = graph.newConnection();
        int ping = TaskGraph.NONE;
        int pong = TaskGraph.NONE;
        for (int k = 0; k < iterations; k++) {
            // The client's next WRITE waits for its last one's completion and for the server's answer to it.
            int nextPing = graph.flow(client, server, sizeBytes, dscp, toServer, 0,
                    ping == TaskGraph.NONE ? TaskGraph.NONE : TaskGraph.acked(ping), pong);
            // The server answers once the client's WRITE has landed, after its own last WRITE completed.
            pong = graph.flow(server, client, sizeBytes, dscp, toClient, 0, nextPing,
                    pong == TaskGraph.NONE ? TaskGraph.NONE : TaskGraph.acked(pong));
            ping = nextPing;
        }
    }

    /** The flows without their dependencies (what {@link #addTo} posts, for sizing and listing). */
    @Override
    public List<FlowSpec> expand(int hostCount, SplittableRandom random) {
        List<FlowSpec> flows = new ArrayList<>();
        if (latency) {
            for (int k = 0; k < iterations; k++) {
                flows.add(new FlowSpec(client, server, sizeBytes, 0, dscp));
                flows.add(new FlowSpec(server, client, sizeBytes, 0, dscp));
            }
            return flows;
        }
        for (int side = 0; side < (bidirectional ? 2 : 1); side++) {
            for (int i = 0; i < queuePairs * iterations; i++) {
                flows.add(side == 0 ? new FlowSpec(client, server, sizeBytes, 0, dscp)
                        : new FlowSpec(server, client, sizeBytes, 0, dscp));
            }
        }
        return flows;
    }

    @Override
    public long flowCount(int hostCount) {
        return latency ? 2L * iterations : (bidirectional ? 2L : 1L) * queuePairs * iterations;
    }

    @Override
    public int maxHostIndex() {
        return Math.max(client, server);
    }

    @Override
    public long earliestStartPs() {
        return 0;
    }
}
