package rocelab.observe.pfc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import rocelab.observe.flow.FlowRecord;

/**
 * Victims of PFC, by cause: flows that waited behind pauses rooted at a congestion point that is not on their own
 * way (see {@link PfcLog}: each wait is attributed to the root of the XOFF that paused the transmitter, and the
 * root is on the flow's way when the flow's packets leave by that congested port or it is their receiver's RNIC).
 * A flow is a victim when such waits make up at least {@link #MIN_SHARE} of its completion time (of its time in
 * the run, if unfinished). A flow slowed only by its own destination's congestion is not a victim, however slow.
 */
public final class PfcVictims {
    /** Share of a flow's time spent waiting behind pauses rooted off its way at which it counts as a victim. */
    public static final double MIN_SHARE = 0.05;

    private PfcVictims() {}

    /**
     * A victim and the evidence: its waits behind pauses (all, and rooted off its way), the off-way root it waited
     * behind most with how many pause hops away, and where it waited.
     */
    public record Victim(FlowRecord flow, long pausedWaitPs, long offPathWaitPs, PfcLog.Root root,
            List<PfcLog.Hop> hops) {}

    /** The victims of a run, most off-way waiting first; empty without a PFC log. */
    public static List<Victim> find(PfcLog log, List<FlowRecord> flows, long endPs) {
        List<Victim> out = new ArrayList<>();
        if (log == null) {
            return out;
        }
        for (FlowRecord f : flows) {
            long off = log.offPathWaitPs(f.id());
            if (off <= 0) {
                continue;
            }
            long lived = f.completed() ? f.fctPs() : endPs - f.startPs();
            if (lived <= 0 || off < MIN_SHARE * lived) {
                continue;
            }
            PfcLog.Root root = null;
            for (PfcLog.Root r : log.roots(f.id())) {
                if (!r.onPath()) {
                    root = r;
                    break;
                }
            }
            out.add(new Victim(f, log.pausedWaitPs(f.id()), off, root, log.waits(f.id())));
        }
        out.sort(Comparator.comparingLong(Victim::offPathWaitPs).reversed()
                .thenComparingInt(v -> v.flow().id()));
        return out;
    }

    /** One line of evidence: {@code flow 15 h9->h1 x2.4: waited behind pauses rooted at ...: at h9's RNIC 40.1 us ...}. */
    public static String describe(PfcLog log, rocelab.fabric.topology.Topology topo, Victim v) {
        FlowRecord f = v.flow();
        StringBuilder at = new StringBuilder();
        for (PfcLog.Hop h : v.hops()) {
            if (h.offPathWaitPs() == 0) {
                continue;
            }
            at.append(at.length() == 0 ? "" : ", ").append(topo.isHost(h.node()) ? topo.nodeName(h.node()) + "'s RNIC"
                    : topo.nodeName(h.node()) + " port " + h.port()).append(' ').append(us(h.offPathWaitPs())).append(" us")
                    .append(h.acks() ? " (its last ACK)" : "");
        }
        return String.format(java.util.Locale.ROOT, "flow %d h%d->h%d%s: waited behind pauses rooted at %s, %d pause"
                + " hop%s away, not on its way to h%d or back: at %s (%s us summed over hops)", f.id(), f.src(), f.dst(),
                f.completed() ? String.format(java.util.Locale.ROOT, " x%.1f", f.slowdown()) : " (unfinished)",
                v.root() == null ? "elsewhere" : log.rootName(v.root().node(), v.root().port()),
                v.root() == null ? 0 : v.root().hops(), v.root() != null && v.root().hops() == 1 ? "" : "s", f.dst(),
                at, us(v.offPathWaitPs()));
    }

    private static String us(long ps) {
        return String.format(java.util.Locale.ROOT, "%.3f", ps / 1e6);
    }
}
