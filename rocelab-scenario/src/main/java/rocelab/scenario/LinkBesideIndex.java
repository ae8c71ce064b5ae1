package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.workload.graph.TaskGraph;
import rocelab.workload.graph.WorkloadDriver;

/**
 * What else of the workload sent data through the links between switches a collective's own data crossed, at the
 * same time ({@link BesideIndex} answers the same for the call's RNICs): a call whose flows share a leaf's uplink with another
 * item's bulk transfer takes longer than its ideal, which is the call alone, and the RNIC view does not see it. An
 * audit's two-rank AllReduce beside two 32 MB writes through one 4:1 uplink took 3.3x its ideal with nothing said.
 *
 * <p>By identity: each flow's switch ports are the ones its QP's data leave by under the switches' routes, the ECMP
 * choice for its entropy at each switch, up to a switch that spreads packets over its equal-cost ports per packet or
 * flowlet (which of them a flow's packets took, and so what lies beyond, is not kept: nothing from there is claimed),
 * and its span is its post to its delivery (or the run's end). With link events the routes change during the run, so
 * a run that has them claims nothing here. A port counts for another item only while one of its flows and one
 * of the call's flows were both on it: the intersection, per port, of their spans. Only ports towards another switch
 * count: a port towards one of the call's hosts is that RNIC's link, which {@link BesideIndex} covers. Packet level
 * only (the paths are the switches').
 *
 * <p>Built once per run: for every item and every switch port its flows crossed, the union of those flows' spans as
 * sorted disjoint intervals; a call is answered from the ports of its own flows.
 */
final class LinkBesideIndex {
    private final List<BesideIndex.Part> parts;
    private final WorkloadDriver driver;
    private final Topology topo;
    private final Network network;
    private final long endPs;
    /** Per QP id, its data's switch ports as keys ({@link #key}), found once (the flows of a connection share them). */
    private final Map<Integer, long[]> portsOfQp = new HashMap<>();
    /** Per part: the port keys its flows crossed, ascending. */
    private final long[][] keysOf;
    /** Per part, per key of {@link #keysOf}: the merged spans, {from0, to0, from1, to1, ...}. */
    private final long[][][] spans;

    LinkBesideIndex(WorkloadDriver driver, Network network, List<BesideIndex.Part> parts, long endPs) {
        this.parts = List.copyOf(parts);
        this.driver = driver;
        this.topo = network.topology();
        this.network = network;
        this.endPs = endPs;
        this.keysOf = new long[parts.size()][];
        this.spans = new long[parts.size()][][];
        for (int p = 0; p < parts.size(); p++) {
            Map<Long, long[]> byKey = spansByPort(parts.get(p).firstTask(), parts.get(p).endTask(), 0, Long.MAX_VALUE);
            long[] keys = byKey.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
            long[][] merged = new long[keys.length][];
            for (int i = 0; i < keys.length; i++) {
                merged[i] = byKey.get(keys[i]);
            }
            keysOf[p] = keys;
            spans[p] = merged;
        }
    }

    /** A switch port as one number: its switch's index, then the port. */
    private static long key(int switchIndex, int port) {
        return (long) switchIndex << 32 | port;
    }

    /**
     * The flows of tasks [{@code firstTask}, {@code endTask}): per switch port their data crossed, the union of their
     * spans clipped to [{@code fromPs}, {@code toPs}), as sorted disjoint intervals.
     */
    private Map<Long, long[]> spansByPort(int firstTask, int endTask, long fromPs, long toPs) {
        TaskGraph g = driver.graph();
        Map<Long, long[]> raw = new HashMap<>();
        Map<Long, Integer> lengths = new HashMap<>();
        for (int t = firstTask; t < endTask; t++) {
            int f = g.flowIndex(t);
            if (f < 0 || driver.taskStartPs(t) < 0) {
                continue; // not a flow, or never posted: it crossed nothing
            }
            long s = Math.max(fromPs, driver.taskStartPs(t));
            long e = Math.min(toPs, driver.taskEndPs(t) >= 0 ? driver.taskEndPs(t) : endPs);
            QueuePair qp = driver.queuePair(f);
            if (e <= s || qp == null) {
                continue;
            }
            for (long k : portsOf(qp.id())) {
                long[] a = raw.get(k);
                int n = lengths.getOrDefault(k, 0);
                if (a == null || n == a.length) {
                    a = Arrays.copyOf(a == null ? new long[0] : a, Math.max(8, 2 * n));
                    raw.put(k, a);
                }
                a[n] = s;
                a[n + 1] = e;
                lengths.put(k, n + 2);
            }
        }
        Map<Long, long[]> out = new HashMap<>();
        for (var entry : raw.entrySet()) {
            out.put(entry.getKey(), BesideIndex.merge(entry.getValue(), lengths.get(entry.getKey())));
        }
        return out;
    }

    /**
     * The switch ports towards another switch that QP {@code id}'s data leave by, as keys, in path order: the walk
     * from its host follows each switch's one port for the QP (the ECMP choice for its entropy) and stops at a switch
     * that may spread its packets over several (spraying, adaptive choices, flowlets), since which of them the packets
     * took, and so what lies beyond, is not kept; a host with several ports (planes) gives none. Ports towards a host
     * are left out: one towards a call's host is that RNIC's link, which the RNIC view ({@link BesideIndex}) already
     * counts every other item's flows to.
     */
    private long[] portsOf(int id) {
        return portsOfQp.computeIfAbsent(id, k -> {
            QueuePair qp = network.queuePairs().get(k);
            int src = qp.sourceHost();
            if (topo.portCount(src) != 1) {
                return new long[0];
            }
            long[] keys = new long[8];
            int n = 0;
            int at = topo.peer(src, 0).node();
            for (int hops = 0; !topo.isHost(at) && hops < topo.nodeCount(); hops++) {
                int s = at - topo.hostCount();
                int port = network.switchAt(s).forwardingPort(src, qp.destinationHost(), qp.entropy());
                if (port < 0) {
                    break;
                }
                int next = topo.peer(at, port).node();
                if (!topo.isHost(next)) {
                    if (n == keys.length) {
                        keys = Arrays.copyOf(keys, 2 * n);
                    }
                    keys[n++] = key(s, port);
                }
                at = next;
            }
            return Arrays.copyOf(keys, n);
        });
    }

    /**
     * The parts other than {@code own} whose flows were on a switch port at the same time as a flow of the call's
     * tasks [{@code firstTask}, {@code endTask}), within the call's span [{@code startPs}, {@code endPs}): how many,
     * the one there longest (the union over ports of the times both were on one) for how long, and the port where
     * that one shared most.
     */
    CollectiveRecord.OnLinks of(int own, int firstTask, int endTask, long startPs, long endPs) {
        Map<Long, long[]> mine = spansByPort(firstTask, endTask, startPs, endPs);
        int count = 0;
        long longest = 0;
        String name = "";
        String at = "";
        for (int p = 0; p < parts.size(); p++) {
            if (p == own) {
                continue;
            }
            List<long[]> shared = new ArrayList<>();
            int n = 0;
            long bestAtPort = 0;
            long bestKey = -1;
            for (var entry : mine.entrySet()) {
                int i = Arrays.binarySearch(keysOf[p], entry.getKey());
                if (i < 0) {
                    continue;
                }
                long[] both = intersect(entry.getValue(), spans[p][i]);
                long here = BesideIndex.measure(both);
                if (here > bestAtPort || here == bestAtPort && here > 0 && entry.getKey() < bestKey) {
                    bestAtPort = here;
                    bestKey = entry.getKey();
                }
                shared.add(both);
                n += both.length;
            }
            long[] all = new long[n];
            int k = 0;
            for (long[] s : shared) {
                System.arraycopy(s, 0, all, k, s.length);
                k += s.length;
            }
            long covered = BesideIndex.measure(BesideIndex.merge(all, n));
            if (covered > 0) {
                count++;
                if (covered > longest) {
                    longest = covered;
                    name = parts.get(p).name();
                    at = portName(bestKey);
                }
            }
        }
        return count == 0 ? CollectiveRecord.OnLinks.NONE : new CollectiveRecord.OnLinks(count, name, longest, at);
    }

    /**
     * The first switch port towards another switch (on {@code a}'s way) that the data of both QPs leave by, named
     * ({@code leaf0 port 4 (towards spine0)}), or null when their ways inside the fabric share none.
     */
    String sharedPort(int a, int b) {
        long[] other = portsOf(b);
        for (long k : portsOf(a)) {
            for (long o : other) {
                if (o == k) {
                    return portName(k);
                }
            }
        }
        return null;
    }

    /** {@code leaf0 port 4 (towards spine0)}. */
    private String portName(long key) {
        int node = (int) (key >>> 32) + topo.hostCount();
        int port = (int) key;
        return topo.nodeName(node) + " port " + port + " (towards " + topo.nodeName(topo.peer(node, port).node()) + ")";
    }

    /** The intersection of two sets of sorted disjoint intervals, as one. */
    static long[] intersect(long[] a, long[] b) {
        long[] out = new long[a.length + b.length];
        int m = 0;
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            long from = Math.max(a[i], b[j]);
            long to = Math.min(a[i + 1], b[j + 1]);
            if (from < to) {
                out[m] = from;
                out[m + 1] = to;
                m += 2;
            }
            if (a[i + 1] < b[j + 1]) {
                i += 2;
            } else {
                j += 2;
            }
        }
        return Arrays.copyOf(out, m);
    }
}
