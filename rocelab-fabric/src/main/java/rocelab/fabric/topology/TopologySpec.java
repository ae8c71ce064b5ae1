package rocelab.fabric.topology;

/**
 * A description of a topology shape that can build the concrete {@link Topology} graph.
 * One record per kind: single-switch, leaf-spine, fat-tree, rail-optimized, custom.
 */
public sealed interface TopologySpec
        permits SingleSwitchSpec, LeafSpineSpec, FatTreeSpec, RailOptimizedSpec, CustomTopologySpec {
    /** Number of hosts (RNIC endpoints), numbered from 0. */
    int hostCount();

    Topology build();
}
