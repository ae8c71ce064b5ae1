package rocelab.fabric.topology;

/**
 * Two-tier Clos: every leaf is linked to every spine by {@code uplinksPerSpine} parallel links; host h sits on
 * leaf {@code h / hostsPerLeaf}. Oversubscription follows from the counts and rates.
 */
public record LeafSpineSpec(
        int leaves, int spines, int hostsPerLeaf, int uplinksPerSpine, LinkParameters link, LinkParameters uplink)
        implements TopologySpec {
    public LeafSpineSpec {
        if (leaves < 1 || spines < 1 || hostsPerLeaf < 1 || uplinksPerSpine < 1) {
            throw new IllegalArgumentException("leaves, spines, hosts-per-leaf and parallel-uplinks must be >= 1");
        }
    }

    @Override
    public int hostCount() {
        return leaves * hostsPerLeaf;
    }

    /** Host-facing capacity of a leaf divided by its uplink capacity (1.0 = non-blocking). */
    public double oversubscription() {
        return (double) hostsPerLeaf * link.rateBps() / ((double) spines * uplinksPerSpine * uplink.rateBps());
    }

    @Override
    public long switchCount() {
        return (long) leaves + spines;
    }

    @Override
    public long linkCount() {
        return (long) leaves * hostsPerLeaf + (long) leaves * spines * uplinksPerSpine;
    }

    @Override
    public Topology build() {
        Topology t = new Topology(hostCount());
        int[] leafIds = new int[leaves];
        for (int l = 0; l < leaves; l++) {
            leafIds[l] = t.addSwitch("leaf" + l, 1);
        }
        int[] spineIds = new int[spines];
        for (int s = 0; s < spines; s++) {
            spineIds[s] = t.addSwitch("spine" + s, 2);
        }
        for (int h = 0; h < hostCount(); h++) {
            t.addLink(h, leafIds[h / hostsPerLeaf], link);
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                for (int p = 0; p < uplinksPerSpine; p++) {
                    t.addLink(leafIds[l], spineIds[s], uplink);
                }
            }
        }
        return t;
    }
}
