package rocelab.workload.collective;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.workload.graph.TaskGraph;

/**
 * The hierarchical form of AllReduce, AllGather and ReduceScatter for servers with several GPUs, as NCCL's
 * topology-aware rings and trees behave on rail-optimised clusters: the GPUs of a server work over their
 * scale-up links (NVLink), and between servers only GPUs with the same local index talk, so every inter-server
 * transfer stays on one rail and each RNIC carries 1/G of the data.
 * <ul>
 *   <li>AllReduce: ReduceScatter inside each server (S), AllReduce of S/G among the GPUs with the same local
 *       index (one per server), AllGather inside each server (S). Per RNIC: 2(M-1)/M x S/G.</li>
 *   <li>AllGather: AllGather of S/G among same-index GPUs, then AllGather inside each server (S).</li>
 *   <li>ReduceScatter: ReduceScatter inside each server (S), then of S/G among same-index GPUs.</li>
 * </ul>
 * Each phase is a ring. Every server must hold the same number of ranks; with one server or one GPU per server
 * this is a plain ring.
 */
public final class HierarchicalAlgorithm implements CollectiveAlgorithm {
    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry) {
        Map<Integer, List<Integer>> byServer = new LinkedHashMap<>();
        for (int i = 0; i < call.rankCount(); i++) {
            byServer.computeIfAbsent(graph.serverOf(call.host(i)), k -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> servers = new ArrayList<>(byServer.values());
        int perServer = servers.get(0).size();
        for (List<Integer> s : servers) {
            if (s.size() != perServer) {
                throw new IllegalArgumentException("a hierarchical " + call.op().title() + " needs the same number of"
                        + " ranks on every server, got " + servers.stream().map(List::size).toList());
            }
        }
        Collective ring = new Collective(call.op(), Algorithm.RING, call.ranks(), call.sizeBytes(), call.root(),
                call.channels(), call.dscp(), call.qpsPerConnection(), null);
        if (servers.size() == 1 || perServer == 1) {
            return Collectives.emit(graph, ring, entry);
        }
        long shard = Math.max(1, call.sizeBytes() / perServer);
        int[] done = entry;
        switch (call.op()) {
            case ALL_REDUCE -> {
                done = inside(graph, call, servers, CollectiveOp.REDUCE_SCATTER, call.sizeBytes(), done);
                done = across(graph, call, servers, CollectiveOp.ALL_REDUCE, shard, done);
                done = inside(graph, call, servers, CollectiveOp.ALL_GATHER, call.sizeBytes(), done);
            }
            case ALL_GATHER -> {
                done = across(graph, call, servers, CollectiveOp.ALL_GATHER, shard, done);
                done = inside(graph, call, servers, CollectiveOp.ALL_GATHER, call.sizeBytes(), done);
            }
            case REDUCE_SCATTER -> {
                done = inside(graph, call, servers, CollectiveOp.REDUCE_SCATTER, call.sizeBytes(), done);
                done = across(graph, call, servers, CollectiveOp.REDUCE_SCATTER, shard, done);
            }
            default -> throw new IllegalArgumentException("no hierarchical form of " + call.op().title());
        }
        return done;
    }

    /** One ring per server over its own ranks. */
    private static int[] inside(TaskGraph g, Collective call, List<List<Integer>> servers, CollectiveOp op, long size,
            int[] entry) {
        int[] done = new int[call.rankCount()];
        for (List<Integer> members : servers) {
            phase(g, call, members, op, size, entry, done);
        }
        return done;
    }

    /** One ring per local index over the servers: the GPUs of one rail. */
    private static int[] across(TaskGraph g, Collective call, List<List<Integer>> servers, CollectiveOp op, long size,
            int[] entry) {
        int[] done = new int[call.rankCount()];
        for (int local = 0; local < servers.get(0).size(); local++) {
            List<Integer> members = new ArrayList<>();
            for (List<Integer> s : servers) {
                members.add(s.get(local));
            }
            phase(g, call, members, op, size, entry, done);
        }
        return done;
    }

    private static void phase(TaskGraph g, Collective call, List<Integer> members, CollectiveOp op, long size,
            int[] entry, int[] done) {
        int[] hosts = new int[members.size()];
        int[] entries = new int[members.size()];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = call.host(members.get(i));
            entries[i] = entry[members.get(i)];
        }
        long bytes = Math.max(size, hosts.length);
        int[] finished = Collectives.emit(g, new Collective(op, Algorithm.RING, hosts, bytes, 0, call.channels(),
                call.dscp(), call.qpsPerConnection(), null), entries);
        for (int i = 0; i < hosts.length; i++) {
            done[members.get(i)] = finished[i];
        }
    }
}
