package rocelab.fabric.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Explicit nodes and links. Hosts are named {@code h0..h<n-1>}; switches carry the names given. */
public record CustomTopologySpec(int hosts, List<String> switches, List<CustomLink> links) implements TopologySpec {
    /** One link between two named nodes. */
    public record CustomLink(String a, String b, LinkParameters parameters) {}

    public CustomTopologySpec {
        switches = List.copyOf(switches);
        links = List.copyOf(links);
    }

    @Override
    public int hostCount() {
        return hosts;
    }

    /** Node id for a name, or -1 when the name is unknown. */
    public int nodeId(String name) {
        if (name.matches("h\\d+")) {
            int h = Integer.parseInt(name.substring(1));
            return h < hosts ? h : -1;
        }
        int i = switches.indexOf(name);
        return i < 0 ? -1 : hosts + i;
    }

    @Override
    public long switchCount() {
        return switches.size();
    }

    @Override
    public long linkCount() {
        return links.size();
    }

    @Override
    public Topology build() {
        Topology t = new Topology(hosts);
        for (String s : switches) {
            t.addSwitch(s, 1);
        }
        // A map instead of nodeId's list search: a custom fabric may have thousands of switches and links.
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < switches.size(); i++) {
            ids.put(switches.get(i), hosts + i);
        }
        for (CustomLink l : links) {
            int a = ids.getOrDefault(l.a(), -1);
            int b = ids.getOrDefault(l.b(), -1);
            a = a >= 0 ? a : nodeId(l.a());
            b = b >= 0 ? b : nodeId(l.b());
            if (a < 0 || b < 0) {
                throw new IllegalArgumentException("unknown node in link " + l.a() + " - " + l.b());
            }
            t.addLink(a, b, l.parameters());
        }
        return t;
    }
}
