package rocelab.observe.journey;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditRoot;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.credit.CreditRootNames;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.victim.FlowPaths;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * The journey's words for InfiniBand waits for credits: each wait as the transmitter that waited reported it, whose
 * buffer had no room and what held that buffer, by the root the credit update that ended the stall carried
 * ({@link CreditRoot}); and the header's sums per hop and per root.
 */
final class CreditWaitText {
    private final Network network;
    private final Topology topo;
    private final CreditRootNames names;
    /** The run's credit log (null: no roots per flow in the header). */
    private final CreditLog log;
    /** The flows' ways, for the place of a port a root not known yet names. */
    private final FlowPaths paths;

    CreditWaitText(Network network, CreditLog log) {
        this.network = network;
        this.topo = network.topology();
        this.names = new CreditRootNames(topo);
        this.log = log;
        this.paths = new FlowPaths(network);
    }

    /**
     * A wait for credits: who waited (an HCA with the packet it then sent, or a switch's queue towards the next hop),
     * how long, on which lane, whose buffer had no room (the next hop's) and what it was full of.
     */
    String line(JourneyEvent e, JourneyEvent.CreditWait w) {
        Topology.End far = topo.peer(e.node(), e.port());
        CreditGate gate = topo.isHost(e.node()) ? network.nic(e.node()).creditGate()
                : network.switchAt(e.node() - network.hostCount()).port(e.port()).creditGate();
        // The credits a transmitter holds are the free space of the lane's buffer at the far end of its link.
        String room = String.format(Locale.ROOT, "%s's %,d-byte VL %d %s had no room for %s%s",
                topo.isHost(far.node()) ? name(far.node()) + "'s HCA" : name(far.node()),
                gate.capacityBlocks() * CreditGate.BLOCK_BYTES, w.vl(),
                topo.isHost(far.node()) ? "receive buffer" : "input buffer on its port from " + name(e.node()),
                w.acks() ? "it" : "the packet", heldBy(far.node(), w.root()));
        if (topo.isHost(e.node())) {
            return String.format(Locale.ROOT, "h%d's HCA held %s for %s us waiting for credits on VL %d: %s",
                    e.node(), w.acks() ? "the flow's last ACK" : "PSN " + w.psn(), us(e.value()), w.vl(), room);
        }
        return String.format(Locale.ROOT, "%s: the flow's %s waited %s us in the queue towards %s for credits on VL"
                + " %d: %s", name(e.node()), w.acks() ? "last ACK" : "packets", us(e.value()), name(far.node()), w.vl(),
                room);
    }

    /**
     * What the buffer of {@code device} (the next hop) held, as the credit update that ended the stall named it
     * (empty when nothing was carried): the packets' egress there, and the root beyond it.
     */
    String heldBy(int device, long root) {
        if (root < 0) {
            return "";
        }
        int kind = CreditRoot.kind(root);
        int depth = CreditRoot.depth(root);
        int holder = CreditRoot.holder(root);
        String full = holder < 0 ? "" : ", full of packets for " + names.link(device, holder);
        if (kind == CreditRoot.ROUND_TRIP && depth <= 1) {
            return "; it had room again when it granted the credits that ended the wait (they were on their way back:"
                    + " the link's credit round trip)";
        }
        if (kind == CreditRoot.RECEIVER && depth <= 1) {
            return ", full of packets its receive path had not taken yet: the congestion point";
        }
        if (kind == CreditRoot.UNKNOWN) {
            return holder < 0 ? "; what held it is not known" : full + ", held back by credits from further on (not"
                    + " known yet)";
        }
        if (depth <= 1) {
            return full + ", the congestion point";
        }
        return String.format(Locale.ROOT, "%s, held back by credits in turn; the root: %s%s, %d credit hops away",
                full, names.root(kind, CreditRoot.node(root), CreditRoot.port(root)),
                kind == CreditRoot.CONGESTION ? ", the congestion point" : "", depth);
    }

    /** What a run of waits at one hop is told as: the hop, and the root it waited behind. */
    String like(JourneyEvent e, JourneyEvent.CreditWait w) {
        String hop = (topo.isHost(e.node()) ? "at " + name(e.node()) + "'s HCA" : "at " + name(e.node()) + " towards "
                + name(topo.peer(e.node(), e.port()).node())) + (w.acks() ? " (its last ACK)" : "");
        return w.root() < 0 ? hop : hop + " behind " + names.root(CreditRoot.kind(w.root()), CreditRoot.node(w.root()),
                CreditRoot.port(w.root()));
    }

    /**
     * The header: how long the flow had a packet waiting for credits, per transmitter and lane (its last ACK's apart),
     * summed from the waits told below, in the order they first happened; then, from the credit log, behind which
     * roots, each on the flow's own round trip or not (a victim's wait).
     */
    void header(StringBuilder b, FlowRecord f, List<JourneyEvent> events) {
        Map<CreditHop, long[]> byHop = new LinkedHashMap<>();
        long total = 0;
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.CreditWait w) {
                String who = topo.isHost(e.node()) ? name(e.node()) + "'s HCA"
                        : name(e.node()) + " towards " + name(topo.peer(e.node(), e.port()).node());
                byHop.computeIfAbsent(new CreditHop(who, w.vl(), w.acks()), k -> new long[1])[0] += e.value();
                total += e.value();
            }
        }
        if (byHop.isEmpty()) {
            return;
        }
        StringBuilder hops = new StringBuilder();
        byHop.forEach((hop, ps) -> hops.append(hops.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
                "%s %s us on VL %d%s", hop.who(), us(ps[0]), hop.vl(), hop.acks() ? " (its last ACK)" : "")));
        b.append(String.format(Locale.ROOT, "  waited for credits (InfiniBand link-level flow control) at %s (%s us"
                + " summed over hops)\n", hops, us(total)));
        if (log == null) {
            return;
        }
        for (FlowWaits.Root r : log.flowWaits().roots(f.id())) {
            // A root not known yet names a port held back by credits from further on, not where they were rooted: the
            // waits were behind it, and only that port's own place is told.
            boolean known = r.way() != FlowWaits.Way.NOT_KNOWN;
            b.append(String.format(Locale.ROOT, "    %s us for credits %s %s: %s%s\n", us(r.waitPs()),
                    known ? "rooted at" : "behind", Victims.named(log.wording(), r), JourneyText.way(r, f),
                    known || r.others() ? "" : heldPortsPlace(f, r)));
        }
    }

    /**
     * Whether the port a root not known yet names (held back by credits from further on) is itself on the flow's way:
     * {@code  (leaf1 port 8 itself is not on it)}; empty when it names no port.
     */
    private String heldPortsPlace(FlowRecord f, FlowWaits.Root r) {
        if (r.port() < 0 || f.queuePair() < 0 || f.queuePair() >= network.queuePairs().size()) {
            return "";
        }
        return " (" + (topo.isHost(r.node()) ? name(r.node()) + "'s HCA" : name(r.node()) + " port " + r.port())
                + " itself is " + (paths.onRoundTrip(f.queuePair(), r.node(), r.port()) ? "" : "not ") + "on it)";
    }

    /** A transmitter lane where the flow waited for credits: its data, or its last ACK. */
    private record CreditHop(String who, int vl, boolean acks) {}

    private String name(int node) {
        return topo.nodeName(node);
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
