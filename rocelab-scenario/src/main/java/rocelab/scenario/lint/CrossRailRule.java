package rocelab.scenario.lint;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import rocelab.fabric.topology.Topology;

/**
 * L25: transfers between servers whose GPUs sit on different rails. A server with several RNICs (a rail-optimized
 * fabric: NIC g of every server on the leaf of rail g) can reach another server's GPU on any rail through that GPU's
 * own rail, so NCCL keeps its network transfers on one rail there: a ring meets each next server on the rail it
 * leaves by, PXN moves AlltoAll and point-to-point data over NVLink to the GPU on the destination's rail. rocelab's
 * ring and direct algorithms follow the group's rank order instead, and a transfer from rail a to rail b climbs to
 * the spines and shares their uplinks by ECMP. An outside audit's ring AllReduce over 4 servers of 4 GPUs ran 4.5x
 * its ideal time (busbw 10.8 GB/s) with nothing but this to blame, and read far worse than NCCL would on that fabric.
 * Said of the workload's (source, destination) pairs, as the lint sees every transfer; a warning, since crossing
 * rails is sometimes the point (a pipeline placed across rails on purpose).
 */
final class CrossRailRule implements LintRule {
    /** Pairs named in the finding, at most. */
    private static final int NAMED = 4;

    @Override
    public String id() {
        return "L25";
    }

    @Override
    public String title() {
        return "Transfers between servers that cross rails";
    }

    @Override
    public void check(LintContext c, Findings out) {
        Topology t = c.topology();
        // Each server's rails: (server, leaf) pairs, one per RNIC.
        Set<Long> rails = new HashSet<>();
        for (int h = 0; h < t.hostCount(); h++) {
            rails.add((long) t.serverOf(h) * t.nodeCount() + leaf(t, h));
        }
        int between = 0;
        List<int[]> crossing = new ArrayList<>();
        for (int[] f : c.flows()) {
            int src = f[0];
            int dst = f[1];
            if (t.serverOf(src) == t.serverOf(dst)) {
                continue;
            }
            between++;
            // Crossing, where a GPU of the source's server sits on the destination's rail (it had a rail of its own).
            if (leaf(t, src) != leaf(t, dst) && rails.contains((long) t.serverOf(src) * t.nodeCount() + leaf(t, dst))) {
                crossing.add(f);
            }
        }
        if (crossing.isEmpty()) {
            return;
        }
        List<String> named = new ArrayList<>();
        List<String> devices = new ArrayList<>();
        for (int[] f : crossing.subList(0, Math.min(NAMED, crossing.size()))) {
            named.add(c.name(f[0]) + "->" + c.name(f[1]) + " (" + c.name(leaf(t, f[0])) + " to "
                    + c.name(leaf(t, f[1])) + ")");
            devices.add(c.name(f[0]));
        }
        out.add(this, Severity.WARNING, devices, List.of(), crossing.size() + " of the workload's " + between
                + " (source, destination) pairs between servers go between GPUs on different rails: "
                + String.join(", ", named) + (crossing.size() > NAMED ? ", ..." : ""),
                "each climbs from its rail's leaf to the spines and shares their uplinks by ECMP; NCCL keeps such"
                        + " transfers on one rail (a ring meets each next server on the rail it leaves by, PXN moves"
                        + " AlltoAll and point-to-point data over NVLink to the GPU on the destination's rail), while"
                        + " rocelab's ring and direct algorithms follow the group's rank order, so a collective can"
                        + " read far slower than NCCL's on this fabric",
                "for collectives, algorithm: hierarchical (AllReduce, AllGather, ReduceScatter) or pxn (AlltoAll),"
                        + " with nvlink, keeps every network transfer on one rail; for a job's point-to-point steps,"
                        + " place the two peers on one rail");
    }

    /** The switch a host's (first) RNIC port is linked to: its rail's leaf. */
    private static int leaf(Topology t, int host) {
        return t.peer(host, 0).node();
    }
}
