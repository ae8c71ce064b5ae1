package rocelab.observe.pfc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * Victims of PFC, by cause: flows that waited behind pauses rooted at a congestion point that is not on their own
 * round trip ({@link Victims}, with the waits {@link PfcLog} attributes to the root of the XOFF that paused the
 * transmitter), and the words the summary tells them in.
 */
public final class PfcVictims {
    /** Share of a flow's time spent waiting behind pauses rooted off its way at which it counts as a victim. */
    public static final double MIN_SHARE = Victims.MIN_SHARE;

    private PfcVictims() {}

    /** The victims of a run, most off-way waiting first; empty without a PFC log. */
    public static List<Victims.Victim> find(PfcLog log, List<FlowRecord> flows, long endPs) {
        return Victims.find(log == null ? null : log.flowWaits(), flows, endPs);
    }

    /** One line of evidence: {@code flow 15 h9->h1 x2.4: waited behind pauses rooted at ...: at h9's RNIC 40.1 us ...}. */
    public static String describe(PfcLog log, Topology topo, Victims.Victim v) {
        return Victims.describe(topo, v, wording(log));
    }

    /**
     * How far a root was from where the flow waited behind it, in pauses: {@code 1 pause hop away}, or over several
     * hops of its way (a pause spreads back hop by hop, and the flow waits at each), {@code 1-4 pause hops away}.
     */
    public static String away(FlowWaits.Root root) {
        return (root.minHops() == root.maxHops() ? Integer.toString(root.minHops())
                : root.minHops() + "-" + root.maxHops()) + " pause hop" + (root.maxHops() == 1 ? "" : "s") + " away";
    }

    /** PFC's words: pauses, pause hops, RNICs, and the log's names of congestion points. */
    public static Victims.Wording wording(PfcLog log) {
        return new Victims.Wording() {
            @Override
            public String waited() {
                return "behind pauses";
            }

            @Override
            public String away(FlowWaits.Root root) {
                return PfcVictims.away(root);
            }

            @Override
            public String nic() {
                return "RNIC";
            }

            @Override
            public String rootKinds() {
                return log.cycleCount() == 0 ? "a congestion point" : "a congestion point or a pause cycle";
            }

            @Override
            public String rootName(FlowWaits.Root root) {
                return log.rootName(root.kind(), root.node(), root.port());
            }

            @Override
            public String heldDrops(Victims.Victim v) {
                return watchdogDrops(log, v.id(), v.waits().roots(v.id()));
            }
        };
    }

    /** Watchdog drop sites a line names one by one; the rest are summed. */
    static final int DROP_SITES_NAMED = 2;

    /**
     * The PFC watchdog's drops of flow {@code flow}'s packets, each site with the root of the pause that held its
     * queue ({@link PfcLog#watchdogDrops}), and whether that root is one of {@code roots} (the flow's waits'):
     * {@code the PFC watchdog at leaf1 port 4 (towards spine0) dropped 2,059 of its packets from a queue held paused
     * by pauses rooted at h0's pause storm, 2 pause hops away, a root of these waits}; empty when it dropped none.
     */
    public static String watchdogDrops(PfcLog log, int flow, List<FlowWaits.Root> roots) {
        List<PfcLog.WatchdogDrops> drops = log.watchdogDrops(flow);
        if (drops.isEmpty()) {
            return "";
        }
        Topology topo = log.topology();
        List<String> parts = new ArrayList<>();
        long rest = 0;
        for (int i = 0; i < drops.size(); i++) {
            PfcLog.WatchdogDrops d = drops.get(i);
            if (i == DROP_SITES_NAMED && drops.size() > DROP_SITES_NAMED + 1) {
                rest += d.packets();
                continue;
            }
            boolean same = false;
            for (FlowWaits.Root r : roots) {
                same |= !r.others() && r.kind() == d.rootKind() && r.node() == d.rootNode() && r.port() == d.rootPort();
            }
            // "1 of its packets", as "2 of its packets": the count is of the flow's packets, never singular.
            parts.add(String.format(Locale.ROOT, "the PFC watchdog at %s port %d (towards %s) dropped %,d of its"
                    + " packets from a queue held paused by pauses rooted at %s, %d pause hop%s away%s",
                    topo.nodeName(d.node()), d.port(), topo.nodeName(topo.peer(d.node(), d.port()).node()),
                    d.packets(), log.rootName(d.rootKind(), d.rootNode(), d.rootPort()),
                    d.hops(), d.hops() == 1 ? "" : "s", same ? ", a root of these waits" : ""));
        }
        if (rest > 0) {
            parts.add(String.format(Locale.ROOT, "watchdogs at %d more ports dropped %,d more",
                    drops.size() - DROP_SITES_NAMED, rest));
        }
        return String.join(", and ", parts);
    }
}
