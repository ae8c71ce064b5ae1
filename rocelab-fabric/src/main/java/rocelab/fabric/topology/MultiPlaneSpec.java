package rocelab.fabric.topology;

/**
 * P independent copies ("planes") of one fabric, as multi-plane AI fabrics build them (an 800G RNIC split into 2 x
 * 400G or 4 x 200G ports, each port on its own switch fabric, no link between planes). Every host's RNIC has one
 * port on every plane: port p is linked to plane p's copy of the host's leaf. {@code plane} is one plane as built
 * (its rates already per plane); its switches are named {@code p<plane>.<name>} ({@code p0.leaf0}, {@code
 * p1.spine3}). Hosts and servers are those of {@code plane}.
 */
public record MultiPlaneSpec(TopologySpec plane, int planes, PlaneSelection selection) implements TopologySpec {
    public MultiPlaneSpec {
        if (planes < 2) {
            throw new IllegalArgumentException("a multi-plane fabric needs planes >= 2, got " + planes);
        }
        if (plane instanceof MultiPlaneSpec || plane instanceof CustomTopologySpec) {
            throw new IllegalArgumentException("planes copy a generated fabric (single-switch, leaf-spine, fat-tree "
                    + "or rail-optimized)");
        }
    }

    @Override
    public int hostCount() {
        return plane.hostCount();
    }

    @Override
    public long switchCount() {
        return planes * plane.switchCount();
    }

    @Override
    public long linkCount() {
        return planes * plane.linkCount();
    }

    @Override
    public Topology build() {
        Topology one = plane.build();
        int hosts = one.hostCount();
        Topology t = new Topology(hosts);
        t.planes(planes, selection);
        for (int h = 0; h < hosts; h++) {
            t.setServer(h, one.serverOf(h));
        }
        int[] id = new int[one.nodeCount()];
        for (int p = 0; p < planes; p++) {
            for (int h = 0; h < hosts; h++) {
                id[h] = h;
            }
            for (int n = hosts; n < one.nodeCount(); n++) {
                id[n] = t.addSwitch("p" + p + "." + one.nodeName(n), one.switchTier(n), p);
            }
            // Edges in the plane's order: a host's link is its first, so port p of every host is on plane p.
            for (Topology.Edge e : one.edges()) {
                t.addLink(id[e.a().node()], id[e.b().node()], e.parameters());
            }
        }
        return t;
    }
}
