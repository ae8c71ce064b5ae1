package rocelab.observe.pfc;

import java.util.List;
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
        };
    }
}
