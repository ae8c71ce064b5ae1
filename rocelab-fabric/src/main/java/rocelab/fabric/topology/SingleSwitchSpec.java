package rocelab.fabric.topology;

/** All hosts on one switch: the classic incast bench. */
public record SingleSwitchSpec(int hosts, LinkParameters link) implements TopologySpec {
    public SingleSwitchSpec {
        if (hosts < 2) {
            throw new IllegalArgumentException("a single-switch topology needs at least 2 hosts, got " + hosts);
        }
    }

    @Override
    public int hostCount() {
        return hosts;
    }

    @Override
    public long switchCount() {
        return 1;
    }

    @Override
    public long linkCount() {
        return hosts;
    }

    @Override
    public Topology build() {
        Topology t = new Topology(hosts);
        int sw = t.addSwitch("switch0", 1);
        for (int h = 0; h < hosts; h++) {
            t.addLink(h, sw, link);
        }
        return t;
    }
}
