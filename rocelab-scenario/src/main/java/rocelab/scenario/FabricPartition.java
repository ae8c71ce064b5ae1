package rocelab.scenario;

import java.util.Arrays;
import rocelab.fabric.topology.Topology;

/**
 * How a fabric is split over the partitions of a parallel run: every switch a host attaches to (a leaf) stays with
 * its hosts, so host links are never cut; the leaves of the hosts' first ports are dealt out in contiguous blocks of
 * equal size, a multi-plane fabric's leaves of the other planes follow their hosts, and the other switches (spines,
 * cores) go round robin. Only links between a leaf and the switches above it are cut.
 */
final class FabricPartition {
    private FabricPartition() {}

    /** How many partitions {@code topology} can have at most without cutting a host link: its leaves. */
    static int leaves(Topology topology) {
        return leafIndex(topology, new int[topology.nodeCount()]);
    }

    /** The partition of every node (hosts first, then switches) for {@code parts} partitions (at most the leaves). */
    static int[] of(Topology topology, int parts) {
        int[] leaf = new int[topology.nodeCount()];
        int leaves = leafIndex(topology, leaf);
        if (parts < 1 || parts > leaves) {
            throw new IllegalArgumentException(parts + " partitions of a fabric of " + leaves + " leaves");
        }
        int hosts = topology.hostCount();
        int[] out = new int[topology.nodeCount()];
        // A plane's copy of a leaf (a host's port p > 0) holds the same hosts as the first plane's: it goes with them.
        // Dealt round robin as a spine, it cut the host links of every plane but the first.
        int[] hostOf = new int[topology.nodeCount()];
        Arrays.fill(hostOf, -1);
        for (int h = hosts - 1; h >= 0; h--) {
            for (int p = 1; p < topology.portCount(h); p++) {
                hostOf[topology.peer(h, p).node()] = h;
            }
        }
        int other = 0;
        for (int s = hosts; s < topology.nodeCount(); s++) {
            out[s] = leaf[s] >= 0 ? (int) ((long) leaf[s] * parts / leaves)
                    : hostOf[s] >= 0 ? -1 : other++ % parts;
        }
        for (int h = 0; h < hosts; h++) {
            out[h] = out[topology.peer(h, 0).node()];
        }
        for (int s = hosts; s < topology.nodeCount(); s++) {
            if (out[s] < 0) {
                out[s] = out[hostOf[s]];
            }
        }
        return out;
    }

    /** Numbers the switches of host port 0 in the order of their first host (-1 for the others); returns how many. */
    private static int leafIndex(Topology topology, int[] leaf) {
        Arrays.fill(leaf, -1);
        int n = 0;
        for (int h = 0; h < topology.hostCount(); h++) {
            int s = topology.peer(h, 0).node();
            if (!topology.isHost(s) && leaf[s] < 0) {
                leaf[s] = n++;
            }
        }
        return n;
    }

    /** The smallest propagation delay of any link, at least 1 ps: what a frame put on any link takes at least. */
    static long lookaheadPs(Topology topology) {
        long min = Long.MAX_VALUE;
        for (Topology.Edge e : topology.edges()) {
            min = Math.min(min, e.parameters().delayPs());
        }
        return Math.max(1, min == Long.MAX_VALUE ? 1 : min);
    }
}
