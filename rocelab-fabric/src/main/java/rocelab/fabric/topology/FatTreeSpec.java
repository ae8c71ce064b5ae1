package rocelab.fabric.topology;

/**
 * Three-tier k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation switches,
 * (k/2)^2 core switches, k/2 hosts per edge switch, k^3/4 hosts in all. Host h sits on edge switch h / (k/2).
 */
public record FatTreeSpec(int k, LinkParameters link, LinkParameters uplink) implements TopologySpec {
    public FatTreeSpec {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("fat-tree k must be an even number >= 2, got " + k);
        }
    }

    @Override
    public int hostCount() {
        return k * k * k / 4;
    }

    @Override
    public long switchCount() {
        return 5L * k * k / 4;
    }

    @Override
    public long linkCount() {
        return 3L * k * k * k / 4; // hosts to edges, edges to aggregations, aggregations to cores: k^3/4 each
    }

    @Override
    public Topology build() {
        int half = k / 2;
        Topology t = new Topology(hostCount());
        int[][] edge = new int[k][half];
        int[][] agg = new int[k][half];
        for (int p = 0; p < k; p++) {
            for (int i = 0; i < half; i++) {
                edge[p][i] = t.addSwitch("pod" + p + "-edge" + i, 1);
            }
        }
        for (int p = 0; p < k; p++) {
            for (int i = 0; i < half; i++) {
                agg[p][i] = t.addSwitch("pod" + p + "-agg" + i, 2);
            }
        }
        int[] core = new int[half * half];
        for (int c = 0; c < core.length; c++) {
            core[c] = t.addSwitch("core" + c, 3);
        }
        for (int h = 0; h < hostCount(); h++) {
            int e = h / half;
            t.addLink(h, edge[e / half][e % half], link);
        }
        for (int p = 0; p < k; p++) {
            for (int e = 0; e < half; e++) {
                for (int a = 0; a < half; a++) {
                    t.addLink(edge[p][e], agg[p][a], uplink);
                }
            }
        }
        // Aggregation switch a of every pod connects to core switches a*half .. a*half+half-1.
        for (int p = 0; p < k; p++) {
            for (int a = 0; a < half; a++) {
                for (int c = 0; c < half; c++) {
                    t.addLink(agg[p][a], core[a * half + c], uplink);
                }
            }
        }
        return t;
    }
}
