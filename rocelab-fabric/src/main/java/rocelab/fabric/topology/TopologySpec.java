package rocelab.fabric.topology;

/**
 * A description of a topology shape that can build the concrete {@link Topology} graph.
 * One record per kind: single-switch, leaf-spine, fat-tree, rail-optimized, custom.
 */
public sealed interface TopologySpec
        permits SingleSwitchSpec, LeafSpineSpec, FatTreeSpec, RailOptimizedSpec, CustomTopologySpec, MultiPlaneSpec,
        LinkOverridesSpec {
    /** Number of hosts (RNIC endpoints), numbered from 0. */
    int hostCount();

    /** Number of switches {@link #build()} makes, computed without building (to size a run before it is built). */
    long switchCount();

    /** Number of links {@link #build()} makes, computed without building. */
    long linkCount();

    Topology build();

    /**
     * The fabric's shape without per-link overrides ({@link LinkOverridesSpec}): what to ask which kind of fabric
     * this is (rail-optimized, multi-plane, ...).
     */
    default TopologySpec shape() {
        return this;
    }
}
