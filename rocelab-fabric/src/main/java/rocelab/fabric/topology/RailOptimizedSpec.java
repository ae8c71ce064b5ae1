package rocelab.fabric.topology;

/**
 * Rail-optimised GPU cluster: servers with G GPUs and one RNIC per GPU; NIC g of every server connects to the
 * leaf of rail g; every rail leaf connects to every spine. Host index = server * G + g, so a server owns several
 * NICs (one per rail).
 */
public record RailOptimizedSpec(
        int servers, int gpusPerServer, int spines, LinkParameters link, LinkParameters uplink)
        implements TopologySpec {
    public RailOptimizedSpec {
        if (servers < 1 || gpusPerServer < 1 || spines < 0) {
            throw new IllegalArgumentException("servers and gpus-per-server must be >= 1, spines >= 0");
        }
        if (spines == 0 && gpusPerServer > 1) {
            throw new IllegalArgumentException("a rail-optimized fabric with more than one rail needs spines >= 1");
        }
    }

    @Override
    public int hostCount() {
        return servers * gpusPerServer;
    }

    @Override
    public long switchCount() {
        return (long) gpusPerServer + spines;
    }

    @Override
    public long linkCount() {
        return (long) servers * gpusPerServer + (long) gpusPerServer * spines;
    }

    @Override
    public Topology build() {
        Topology t = new Topology(hostCount());
        int[] rails = new int[gpusPerServer];
        for (int g = 0; g < gpusPerServer; g++) {
            rails[g] = t.addSwitch("rail" + g, 1);
        }
        int[] spineIds = new int[spines];
        for (int s = 0; s < spines; s++) {
            spineIds[s] = t.addSwitch("spine" + s, 2);
        }
        for (int server = 0; server < servers; server++) {
            for (int g = 0; g < gpusPerServer; g++) {
                int host = server * gpusPerServer + g;
                t.addLink(host, rails[g], link);
                t.setServer(host, server);
            }
        }
        for (int g = 0; g < gpusPerServer; g++) {
            for (int s = 0; s < spines; s++) {
                t.addLink(rails[g], spineIds[s], uplink);
            }
        }
        return t;
    }
}
