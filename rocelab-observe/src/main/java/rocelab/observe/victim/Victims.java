package rocelab.observe.victim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import rocelab.fabric.nic.NotificationSources;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.flow.FlowRecordList;
import rocelab.observe.flow.ListedFlow;

/**
 * Victims of a lossless fabric's flow control, by cause: flows that waited (behind PFC pauses, or for InfiniBand
 * credits) held by a root that is not on their own round trip (see {@link FlowWaits}: each wait goes to the root of
 * the hold, on the flow's way when its packets or its ACKs leave by that congested port, or it is their receiver's or
 * sender's NIC). A flow is a victim when such waits make up at least {@link #MIN_SHARE} of its completion time (of its
 * time in the run, if unfinished). A flow slowed only by its own destination's congestion is not a victim, however
 * slow.
 */
public final class Victims {
    /** Share of a flow's time spent waiting behind roots off its way at which it counts as a victim. */
    public static final double MIN_SHARE = 0.05;

    private Victims() {}

    /**
     * A victim and the evidence: its waits (all, and behind roots off its way), the off-way root it waited behind most
     * with how many holds away, every off-way root it waited behind (most first), and where it waited.
     */
    public static final class Victim extends ListedFlow {
        private final long waitPs;
        private final long offPathWaitPs;
        private final FlowWaits.Root root;
        private final FlowWaits waits;

        /**
         * Flow {@code flows.get(index)} waited {@code waitPs} behind pauses, {@code offPathWaitPs} of it behind roots
         * off its way, the most behind {@code root} (null: behind more roots than a flow keeps apart).
         */
        public Victim(List<FlowRecord> flows, int index, long waitPs, long offPathWaitPs, FlowWaits.Root root,
                FlowWaits waits) {
            super(flows, index);
            this.waitPs = waitPs;
            this.offPathWaitPs = offPathWaitPs;
            this.root = root;
            this.waits = waits;
        }

        public long waitPs() {
            return waitPs;
        }

        public long offPathWaitPs() {
            return offPathWaitPs;
        }

        public FlowWaits.Root root() {
            return root;
        }

        public FlowWaits waits() {
            return waits;
        }

        /** The same flow's record and waits, behind the same root, in the same log (as a record of them would be). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Victim v && v.id() == id() && v.waitPs == waitPs && v.offPathWaitPs == offPathWaitPs
                    && Objects.equals(v.root, root) && v.waits == waits && v.flow().equals(flow());
        }

        @Override
        public int hashCode() {
            return Objects.hash(id(), waitPs, offPathWaitPs, root);
        }

        @Override
        public String toString() {
            return "Victim[flow " + id() + ", wait " + waitPs + " ps, off its way " + offPathWaitPs + " ps, root " + root
                    + "]";
        }

        /**
         * Where it waited, read from the log when asked: a 1,024-host all-to-all has half a million victims, and their
         * hops and roots kept in lists were 120 MB more at the outputs' peak, where only the first few are told.
         */
        public List<FlowWaits.Hop> hops() {
            return waits.waits(id());
        }

        /** Every root off its way it waited behind, most first. */
        public List<FlowWaits.Root> offPathRoots() {
            return offPath(waits.roots(id()));
        }

        /**
         * The congestion notifications its sender heard in its life, by the switch port whose mark caused each: what
         * its own rate was cut for ({@link FlowRecordList#notificationSources}); null when not known.
         */
        public long[] notificationSources() {
            return FlowRecordList.notificationSources(flows(), id());
        }
    }

    private static List<FlowWaits.Root> offPath(List<FlowWaits.Root> roots) {
        List<FlowWaits.Root> off = new ArrayList<>();
        for (FlowWaits.Root r : roots) {
            // Off its way by the root's identity: a root not known yet is neither on nor off it.
            if (r.offPath()) {
                off.add(r);
            }
        }
        return off;
    }

    /** Off-way roots a victim's line names one by one; the rest are summed, unless only one is left: it is named. */
    static final int ROOTS_NAMED = 3;

    /**
     * How a log tells its victims: what the flow waited for ("behind pauses", "for credits"), how far the root was
     * ("1 pause hop away"), what an end host's NIC is called ("RNIC", "HCA") and the words for a root.
     */
    public interface Wording {
        String waited();

        String away(FlowWaits.Root root);

        String nic();

        String rootName(FlowWaits.Root root);

        /** What its roots are, for a header: {@code a congestion point}, or that or a cycle where the log found one. */
        default String rootKinds() {
            return "a congestion point";
        }

        /**
         * The drops of the flow's packets that the holds themselves caused, as the drops carried their cause ({@code
         * the PFC watchdog at leaf1 port 4 (towards spine0) dropped 2,059 of its packets from a queue held paused by
         * pauses rooted at h0's pause storm, 2 pause hops away, a root of these waits}); empty when none. Its resends
         * and timeouts are then told with them, not as a cause besides the waits.
         */
        default String heldDrops(Victim v) {
            return "";
        }
    }

    /** The victims among {@code flows}, most off-way waiting first; empty without waits. */
    public static List<Victim> find(FlowWaits waits, List<FlowRecord> flows, long endPs) {
        List<Victim> out = new ArrayList<>();
        if (waits == null) {
            return out;
        }
        for (int index = 0; index < flows.size(); index++) {
            FlowRecord f = flows.get(index);
            long off = waits.offPathWaitPs(f.id());
            if (off <= 0) {
                continue;
            }
            long lived = f.completed() ? f.fctPs() : endPs - f.startPs();
            if (lived <= 0 || off < MIN_SHARE * lived) {
                continue;
            }
            List<FlowWaits.Root> offRoots = offPath(waits.roots(f.id()));
            out.add(new Victim(flows, index, waits.waitPs(f.id()), off, offRoots.isEmpty() ? null : offRoots.get(0),
                    waits));
        }
        out.sort(Comparator.comparingLong(Victim::offPathWaitPs).reversed().thenComparingInt(Victim::id));
        return out;
    }

    /**
     * One line of evidence: {@code flow 15 h9->h1 x2.4: waited behind pauses rooted at ..., 1 pause hop away, not on
     * its way to h1 or back: at h9's RNIC 40.100 us, ... (... us summed over hops; it finished 81.900 us later than on
     * an idle fabric; besides these waits, its own rate held it back 20.000 us)}.
     */
    public static String describe(Topology topo, Victim v, Wording words) {
        FlowRecord f = v.flow();
        StringBuilder at = new StringBuilder();
        for (FlowWaits.Hop h : v.hops()) {
            if (h.offPathWaitPs() == 0) {
                continue;
            }
            at.append(at.length() == 0 ? "" : ", ").append(h.others() ? OTHER_HOPS : topo.isHost(h.node())
                    ? topo.nodeName(h.node()) + "'s " + words.nic() : topo.nodeName(h.node()) + " port " + h.port())
                    .append(' ').append(us(h.offPathWaitPs())).append(" us").append(h.acks() ? " (its last ACK)" : "");
        }
        // No root kept off its way: its off-way waits were behind more roots than a flow keeps apart.
        String root;
        String notOnWay;
        List<FlowWaits.Root> roots = v.offPathRoots();
        if (roots.size() <= 1) {
            root = v.root() == null || v.root().others() ? "congestion points it waited behind too many of to keep apart"
                    : words.rootName(v.root()) + ", " + words.away(v.root());
            notOnWay = "not";
        } else {
            // Several roots off its way: each with its share, so that no root is given another's waits.
            // The first roots named, most waited first; a single root left over is named as they are, two or more
            // are summed. The waits behind the roots a flow does not keep apart (Root#others) are no one root: they
            // are never counted as one of "n more" but told in their own words, which name none.
            int plain = 0;
            for (FlowWaits.Root x : roots) {
                plain += x.others() ? 0 : 1;
            }
            boolean summed = plain > ROOTS_NAMED + 1;
            List<String> parts = new ArrayList<>();
            int shown = 0;
            int more = 0;
            long rest = 0;
            for (FlowWaits.Root x : roots) {
                if (!x.others() && summed && shown == ROOTS_NAMED) {
                    more++;
                    rest += x.waitPs();
                    continue;
                }
                shown += x.others() ? 0 : 1;
                parts.add(named(words, x) + ", " + us(x.waitPs()) + " us");
            }
            if (more > 0) {
                parts.add(more + " more, " + us(rest) + " us");
            }
            StringBuilder r = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                r.append(i == 0 ? "" : i == parts.size() - 1 ? ", and at " : ", at ").append(parts.get(i));
            }
            root = r.toString();
            notOnWay = "none";
        }
        long lost = lostPs(f);
        return String.format(Locale.ROOT, "flow %d h%d->h%d%s: waited %s rooted at %s, %s on its way to h%d or back:"
                + " at %s (%s us summed over hops%s)", f.id(), f.src(), f.dst(),
                f.completed() ? String.format(Locale.ROOT, " x%.1f", f.slowdown()) : " (unfinished)", words.waited(),
                root, notOnWay, f.dst(), at, us(v.offPathWaitPs()), (lost == UNKNOWN ? ""
                        : lost > 0 ? "; it finished " + us(lost) + " us later than on an idle fabric"
                                : "; it finished no later than on an idle fabric") + besides(topo, v, words));
    }

    /**
     * What else held the flow up, from its own record, so that its time lost is not read as the waits' doing alone:
     * {@code ; besides these waits, its own rate held it back 128.093 us, its QP sent 1,524 packets again and 1 local
     * ACK timeout expired; its sender heard 3 congestion notifications in its life: 2 for marks at leaf0 port 0
     * (towards h0) and 1 for a mark at spine0 port 0 (towards leaf0), where it waited behind pauses} (flows.csv
     * rate_held_us; its QP's resends and timeouts during its life; the switch port each notification's mark was made
     * at, carried by the notification, told when its rate held it back); empty when none.
     */
    static String besides(Topology topo, Victim v, Wording words) {
        FlowRecord f = v.flow();
        String drops = words.heldDrops(v);
        List<String> parts = new ArrayList<>();
        if (f.rateHeldPs() > 0) {
            parts.add("its own rate held it back " + us(f.rateHeldPs()) + " us");
        }
        if (f.qpWaitPs() > 0) {
            // Not the network's doing, but time it lost all the same (moe-alltoall's victims: up to 674 us of 1,097).
            parts.add("it waited " + us(f.qpWaitPs()) + " us behind its own QP's earlier messages before its first"
                    + " packet");
        }
        if (!drops.isEmpty()) {
            // Its losses were the holds' doing (the drops say so by identity): its resends and timeouts go with them.
            List<String> recovery = new ArrayList<>();
            recovery(f, recovery);
            String held = recovery.isEmpty() ? "; " + drops
                    : "; " + String.join(" and ", recovery) + " after " + drops;
            return (parts.isEmpty() ? "" : "; besides these waits, " + joined(parts)
                    + (f.rateHeldPs() > 0 ? notifiedFor(topo, v, words) : "")) + held;
        }
        recovery(f, parts);
        if (parts.isEmpty()) {
            return "";
        }
        return "; besides these waits, " + joined(parts) + (f.rateHeldPs() > 0 ? notifiedFor(topo, v, words) : "");
    }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    private static String joined(List<String> parts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            b.append(i == 0 ? "" : i == parts.size() - 1 ? " and " : ", ").append(parts.get(i));
        }
        return b.toString();
    }

    /** The flow's QP's resends and local ACK timeouts in its life, in words, added to {@code parts}. */
    private static void recovery(FlowRecord f, List<String> parts) {
        if (f.resentPackets() > 0) {
            parts.add(String.format(Locale.ROOT, "its QP sent %,d packet%s again", f.resentPackets(),
                    f.resentPackets() == 1 ? "" : "s"));
        }
        if (f.ackTimeouts() > 0) {
            parts.add(String.format(Locale.ROOT, "%,d local ACK timeout%s expired", f.ackTimeouts(),
                    f.ackTimeouts() == 1 ? "" : "s"));
        }
    }

    /** Mark ports a victim's line names one by one; the rest are summed. */
    static final int MARK_PORTS_NAMED = 3;

    /**
     * The congestion notifications behind a victim's rate, by where the packet each answers was marked and whether a
     * pause held that packet there (both carried by the notification), and whether the flow waited at that port: {@code
     * ; its sender heard 1 congestion notification in its life, for a mark at spine0 port 0 (towards leaf0) on a
     * packet the pauses held there}; empty when it heard none or that is not known.
     */
    static String notifiedFor(Topology topo, Victim v, Wording words) {
        long[] sources = v.notificationSources();
        if (sources == null || sources.length == 0) {
            return "";
        }
        int fields = NotificationSources.FIELDS;
        long total = 0;
        for (int i = 0; i < sources.length; i += fields) {
            total += sources[i + 2];
        }
        List<FlowWaits.Hop> hops = v.hops();
        List<String> parts = new ArrayList<>();
        long rest = 0;
        long restHeld = 0;
        int more = 0;
        for (int i = 0; i < sources.length; i += fields) {
            int node = (int) sources[i];
            int port = (int) sources[i + 1];
            long n = sources[i + 2];
            long h = sources[i + 3];
            if (parts.size() == MARK_PORTS_NAMED && sources.length > fields * (MARK_PORTS_NAMED + 1)) {
                rest += n;
                restHeld += h;
                more++;
                continue;
            }
            String where = node == NotificationSources.NOT_APART
                    ? "marks not told by port (its QP carried other messages, which heard some too)"
                    : node < 0 ? (n == 1 ? "a mark" : "marks") + " at other ports (more than the two a QP keeps apart)"
                    : (n == 1 ? "a mark at " : "marks at ") + topo.nodeName(node) + " port " + port + " (towards "
                            + topo.nodeName(topo.peer(node, port).node()) + ")" + heldThere(n, h, words)
                            + (h == 0 && waitedAt(hops, node, port) ? ", where it waited " + words.waited() : "");
            parts.add(sources.length == fields ? "for " + where
                    : String.format(Locale.ROOT, "%,d for %s", n, where));
        }
        if (more > 0) {
            parts.add(String.format(Locale.ROOT, "%,d for marks at %d more ports%s", rest, more,
                    restHeld == 0 ? "" : String.format(Locale.ROOT, " (%,d on packets the pauses held there)",
                            restHeld)));
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "; its sender heard %,d congestion notification%s in its life%s", total, total == 1 ? "" : "s",
                parts.size() == 1 ? ", " : ": "));
        for (int i = 0; i < parts.size(); i++) {
            b.append(i == 0 ? "" : i == parts.size() - 1 ? (parts.get(i - 1).contains(", ") ? ", and " : " and ")
                    : ", ").append(parts.get(i));
        }
        return b.toString();
    }

    /** {@code  on a packet the pauses held there}, {@code , 20 of them on packets the pauses held there}, or empty. */
    private static String heldThere(long n, long h, Wording words) {
        if (h == 0 || !"behind pauses".equals(words.waited())) {
            return "";
        }
        return h == n ? (n == 1 ? " on a packet the pauses held there" : " on packets the pauses held there")
                : String.format(Locale.ROOT, ", %,d of them on packets the pauses held there", h);
    }

    /** Whether the flow waited at that switch port (its data or its last ACK). */
    public static boolean waitedAt(List<FlowWaits.Hop> hops, int node, int port) {
        for (FlowWaits.Hop h : hops) {
            if (!h.others() && h.node() == node && h.port() == port && h.waitPs() > 0) {
                return true;
            }
        }
        return false;
    }

    /** {@link #lostPs} of a flow that did not finish, or whose time on an idle fabric is not known. */
    public static final long UNKNOWN = Long.MIN_VALUE;

    /**
     * What a flow lost against an idle fabric: its FCT less its ideal FCT, as flows.csv has them ({@code fct_us -
     * ideal_fct_us}); {@link #UNKNOWN} if it did not finish or its ideal is unknown. Its waits summed over hops can be
     * far more: the waits at several hops can overlap in time, and an unpaused sender keeps sending while faster links downstream
     * clear the backlog, so the time a victim lost is told beside its waits and not read from them.
     */
    public static long lostPs(FlowRecord f) {
        return !f.completed() || f.idealFctPs() <= 0 || f.idealFctPs() == Long.MAX_VALUE ? UNKNOWN
                : f.fctPs() - f.idealFctPs();
    }

    /**
     * A root and how far it was ({@code leaf0 port 2 (towards h0), 1-3 pause hops away}), or, for the waits behind
     * the roots beyond those a flow keeps apart ({@link FlowWaits.Root#others}), words that name none of them.
     */
    public static String named(Wording words, FlowWaits.Root root) {
        return root.others() ? OTHERS : words.rootName(root) + ", " + words.away(root);
    }

    /** The words for {@link FlowWaits.Hop#others}: the waits at several hops, none of them named. */
    public static final String OTHER_HOPS = "other hops (more than a flow keeps apart)";

    /** The words for {@link FlowWaits.Root#others}: the waits behind several roots, none of them named. */
    public static final String OTHERS = "other congestion points (more than a flow keeps apart)";

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
