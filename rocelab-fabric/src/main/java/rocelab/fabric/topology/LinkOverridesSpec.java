package rocelab.fabric.topology;

import java.util.List;

/**
 * A fabric with some of its links given their own rate or delay: one degraded cable, a long run between two rows, a
 * spine uplink at a lower speed, in a topology that is otherwise generated ({@code links:} in a scenario). Every link
 * between the two named nodes takes the override (all of a leaf's parallel uplinks to one spine); the graph, its
 * ports and its link numbers are the base's.
 */
public record LinkOverridesSpec(TopologySpec base, List<LinkOverride> overrides) implements TopologySpec {
    /**
     * The links between nodes {@code a} and {@code b} (names as the built fabric has them: {@code leaf0}, {@code h3},
     * {@code p1.spine2}) at {@code rateBps} and {@code delayPs}; -1 keeps the link's own.
     */
    public record LinkOverride(String a, String b, long rateBps, long delayPs) {
        public LinkOverride {
            if (rateBps == 0 || rateBps < -1 || delayPs < -1) {
                throw new IllegalArgumentException("a link override's rate must be positive and its delay >= 0");
            }
        }
    }

    public LinkOverridesSpec {
        if (base instanceof LinkOverridesSpec) {
            throw new IllegalArgumentException("link overrides are laid over a fabric once");
        }
        overrides = List.copyOf(overrides);
    }

    @Override
    public TopologySpec shape() {
        return base;
    }

    @Override
    public int hostCount() {
        return base.hostCount();
    }

    @Override
    public long switchCount() {
        return base.switchCount();
    }

    @Override
    public long linkCount() {
        return base.linkCount();
    }

    /** @throws IllegalArgumentException when a name is not a node of the fabric, or two nodes share no link */
    @Override
    public Topology build() {
        Topology t = base.build();
        for (LinkOverride o : overrides) {
            int a = t.nodeByName(o.a());
            int b = t.nodeByName(o.b());
            if (a < 0 || b < 0) {
                throw new IllegalArgumentException("no node named " + (a < 0 ? o.a() : o.b()));
            }
            int found = 0;
            for (int e = 0; e < t.edges().size(); e++) {
                Topology.Edge edge = t.edges().get(e);
                if (edge.a().node() == a && edge.b().node() == b || edge.a().node() == b && edge.b().node() == a) {
                    LinkParameters p = edge.parameters();
                    t.setLinkParameters(e, new LinkParameters(o.rateBps() < 0 ? p.rateBps() : o.rateBps(),
                            o.delayPs() < 0 ? p.delayPs() : o.delayPs()));
                    found++;
                }
            }
            if (found == 0) {
                throw new IllegalArgumentException("no link between " + o.a() + " and " + o.b());
            }
        }
        return t;
    }
}
