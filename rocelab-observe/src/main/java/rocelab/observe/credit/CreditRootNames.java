package rocelab.observe.credit;

import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.topology.Topology;

/** The words for the roots of waits for InfiniBand credits ({@link CreditRoot}), for the summary and the journey. */
public final class CreditRootNames {
    private final Topology topo;

    public CreditRootNames(Topology topo) {
        this.topo = topo;
    }

    /**
     * A root: {@code leaf0 port 0 (towards h0)}, the congestion point; {@code h0's HCA (its receive buffer)}; {@code
     * the credit round trip of leaf1 port 9 (towards spine1)}; or a port held back by credits whose root it had not
     * been told yet.
     */
    public String root(int kind, int node, int port) {
        return switch (kind) {
            case CreditRoot.CONGESTION -> port(node, port);
            case CreditRoot.RECEIVER -> topo.nodeName(node) + "'s HCA (its receive buffer)";
            case CreditRoot.ROUND_TRIP -> "the credit round trip of " + port(node, port);
            default -> port < 0 ? topo.nodeName(node) + "'s input buffer (what held it not known)"
                    : port(node, port) + ", held back by credits from further on (not known yet)";
        };
    }

    /** The transmitter a root names: {@code leaf0 port 0 (towards h0)}, {@code h9's HCA (towards leaf1)}. */
    public String port(int node, int port) {
        if (topo.isHost(node)) {
            return topo.nodeName(node) + "'s HCA (towards " + topo.nodeName(topo.peer(node, Math.max(port, 0)).node())
                    + ")";
        }
        return topo.nodeName(node) + " port " + port + " (towards " + topo.nodeName(topo.peer(node, port).node())
                + ")";
    }

    /** A link by its ends: {@code leaf0 -> h0}. */
    public String link(int node, int port) {
        return topo.nodeName(node) + " -> " + topo.nodeName(topo.peer(node, port).node());
    }
}
