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
    /**
     * One ring phase of the hierarchical form: {@code op} of {@code size} bytes on each of {@code rings} (each the
     * call's rank indexes of one ring: a server's GPUs, or one rail's GPUs across the servers).
     */
    record Phase(CollectiveOp op, long size, List<int[]> rings) {}

    /**
     * The phases of {@code call} in order, or null when it is a plain ring (one server, or one GPU per server). Shared
     * by {@link #emit} and the streamed emission ({@link StreamedCollective}), so both build the same rings.
     */
    static List<Phase> plan(TaskGraph graph, Collective call) {
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
        if (servers.size() == 1 || perServer == 1) {
            return null;
        }
        long shard = Math.max(1, call.sizeBytes() / perServer);
        List<int[]> inside = new ArrayList<>();
        for (List<Integer> members : servers) {
            inside.add(members.stream().mapToInt(Integer::intValue).toArray());
        }
        List<int[]> across = new ArrayList<>();
        for (int local = 0; local < perServer; local++) {
            int[] members = new int[servers.size()];
            for (int k = 0; k < members.length; k++) {
                members[k] = servers.get(k).get(local);
            }
            across.add(members);
        }
        long size = call.sizeBytes();
        return switch (call.op()) {
            case ALL_REDUCE -> List.of(new Phase(CollectiveOp.REDUCE_SCATTER, size, inside),
                    new Phase(CollectiveOp.ALL_REDUCE, shard, across), new Phase(CollectiveOp.ALL_GATHER, size, inside));
            case ALL_GATHER -> List.of(new Phase(CollectiveOp.ALL_GATHER, shard, across),
                    new Phase(CollectiveOp.ALL_GATHER, size, inside));
            case REDUCE_SCATTER -> List.of(new Phase(CollectiveOp.REDUCE_SCATTER, size, inside),
                    new Phase(CollectiveOp.REDUCE_SCATTER, shard, across));
            default -> throw new IllegalArgumentException("no hierarchical form of " + call.op().title());
        };
    }

    /**
     * Throws IllegalArgumentException, with a message for the user, unless the servers of {@code graph} can serve
     * {@code call}: what {@link #emit} would refuse, found without writing a task (a 32,768-GPU call has hundreds of
     * millions of messages).
     */
    public static void check(TaskGraph graph, Collective call) {
        List<Phase> phases = plan(graph, call);
        for (Phase phase : phases == null ? List.<Phase>of() : phases) {
            for (int[] members : phase.rings()) {
                Collectives.check(ring(call, phase, members));
            }
        }
    }

    /** The ring call of one ring of a phase: its hosts, at least a byte per rank. */
    static Collective ring(Collective call, Phase phase, int[] members) {
        int[] hosts = new int[members.length];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = call.host(members[i]);
        }
        return new Collective(phase.op(), Algorithm.RING, hosts, Math.max(phase.size(), hosts.length), 0,
                call.channels(), call.dscp(), call.qpsPerConnection(), null);
    }

    @Override
    public int[] emit(TaskGraph graph, Collective call, int[] entry, Communicator communicator) {
        List<Phase> phases = plan(graph, call);
        if (phases == null) {
            return Collectives.emit(graph, new Collective(call.op(), Algorithm.RING, call.ranks(), call.sizeBytes(),
                    call.root(), call.channels(), call.dscp(), call.qpsPerConnection(), null), entry, communicator);
        }
        int[] done = entry;
        for (Phase phase : phases) {
            int[] next = new int[call.rankCount()];
            for (int[] members : phase.rings()) {
                int[] entries = new int[members.length];
                for (int i = 0; i < members.length; i++) {
                    entries[i] = done[members[i]];
                }
                int[] finished = Collectives.emit(graph, ring(call, phase, members), entries, communicator);
                for (int i = 0; i < members.length; i++) {
                    next[members[i]] = finished[i];
                }
            }
            done = next;
        }
        return done;
    }
}
