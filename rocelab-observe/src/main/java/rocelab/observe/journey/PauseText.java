package rocelab.observe.journey;

import static rocelab.observe.journey.JourneyText.key;
import static rocelab.observe.journey.JourneyText.line;
import static rocelab.observe.journey.JourneyText.us;

import java.util.Locale;
import java.util.Set;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.pfc.PfcVictims;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * The journey's words for PFC: the header's waits behind pauses per hop and per root, a wait of the flow's packets
 * behind a pause with the XOFF that held it (by its identity), and a PFC frame on the flow's way with what its ingress
 * held and where that pause is rooted, as the PFC log recorded them.
 */
final class PauseText {
    private final Network network;
    private final Topology topo;
    /** The run's PFC log (null without PFC: frames are told without their causes). */
    private final PfcLog pfc;

    PauseText(Network network, PfcLog pfc) {
        this.network = network;
        this.topo = network.topology();
        this.pfc = pfc;
    }

    /**
     * The header's PFC lines: the flow's waits behind pauses per hop, and per root whether it is on the flow's own way
     * (a victim's wait when not).
     */
    void header(StringBuilder b, FlowRecord f) {
        if (pfc == null || pfc.waits(f.id()).isEmpty()) {
            return;
        }
        StringBuilder hops = new StringBuilder();
        for (FlowWaits.Hop h : pfc.waits(f.id())) {
            hops.append(hops.length() == 0 ? "" : ", ").append(h.others() ? Victims.OTHER_HOPS
                    : topo.isHost(h.node()) ? name(h.node()) + "'s RNIC"
                    : name(h.node()) + " towards " + peer(h.node(), h.port())).append(' ').append(us(h.waitPs()))
                    .append(" us").append(h.acks() ? " (its last ACK)" : "");
        }
        line(b, "  waited behind PFC pauses at %s (%s us summed over hops)", hops, us(pfc.pausedWaitPs(f.id())));
        for (FlowWaits.Root r : pfc.roots(f.id())) {
            line(b, "    %s us behind pauses rooted at %s: %s", us(r.waitPs()),
                    Victims.named(PfcVictims.wording(pfc), r), JourneyText.way(r, f));
        }
    }

    /** A wait of the flow's packets behind a pause, and the XOFF that paused the transmitter, by its identity. */
    String waited(FlowRecord f, JourneyEvent e, JourneyEvent.Wait w) {
        String what = w.acks() ? "last ACK" : "packets";
        String where = topo.isHost(e.node()) ? "h" + e.node() + "'s RNIC held " + (w.acks() ? "the flow's last ACK" : "its data")
                : String.format(Locale.ROOT, "%s: the flow's %s waited in the queue towards %s", name(e.node()), what,
                        peer(e.node(), e.port()));
        Topology.End far = topo.peer(e.node(), e.port());
        PfcLog.Xoff x = pfc == null ? null : pfc.xoff(far.node(), far.port(), w.priority(), w.xoffSentPs());
        String by = x == null ? String.format(Locale.ROOT, "paused by %s", name(far.node()))
                : String.format(Locale.ROOT, "paused by %s's XOFF of %s us, rooted at %s%s", name(far.node()),
                        us(x.timePs()), pfc.rootName(x.rootKind(), x.rootNode(), x.rootPort()), x.cycleSincePs() < 0
                                ? "" : String.format(Locale.ROOT, " when sent; from %s us on held by %s",
                                        us(x.cycleSincePs()), pfc.rootName(PfcLog.ROOT_PAUSE_CYCLE, x.cycle(), -1)));
        PfcLog.WaitCause c = x == null || x.rootKind() == PfcLog.ROOT_PAUSE_CYCLE || f.queuePair() < 0 ? null
                : pfc.waitCause(far.node(), far.port(), w.priority(), w.xoffSentPs(), f.queuePair(), w.acks(),
                        e.timePs());
        boolean sameRoot = c != null && x != null && c.kind() == x.rootKind() && c.node() == x.rootNode()
                && c.port() == x.rootPort();
        if (c != null && c.ownWay() && sameRoot) {
            // The XOFF's root is on the flow's own way: named once (an audit read the root twice, the port compared
            // with itself).
            by += "; on this flow's own way";
        } else if (c != null && c.ownWay()) {
            // The port of the flow's own way held a substantial share of the paused group: the wait is its own.
            by += String.format(Locale.ROOT, "; for this flow rooted at %s, on its way, which held at least half"
                    + " as many of that ingress's bytes as the port holding most", pfc.rootName(c.kind(), c.node(),
                    c.port()));
        } else if (c != null && (c.kind() != x.rootKind() || c.node() != x.rootNode() || c.port() != x.rootPort())) {
            by += String.format(Locale.ROOT, "; for this flow rooted at %s, where the pause that held the port of its"
                    + " own way was rooted", pfc.rootName(c.kind(), c.node(), c.port()));
        }
        return String.format(Locale.ROOT, "%s %s us behind a pause (%s)", where, us(e.value()), by);
    }

    /**
     * Why the PFC watchdog dropped a packet, from the PFC frame that held its queue paused (by that frame's identity in
     * the PFC log): {@code the PFC watchdog had found that queue stuck in a pause storm, held by spine0's XOFF of
     * 12.000 us, rooted at h0's pause storm, 2 pause hops away}.
     */
    String watchdogDrop(JourneyEvent e, JourneyEvent.WatchdogDrop w) {
        Topology.End far = topo.peer(e.node(), e.port());
        PfcLog.Xoff x = pfc == null ? null : pfc.xoff(far.node(), far.port(), w.priority(), w.xoffSentPs());
        String held = x == null ? "paused by " + name(far.node())
                : String.format(Locale.ROOT, "held by %s's XOFF of %s us, rooted at %s%s", name(far.node()),
                        us(x.timePs()), pfc.rootName(x.rootKind(), x.rootNode(), x.rootPort()),
                        String.format(Locale.ROOT, ", %d pause hop%s away", x.depth() + 1, x.depth() == 0 ? "" : "s"));
        return String.format(Locale.ROOT, "the PFC watchdog had found that queue (priority %d) stuck in a pause storm,"
                + " %s, and drops what it holds and what arrives for it", w.priority(), held);
    }

    /** A PFC frame sent on a link that is down: it never arrives, so it pauses (or resumes) nothing. */
    String lostOnDownLink(JourneyEvent e) {
        Topology.End far = topo.peer(e.node(), e.port());
        return String.format(Locale.ROOT, "%s sends PFC %s to %s for priority %d on a link that is down: the frame is"
                + " lost, and %s forgot the pauses on that port when its link went down", name(e.node()),
                e.kind() == JourneyEvent.Kind.RESUMED ? "XON" : "XOFF", name(far.node()), e.psn(), name(far.node()));
    }

    /** A PFC frame matters to the flow when it pauses a port its packets use, or its sender's RNIC. */
    String frame(FlowRecord f, JourneyEvent e, Set<Long> path) {
        Topology.End far = topo.peer(e.node(), e.port());
        boolean onPath = path.contains(key(far.node(), far.port())) || far.node() == f.src();
        if (!onPath) {
            return null;
        }
        int quanta = Integer.parseInt(e.detail());
        if (e.kind() == JourneyEvent.Kind.RESUMED) {
            return String.format(Locale.ROOT, "%s sends XON to %s for priority %d: it may send again", name(e.node()),
                    name(far.node()), e.psn());
        }
        long rate = topo.edgeAt(e.node(), e.port()).parameters().rateBps();
        // What PFC says: the peer may not send that priority. Whether the flow is held depends on the priority its
        // packets go out on there: at its sender's RNIC, the QP's own, which can differ (a DSCP mapped elsewhere).
        QueuePair qp = f.queuePair() >= 0 && f.queuePair() < network.queuePairs().size()
                ? network.queuePairs().get(f.queuePair()) : null;
        boolean notItsPriority = qp != null && far.node() == f.src() && qp.lane() != e.psn();
        String stops = String.format(Locale.ROOT, "%s may not send priority %d on that port for up to %s us%s",
                name(far.node()), e.psn(), us(Headroom.pauseDurationPs(quanta, rate)), notItsPriority
                        ? String.format(Locale.ROOT, " (the flow's data leaves h%d on priority %d: not held by it)",
                                f.src(), qp.lane())
                        : "");
        JourneyEvent.Pause why = e.cause() instanceof JourneyEvent.Pause p ? p : null;
        boolean refresh = why != null && why.reason() == PfcReason.REFRESH;
        boolean poolFull = why != null && why.reason() == PfcReason.SHARED_POOL_FULL;
        PfcLog.Xoff x = pfc == null ? null : pfc.xoff(e.node(), e.port(), (int) e.psn(), e.timePs());
        String held;
        if (refresh) {
            // Sent again because the pause still holds: the group may be under its XOFF threshold by now (it resumes
            // only at its XON level), so no threshold is told as its cause.
            held = String.format(Locale.ROOT, "its ingress holds %,d bytes", e.value());
        } else if (poolFull) {
            // The switch paused because its shared pool had no room, not because this group reached its threshold.
            held = String.format(Locale.ROOT, "%s's shared pool was full: %,d of its %,d bytes (the buffer less the"
                    + " reserved headroom) in use, no room for the arriving packet, while this ingress held %,d bytes,"
                    + " under its %,d-byte XOFF threshold", name(e.node()), why.poolUsedBytes(), why.poolBytes(),
                    e.value(), why.thresholdBytes());
        } else if (topo.isHost(e.node())) {
            // An RNIC pauses for its receive buffer (nic.rx), which has no egress port to name.
            held = String.format(Locale.ROOT, "its receive buffer holds %,d bytes%s", e.value(),
                    x != null ? String.format(Locale.ROOT, "; XOFF level %,d bytes", x.thresholdBytes()) : "");
        } else {
            held = String.format(Locale.ROOT, "its ingress holds %,d bytes%s", e.value(),
                    x != null ? String.format(Locale.ROOT, "; threshold %,d bytes", x.thresholdBytes()) : "");
        }
        String cause = "";
        if (x != null) {
            StringBuilder flows = new StringBuilder();
            for (int k = 0; k < x.topFlows().length; k++) {
                flows.append(k == 0 ? "" : ", ").append(String.format(Locale.ROOT, "flow %d (%,d B)",
                        x.topFlows()[k], x.topBytes()[k]));
            }
            cause = String.format(Locale.ROOT, "%s%s; %s", flows.length() == 0 ? ""
                    : (poolFull ? "; most of them " : ", holding most of ") + flows,
                    x.egressPort() < 0 ? "" : ", queued mostly towards " + peer(e.node(), x.egressPort())
                            + shares(e.node(), x, e.value()),
                    x.rootKind() == PfcLog.ROOT_PAUSE_CYCLE && x.depth() == 0
                            ? "that port was paused, and the pauses in force from there lead back to this ingress: it"
                                    + " is on " + pfc.rootName(x.rootKind(), x.rootNode(), x.rootPort())
                            : x.depth() == 0 && topo.isHost(e.node())
                                    // No port was named: "that port" read as one (an audit's slow receiver).
                                    ? "its receive pipeline had not taken them yet: it is the congestion point"
                            : x.depth() == 0 ? "that port was not paused: it is the congestion point"
                            : String.format(Locale.ROOT, "%s: rooted at %s, %d pause hop%s away",
                                    x.egressBacklog() ? "that port's pause had been lifted, but it still queued the"
                                            + " backlog that pause held back" : "that port was paused",
                                    pfc.rootName(x.rootKind(), x.rootNode(), x.rootPort()), x.depth(),
                                    x.depth() == 1 ? "" : "s"));
        }
        return String.format(Locale.ROOT, "%s sends PFC XOFF to %s for priority %d%s (%s%s): %s", name(e.node()),
                name(far.node()), e.psn(), refresh ? " again, a refresh while the pause holds" : "", held, cause,
                stops);
    }

    /**
     * The group's bytes by egress port, for those that held at least half as many as the port holding most (the ports
     * a flow's wait behind this pause counts as its own way's making: {@link PfcLog#waitCause}), as bytes and shares of
     * what the ingress held: {@code  (113,634 B, 51.9 %; towards spine1 104,076 B, 47.6 %)}.
     */
    private String shares(int node, PfcLog.Xoff x, long ingressBytes) {
        if (x.sharePorts().length == 0 || ingressBytes <= 0) {
            return "";
        }
        long top = x.shareBytes()[0];
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, " (%,d B, %.1f %%", top,
                100.0 * top / ingressBytes));
        for (int k = 1; k < x.sharePorts().length; k++) {
            if (x.shareBytes()[k] * PfcLog.OWN_SHARE_DIVISOR < top) {
                break;
            }
            b.append(String.format(Locale.ROOT, "; towards %s %,d B, %.1f %%", peer(node, x.sharePorts()[k]),
                    x.shareBytes()[k], 100.0 * x.shareBytes()[k] / ingressBytes));
        }
        return b.append(')').toString();
    }

    private String name(int node) {
        return topo.nodeName(node);
    }

    private String peer(int node, int port) {
        return topo.nodeName(topo.peer(node, port).node());
    }
}
