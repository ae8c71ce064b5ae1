package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/**
 * AlltoAll and AlltoAllv with PXN (NCCL's PCI x NVLink, on by default since 2.12): to reach a GPU on rail j of
 * another server, the data first crosses NVLink to the local GPU on rail j, which sends it over its own RNIC, so
 * inter-server traffic stays rail-local in a rail-optimised fabric. Every message is posted at once, as for
 * {@code direct}, in {@link NcclChunks#P2P_CHUNK_BYTES} chunks; each chunk's network send waits for its NVLink hop.
 * Transfers inside a server go over NVLink directly. Meant for servers with `nvlink`; without it the first hop
 * crosses the fabric too. Each (proxy, destination) pair has its own connection per channel, and so has each (source,
 * destination) pair's first hop (to the proxy, or straight to a GPU of the same server).
 * Unlike {@code direct}, messages are not held to NCCL's 8-message window.
 */
public final class PxnAllToAllAlgorithm implements CollectiveAlgorithm {
    @Override
    public void check(Collective call) {
        if (call.op() != CollectiveOp.ALL_TO_ALL && call.op() != CollectiveOp.ALL_TO_ALLV) {
            throw new IllegalArgumentException("PXN runs AlltoAll only, not " + call.op().title());
        }
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        // PXN's connections (from each proxy, with the chain of its posts) stay the call's own: not kept.
        check(call);
        int n = call.rankCount();
        List<List<Integer>> ends = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Integer> e = new ArrayList<>();
            e.add(entry[i]);
            ends.add(e);
        }
        Map<Long, int[]> connections = new HashMap<>();
        // Each (channel, source, destination) pair's first hop, over NVLink to the proxy or straight to a GPU of the
        // same server, is one connection: its chunks go one after the other, as NCCL's point-to-point connection
        // moves them through its buffer. Without one every chunk was a transfer of its own, all posted at once and
        // sharing the GPU's NVLink out fairly, so each ended only when nearly all of them had: the proxy's first
        // network send waited out the whole NVLink phase (12 GPUs of 4 per server, 48 MB: 161 us of an idle RNIC,
        // 1.12x the ideal at both the flow and the packet level).
        Map<Long, Integer> firstHops = new HashMap<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                long pair = i == j ? 0 : AllToAllAlgorithm.pairBytes(call, i, j);
                if (pair <= 0) {
                    continue;
                }
                int src = call.host(i);
                int dst = call.host(j);
                boolean remote = graph.serverOf(src) != graph.serverOf(dst);
                int proxy = remote ? graph.sameServerHost(src, graph.localIndex(dst)) : src;
                if (proxy < 0) {
                    proxy = src;
                }
                int channels = (int) Math.max(1, Math.min(call.channels(), pair));
                for (int c = 0; c < channels; c++) {
                    long bytes = Collective.part(pair, channels, c);
                    long key = ((long) c * Integer.MAX_VALUE + proxy) * Integer.MAX_VALUE + dst;
                    int[] qps = connections.computeIfAbsent(key, k -> newConnection(graph, call));
                    boolean hops = proxy != src || !remote;
                    int firstHop = hops ? firstHops.computeIfAbsent(((long) c * Integer.MAX_VALUE + src)
                            * Integer.MAX_VALUE + dst, k -> graph.newConnection()) : -1;
                    for (int m = 0; m < NcclChunks.chunks(bytes, NcclChunks.P2P_CHUNK_BYTES); m++) {
                        long chunk = NcclChunks.chunk(bytes, NcclChunks.P2P_CHUNK_BYTES, m);
                        int hop = -1;
                        if (proxy != src) {
                            hop = graph.flow(src, proxy, chunk, call.dscp(), firstHop, 0, entry[i], entry[j]);
                        }
                        int perConnection = (qps.length - 1) / 2;
                        int slot = 1 + qps[0]++ % perConnection;
                        int qp = qps[slot];
                        int t;
                        if (remote) {
                            // The proxy posts a connection's messages in the order they were queued (NCCL's proxy
                            // progresses a connection's sends in order): each waits for the one queued before it on its
                            // queue pair too, so the NVLink hops of several local GPUs cannot reorder its posts.
                            int posted = graph.join(proxy, entry[i], entry[j], hop, qps[perConnection + slot]);
                            qps[perConnection + slot] = posted;
                            t = graph.flow(proxy, dst, chunk, call.dscp(), qp, 0, posted);
                        } else {
                            t = graph.flow(proxy, dst, chunk, call.dscp(), firstHop, 0, entry[i], entry[j], hop);
                        }
                        ends.get(i).add(TaskGraph.acked(t));
                        ends.get(j).add(t);
                    }
                }
            }
        }
        int[] done = new int[n];
        for (int i = 0; i < n; i++) {
            done[i] = graph.join(call.host(i), ends.get(i).stream().mapToInt(Integer::intValue).toArray());
        }
        return done;
    }

    /**
     * A connection's queue pairs: element 0 counts the messages sent on it (for the round robin), then the queue
     * pairs, then per queue pair the task that posted its last proxied message (-1: none yet).
     */
    private static int[] newConnection(TaskGraph graph, Collective call) {
        int q = call.qpsPerConnection();
        int[] qps = new int[1 + 2 * q];
        for (int k = 1; k <= q; k++) {
            qps[k] = graph.newConnection();
            qps[q + k] = -1;
        }
        return qps;
    }
}
