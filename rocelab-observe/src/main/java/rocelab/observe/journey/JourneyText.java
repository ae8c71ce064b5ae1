package rocelab.observe.journey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.PfcReason;
import rocelab.fabric.topology.Topology;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.pfc.PfcLog;

/**
 * Tells a flow's journey as a time-ordered story: the first packet hop by hop, then every event that shaped the
 * flow (marks and the CNPs they caused, rate changes and the CNPs behind them, drops and retransmissions, PFC
 * pauses on its path), each line linked to its cause. {@code --packet} follows one PSN instead.
 */
public final class JourneyText {
    private final Network network;
    private final Topology topo;
    private final PfcLog pfc;
    private final CreditWaitText credits;
    /** The run's ECMP log (null: no switch hashes among equal-cost ports). */
    private final rocelab.observe.ecmp.EcmpLog ecmp;
    /** The group of the waits for credits. */
    private static final String CREDIT = "credit";
    /** The flows posted before it on its QP that the QP sent while the flow waited for its turn (see queuedBehind). */
    private List<JourneyRecorder.QueuedBehind> queuedBehind = List.of();
    /** When the flow's first packet left (Long.MAX_VALUE: it sent none). */
    private long firstSendPs = Long.MAX_VALUE;

    public JourneyText(Network network) {
        this(network, null);
    }

    /** @param pfc the run's PFC log (null without PFC): XOFFs and waits are then told with their recorded causes */
    public JourneyText(Network network, PfcLog pfc) {
        this(network, pfc, null);
    }

    /**
     * @param pfc the run's PFC log (null without PFC): XOFFs and waits are then told with their recorded causes
     * @param credits the run's credit log (null unless InfiniBand): the roots of the flow's waits for credits
     */
    public JourneyText(Network network, PfcLog pfc, rocelab.observe.credit.CreditLog credits) {
        this(network, pfc, credits, null);
    }

    /**
     * @param ecmp the run's ECMP log (null: no switch hashes among equal-cost ports): the flow's waits behind ECMP
     *     collisions, per hop, with the flows it collided with
     */
    public JourneyText(Network network, PfcLog pfc, rocelab.observe.credit.CreditLog credits,
            rocelab.observe.ecmp.EcmpLog ecmp) {
        this.network = network;
        this.topo = network.topology();
        this.pfc = pfc;
        this.credits = new CreditWaitText(network, credits);
        this.ecmp = ecmp;
    }

    /**
     * What the flow's QP sent between the flow's post and its first packet ({@link JourneyRecorder#queuedBehind}): the
     * header then says how long the flow waited for its turn on the QP and behind which flows.
     */
    public JourneyText queuedBehind(List<JourneyRecorder.QueuedBehind> flows, long firstSendPs) {
        this.queuedBehind = List.copyOf(flows);
        this.firstSendPs = firstSendPs;
        return this;
    }

    /**
     * @param psn follow this packet hop by hop (-1: the first packet, then the notable events)
     * @param maxLines stop after this many event lines (the JSON has them all)
     */
    public String render(FlowRecord f, List<JourneyEvent> events, long psn, long fromPs, long toPs, int maxLines) {
        String text = tell(f, events, psn, fromPs, toPs, maxLines);
        return network.isInfiniband() ? infinibandWords(text) : text;
    }

    /** The same story in InfiniBand's words: switches mark FECN, receivers return BECNs, hosts have HCAs. */
    static String infinibandWords(String text) {
        return text.replace("marked it CE", "marked it FECN").replace("CE-marked", "FECN-marked")
                .replace("marked CE", "marked FECN").replace("a CNP", "a BECN").replace("the CNP", "the BECN")
                .replace("RNIC", "HCA");
    }

    private String tell(FlowRecord f, List<JourneyEvent> events, long psn, long fromPs, long toPs, int maxLines) {
        StringBuilder b = new StringBuilder();
        if (network.isInfiniband()) {
            // No UDP/IP header on InfiniBand, so no source port: a switch forwards a packet by its destination LID.
            line(b, "journey of flow %d: h%d -> h%d, %,d bytes, RC QP %d (InfiniBand: the switches forward its packets"
                    + " by their destination LID, h%d's LID %d)", f.id(), f.src(), f.dst(), f.sizeBytes(),
                    f.queuePair(), f.dst(), rocelab.observe.pcap.IbPacketEncoder.lid(f.dst()));
        } else {
            line(b, "journey of flow %d: h%d -> h%d, %,d bytes, RC QP %d (UDP source port %d)", f.id(), f.src(),
                    f.dst(), f.sizeBytes(), f.queuePair(), f.udpSourcePort());
        }
        line(b, "  posted at %s us; %s", us(f.startPs()), f.completed()
                ? String.format(Locale.ROOT, "completed at %s us: FCT %s us, %.2fx the %s us of its closed form alone on an idle fabric",
                        us(f.finishPs()), us(f.fctPs()), f.slowdown(), us(f.idealFctPs()))
                : f.failed() ? "FAILED: the QP exhausted its retries" : "did not complete before the run ended");
        queuedBehindLine(b, f);
        if (network.isInfiniband()) {
            infinibandPaths(b, f);
        }
        if (pfc != null && !pfc.waits(f.id()).isEmpty()) {
            StringBuilder hops = new StringBuilder();
            for (rocelab.observe.victim.FlowWaits.Hop h : pfc.waits(f.id())) {
                hops.append(hops.length() == 0 ? "" : ", ").append(topo.isHost(h.node()) ? name(h.node()) + "'s RNIC"
                        : name(h.node()) + " towards " + peer(h.node(), h.port())).append(' ').append(us(h.waitPs()))
                        .append(" us").append(h.acks() ? " (its last ACK)" : "");
            }
            line(b, "  waited behind PFC pauses at %s (%s us summed over hops)", hops, us(pfc.pausedWaitPs(f.id())));
            for (rocelab.observe.victim.FlowWaits.Root r : pfc.roots(f.id())) {
                line(b, "    %s us behind pauses rooted at %s, %s: %s", us(r.waitPs()),
                        pfc.rootName(r.node(), r.port()), rocelab.observe.pfc.PfcVictims.away(r), r.onPath()
                                ? "on its own way (to h" + f.dst() + " or back)" : "NOT on its way to h" + f.dst()
                                + " or back (a victim's wait)");
            }
        }
        credits.header(b, f, events);
        ecmpHeader(b, f, events);
        timeouts(b, f, events);
        rocelab.fabric.nic.QueuePair qp = f.queuePair() >= 0 && f.queuePair() < network.queuePairs().size()
                ? network.queuePairs().get(f.queuePair()) : null;
        if (qp != null && qp.selectiveRepeat()) {
            line(b, "  out-of-order placement (nic.ooo): %,d packets placed out of sequence, %,d duplicates, %,d"
                    + " selective retransmissions, %,d selective NAKs", qp.outOfSequence(), qp.duplicates(),
                    qp.selectiveRetransmissions(), qp.selectiveNaks());
        }
        line(b, "");
        // The flow's first packet: its lowest PSN (a QP that carried flows before it numbers on from theirs).
        long follow = psn >= 0 ? psn : events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND)
                .mapToLong(JourneyEvent::psn).min().orElse(0);
        line(b, psn >= 0 ? "packet PSN %d, every transmission, hop by hop:" : "the first packet (PSN %d), hop by hop:",
                follow);
        hopByHop(b, events, follow);
        if (psn >= 0) {
            return b.toString();
        }
        // The last packet too: its ACK is the one the flow completes with, and what held that ACK (a queue on the way
        // back, a pause) shows only on its hops.
        long last = events.stream().filter(e -> e.kind() == JourneyEvent.Kind.SEND).mapToLong(JourneyEvent::psn)
                .max().orElse(0);
        if (last > follow) {
            line(b, "");
            line(b, "the last packet (PSN %d), hop by hop:", last);
            hopByHop(b, events, last);
        }
        line(b, "");
        line(b, "what happened to the flow, in time order%s:", fromPs > 0 || toPs < Long.MAX_VALUE
                ? String.format(Locale.ROOT, " (%s to %s us)", us(fromPs), toPs == Long.MAX_VALUE ? "end" : us(toPs))
                : "");
        // A rate change is recorded when it is decided, with the time it takes effect (a DCQCN cut at the end of its
        // period, an increase at its timer), so the list is put in time order here; a stable sort keeps the
        // recorded, causal order of events at one instant.
        List<JourneyEvent> inTimeOrder = new ArrayList<>(events);
        inTimeOrder.sort(Comparator.comparingLong(JourneyEvent::timePs));
        List<String> story = story(f, inTimeOrder, fromPs, toPs);
        for (int i = 0; i < story.size() && i < maxLines; i++) {
            b.append(story.get(i)).append('\n');
        }
        if (story.size() > maxLines) {
            line(b, "  ... %d more lines (--max-lines, or --json for every event)", story.size() - maxLines);
        }
        return b.toString();
    }

    /**
     * InfiniBand: where a switch has several equal-cost ports towards the flow's destination, how it picks one. One LID
     * per port (no LMC): an ECMP switch keeps the QP on one port, picked by a hash of the QP's endpoints and its path
     * entropy (the stand-in for the path a subnet manager would route its DLID on); a switch that spreads load picks per
     * packet or flowlet. Nothing is said when every switch has one port towards it.
     */
    private void infinibandPaths(StringBuilder b, FlowRecord f) {
        boolean perQp = false;
        boolean perPacket = false;
        for (int s = 0; s < network.switchCount(); s++) {
            var sw = network.switchAt(s);
            if (sw.candidates(f.dst()).length > 1) {
                perQp |= !sw.loadBalancing().mayReorder();
                perPacket |= sw.loadBalancing().mayReorder();
            }
        }
        if (perQp) {
            line(b, "  where a switch has several equal-cost ports towards h%d, it keeps the QP on one, picked by a hash"
                    + " of its endpoints and its path entropy (rocelab's stand-in for the route a subnet manager gives"
                    + " a DLID)", f.dst());
        }
        if (perPacket) {
            line(b, "  where a switch that spreads load (spray, adaptive or flowlet) has several equal-cost ports towards"
                    + " h%d, it picks one per packet (or flowlet)", f.dst());
        }
    }

    /**
     * The flow's waits behind ECMP collisions, per hop, as the ECMP log has them (they add up to flows.csv's
     * {@code ecmp_wait_us}), and at each hop whose packets were directly ahead of the flow's and which equal-cost port
     * was idle, as the switch recorded them when the flow's packets joined the queue.
     */
    private void ecmpHeader(StringBuilder b, FlowRecord f, List<JourneyEvent> events) {
        if (ecmp == null || ecmp.waits(f.id()).isEmpty()) {
            return;
        }
        // The ends of the flows ahead, by the queue pair their packets carried.
        Map<Long, String> ends = new java.util.HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.EcmpCollision c) {
                ends.putIfAbsent(c.aheadFlow(), flowEnds(c));
            }
        }
        StringBuilder hops = new StringBuilder();
        for (rocelab.observe.victim.FlowWaits.Hop h : ecmp.waits(f.id())) {
            hops.append(hops.length() == 0 ? "" : ", ").append(name(h.node())).append(" towards ")
                    .append(peer(h.node(), h.port())).append(' ').append(us(h.waitPs())).append(" us")
                    .append(h.acks() ? " (its last ACK)" : "");
        }
        line(b, "  waited behind ECMP collisions at %s (%s us summed over hops)", hops, us(ecmp.waitPs(f.id())));
        java.util.Set<Long> told = new HashSet<>();
        for (rocelab.observe.victim.FlowWaits.Hop h : ecmp.waits(f.id())) {
            if (!told.add(key(h.node(), h.port()))) {
                continue;
            }
            String what = h.acks() ? "its last ACK" : "it";
            String queued = h.acks() ? "where it queued" : "where its packets queued";
            List<String> with = new ArrayList<>();
            List<Integer> behind = ecmp.behind(f.id(), h.node(), h.port());
            for (int i = 0; i < behind.size() && i < 3; i++) {
                with.add("flow " + behind.get(i) + ends.getOrDefault((long) behind.get(i), ""));
            }
            if (behind.size() > 3) {
                with.add((behind.size() - 3) + " more");
            }
            List<String> idle = new ArrayList<>();
            for (var i : ecmp.idlePorts(h.node(), h.port())) {
                idle.add(peer(h.node(), i.port()));
            }
            line(b, "    %s hashed %s onto its port towards %s%s, while %s equal-cost port towards %s was idle: an ECMP"
                    + " collision", name(h.node()), what, peer(h.node(), h.port()), with.isEmpty() ? ""
                            : ", " + queued + " behind packets of " + String.join(", ", with),
                    idle.size() > 1 ? "one of its" : "its", String.join(" or ", idle));
        }
    }

    /** {@code " (h1->h3)"}: the ends of the queue pair of the packet ahead in a collision (empty if unknown). */
    private String flowEnds(JourneyEvent.EcmpCollision c) {
        if (c.aheadQp() >= 0 && c.aheadQp() < network.queuePairs().size()) {
            var qp = network.queuePairs().get(c.aheadQp());
            return " (" + name(qp.sourceHost()) + "->" + name(qp.destinationHost()) + ")";
        }
        return "";
    }

    /** Every step of packet {@code psn} (each transmission of it, its ACK's way back), one line each. */
    private void hopByHop(StringBuilder b, List<JourneyEvent> events, long psn) {
        for (JourneyEvent e : events) {
            boolean control = e.kind() == JourneyEvent.Kind.ENQUEUE && "CNP".equals(e.detail());
            if (e.psn() == psn && isPacketStep(e) && !control) {
                line(b, "  %12s us  %s", us(e.timePs()), step(e));
            } else if (e.cause() instanceof JourneyEvent.CreditWait w && w.psn() == psn && !w.acks()
                    && topo.isHost(e.node())) {
                // The sender's HCA held this very packet for credits (a switch's waits are the flow's, not one PSN's).
                line(b, "  %12s us  %s", us(e.timePs()), credits.line(e, w));
            }
        }
    }

    private static boolean isPacketStep(JourneyEvent e) {
        return switch (e.kind()) {
            case SEND, ENQUEUE, MARK, DROP, DATA_ARRIVED, ACK_ARRIVED, ECMP_COLLISION, ECMP_WAIT -> true;
            default -> false;
        };
    }

    private String step(JourneyEvent e) {
        return switch (e.kind()) {
            case SEND -> String.format(Locale.ROOT, "h%d's RNIC %s it at %s Gb/s", e.node(),
                    e.flag() ? "re-sent" : "sent", gbps(e.value()));
            case ENQUEUE -> String.format(Locale.ROOT, "%s%s: queued towards %s behind %,d bytes", name(e.node()),
                    e.flag() ? " (" + e.detail() + ")" : "", peer(e.node(), e.port()), e.value());
            case MARK -> String.format(Locale.ROOT, "%s marked it CE leaving for %s (queue %,d bytes) and forwarded it",
                    name(e.node()), peer(e.node(), e.port()), e.value());
            case DROP -> lostOnDownLink(e)
                    ? String.format(Locale.ROOT, "%s was lost on the link %s -> %s, which is down", e.flag() ? "its ACK"
                            : "it", name(e.node()), peer(e.node(), e.port()))
                    : String.format(Locale.ROOT, "%s dropped %s (%s)", name(e.node()), e.flag() ? "its ACK" : "it",
                            e.detail());
            case DATA_ARRIVED -> String.format(Locale.ROOT, "h%d received it%s", e.node(), e.flag() ? ", CE-marked" : "");
            case ACK_ARRIVED -> String.format(Locale.ROOT, "h%d received the ACK for PSN %d", e.node(), e.psn());
            case ECMP_COLLISION -> collision(e, (JourneyEvent.EcmpCollision) e.cause());
            case ECMP_WAIT -> collisionWait(e, (JourneyEvent.EcmpWait) e.cause());
            default -> e.kind().name();
        };
    }

    /** The ECMP collision a packet joined its queue behind, as the switch recorded it then. */
    private String collision(JourneyEvent e, JourneyEvent.EcmpCollision c) {
        return String.format(Locale.ROOT, "%s had hashed %s onto this port among equal-cost ports: it joined the queue"
                + " %s %s%s, while the equal-cost port towards %s had been idle for %s us: an ECMP collision",
                name(e.node()), c.acks() ? "the ACK" : "it", c.directly() ? "directly behind" : "behind", aheadWords(c),
                c.directly() ? "" : " (the oldest queued)", peer(e.node(), c.idlePort()), us(c.idlePs()));
    }

    /** Another flow's packet ahead in a collision: {@code a packet of flow 7 (h1->h3), PSN 12}. */
    private String aheadWords(JourneyEvent.EcmpCollision c) {
        return String.format(Locale.ROOT, "a packet of flow %d%s, PSN %d", c.aheadFlow(), flowEnds(c), c.aheadPsn());
    }

    /** A packet of a collision leaves its queue: how long it waited there, less any time its class was held. */
    private String collisionWait(JourneyEvent e, JourneyEvent.EcmpWait w) {
        long held = w.enqueuedPs() < 0 ? 0 : e.timePs() - w.enqueuedPs() - (w.toPs() - w.fromPs());
        return String.format(Locale.ROOT, "%s: %s left the queue towards %s after %s us behind the collision%s",
                name(e.node()), w.acks() ? "the ACK" : "it", peer(e.node(), e.port()), us(w.toPs() - w.fromPs()),
                held > 0 ? String.format(Locale.ROOT, " (and %s us more while its class was %s)", us(held),
                        network.isInfiniband() ? "waiting for credits" : "paused") : "");
    }

    /**
     * One told line, the group it belongs to, and what kind of line it is within its group ({@code like}: drops of
     * several causes are one group, so a shortened run can say how many of each it hides); {@code waitPs}: the time a
     * wait for credits lasted (0 for other lines).
     */
    private record Told(long timePs, String group, String text, String like, long waitPs) {}

    private List<String> story(FlowRecord f, List<JourneyEvent> events, long fromPs, long toPs) {
        List<Told> told = tell(f, events, fromPs, toPs);
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < told.size()) {
            int j = i;
            while (j + 1 < told.size() && told.get(j + 1).group().equals(told.get(i).group())) {
                j++;
            }
            int run = j - i + 1;
            if (run > 4 && CREDIT.equals(told.get(i).group())) {
                creditRun(out, told.subList(i, j + 1));
                i = j + 1;
                continue;
            }
            int shown = run <= 4 ? run : 2;
            for (int k = i; k < i + shown; k++) {
                out.add(String.format(Locale.ROOT, "  %12s us  %s", us(told.get(k).timePs()), told.get(k).text()));
            }
            if (run > shown) {
                out.add(String.format(Locale.ROOT, "  %12s     ... %d more %s until %s us", "", run - shown,
                        hidden(told.subList(i, j + 1), told.subList(i + shown, j + 1)), us(told.get(j).timePs())));
            }
            i = j + 1;
        }
        return out;
    }

    /**
     * A long run of waits for credits, shortened: the first wait at each transmitter (the waits of several hops
     * interleave as congestion spreads upstream one buffer at a time), then how many more there were at each and how
     * long they lasted.
     */
    private static void creditRun(List<String> out, List<Told> run) {
        Map<String, long[]> more = new java.util.LinkedHashMap<>();
        int hidden = 0;
        for (Told t : run) {
            long[] c = more.get(t.like());
            if (c == null) {
                more.put(t.like(), new long[2]);
                out.add(String.format(Locale.ROOT, "  %12s us  %s", us(t.timePs()), t.text()));
            } else {
                c[0]++;
                c[1] += t.waitPs();
                hidden++;
            }
        }
        if (hidden == 0) {
            return;
        }
        StringBuilder b = new StringBuilder();
        more.forEach((hop, c) -> b.append(c[0] == 0 ? "" : (b.length() == 0 ? "" : "; ") + String.format(Locale.ROOT,
                "%,d %s, %s us", c[0], hop, us(c[1]))));
        out.add(String.format(Locale.ROOT, "  %12s     ... %,d more waits for credits until %s us (%s)", "", hidden,
                us(run.get(run.size() - 1).timePs()), b));
    }

    /** What a shortened run hides: "like these" when all of one kind, else how many of each kind. */
    private static String hidden(List<Told> run, List<Told> hidden) {
        Map<String, Integer> kinds = new java.util.LinkedHashMap<>();
        for (Told t : hidden) {
            kinds.merge(t.like(), 1, Integer::sum);
        }
        if (kinds.size() == 1 && run.stream().allMatch(t -> t.like().equals(run.get(0).like()))) {
            return "like these";
        }
        StringBuilder b = new StringBuilder();
        kinds.forEach((like, n) -> b.append(b.length() == 0 ? "(" : ", ").append(n).append(' ').append(like));
        return b.append(')').toString();
    }

    private List<Told> tell(FlowRecord f, List<JourneyEvent> events, long fromPs, long toPs) {
        List<Told> out = new ArrayList<>();
        Set<Long> path = new HashSet<>();
        // Notifications by their number: a rate change names the one it reacted to, so it is found by identity.
        Map<Long, JourneyEvent> noticeByNumber = new java.util.HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.Notice n && (e.kind() == JourneyEvent.Kind.CNP_SENT
                    || !noticeByNumber.containsKey(n.number()))) {
                noticeByNumber.put(n.number(), e);
            }
        }
        // Each recovery's re-sends, by the recovery each re-sent packet names: a recovery is told once, not per packet.
        Map<Integer, Resends> resends = new java.util.HashMap<>();
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.SEND && e.cause() instanceof JourneyEvent.Resend r) {
                resends.computeIfAbsent(r.recovery(), k -> new Resends()).add(e);
            }
        }
        // Every port the flow's packets were queued at or lost on, to tell which link changes were on its way.
        Set<Long> used = new HashSet<>();
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.ENQUEUE || e.kind() == JourneyEvent.Kind.DROP) {
                used.add(key(e.node(), e.port()));
            }
        }
        boolean started = false;
        // A collision wait is told at its first at each hop behind each flow (the header has them all, summed).
        Set<String> collisionsTold = new HashSet<>();
        for (JourneyEvent e : events) {
            boolean show = e.timePs() >= fromPs && e.timePs() <= toPs;
            String text = null;
            switch (e.kind()) {
                case ENQUEUE -> path.add(key(e.node(), e.port()));
                case SEND -> {
                    if (!started) {
                        text = String.format(Locale.ROOT, "h%d starts sending at %s Gb/s", e.node(), gbps(e.value()));
                        started = true;
                    }
                    if (e.flag() && JourneyRecorder.SELECTIVE.equals(e.detail())
                            && e.cause() instanceof JourneyEvent.Resend r && resends.get(r.recovery()).first == e) {
                        // Selective repeat: the PSNs re-sent alone after one recovery, told at the first of them.
                        text = selectiveResends(e.node(), resends.get(r.recovery()));
                    } else if (e.flag() && !(e.cause() instanceof JourneyEvent.Resend)) {
                        // A re-send no recovery was reported for (not expected): told as it is.
                        text = String.format(Locale.ROOT, "h%d re-sends PSN %d", e.node(), e.psn());
                    }
                }
                case RECOVERY -> text = recovery(e, (JourneyEvent.Recovery) e.cause(), resends);
                case RATE -> text = rate(e, (JourneyEvent.RateChange) e.cause(), noticeByNumber);
                case MARK -> text = String.format(Locale.ROOT, "%s: queue towards %s at %,d bytes, PSN %d marked CE and"
                        + " still forwarded", name(e.node()), peer(e.node(), e.port()), e.value(), e.psn());
                case DROP -> text = lostOnDownLink(e)
                        ? String.format(Locale.ROOT, "%s %d lost on the link %s -> %s, which is down",
                                e.flag() ? "the ACK of PSN" : "PSN", e.psn(), name(e.node()), peer(e.node(), e.port()))
                        : String.format(Locale.ROOT, "%s dropped %s %d (%s)", name(e.node()),
                                e.flag() ? "the ACK of PSN" : "PSN", e.psn(), e.detail());
                case LINK -> text = link(f, e, (JourneyEvent.LinkChange) e.cause(), used);
                case CNP_SENT -> {
                    JourneyEvent.Notice n = (JourneyEvent.Notice) e.cause();
                    text = String.format(Locale.ROOT, "h%d sends %s back for PSN %d  <- %s", e.node(),
                            e.flag() ? "the CNP flag on an ACK" : "a CNP", n.psn(), markText(n));
                }
                case CNP_HANDLED -> {
                    JourneyEvent.Notice n = (JourneyEvent.Notice) e.cause();
                    text = String.format(Locale.ROOT, "h%d's RNIC gets the CNP (sent at %s us for PSN %d): %s",
                            e.node(), us(n.sentPs()), n.psn(), e.flag() ? "its congestion control reacts (rate at"
                                    + " this moment " + gbps(e.value()) + " Gb/s)" : "ignored by its congestion control");
                }
                case NAK_ARRIVED -> text = e.flag()
                        ? String.format(Locale.ROOT, "h%d gets a selective NAK: the receiver has every PSN before %d"
                                + " and asks for PSN%s alone", e.node(), Long.parseLong(e.detail()) + 1,
                                e.value() == e.psn() ? " " + e.psn() : "s " + e.psn() + "-" + e.value())
                        : String.format(Locale.ROOT, "h%d gets a NAK: the receiver expects PSN %d", e.node(), e.psn());
                case PAUSED, RESUMED -> text = pause(f, e, path);
                case WAITED -> text = waited(e, (JourneyEvent.Wait) e.cause());
                case CREDIT_WAIT -> text = credits.line(e, (JourneyEvent.CreditWait) e.cause());
                case ECMP_WAIT -> {
                    JourneyEvent.EcmpWait w = (JourneyEvent.EcmpWait) e.cause();
                    if (w.collision() != null && collisionsTold.add(e.node() + "/" + e.port() + "/" + w.acks() + "/"
                            + w.collision().aheadFlow())) {
                        text = String.format(Locale.ROOT, "%s: %s %d waited %s us in the queue towards %s behind an"
                                + " ECMP collision: %s had hashed it there among equal-cost ports, %s %s, while its"
                                + " port towards %s was idle (the first such wait here behind flow %d; the header sums"
                                + " them)", name(e.node()), w.acks() ? "the ACK of PSN" : "PSN", e.psn(),
                                us(w.toPs() - w.fromPs()), peer(e.node(), e.port()), name(e.node()),
                                w.collision().directly() ? "directly behind" : "behind", aheadWords(w.collision()),
                                peer(e.node(), w.collision().idlePort()), w.collision().aheadFlow());
                    }
                }
                case COMPLETED -> text = String.format(Locale.ROOT, "h%d has the ACK of the last packet: flow"
                        + " complete", e.node());
                default -> {
                }
            }
            if (show && text != null) {
                out.add(new Told(e.timePs(), group(e), text, like(e),
                        e.kind() == JourneyEvent.Kind.CREDIT_WAIT ? e.value() : 0));
            }
        }
        return out;
    }

    /** The kind of a told line within its group: a drop's cause and where, else the group itself. */
    private String like(JourneyEvent e) {
        if (e.cause() instanceof JourneyEvent.CreditWait w) {
            return credits.like(e, w);
        }
        if (e.kind() != JourneyEvent.Kind.DROP) {
            return group(e);
        }
        String what = e.flag() ? "ACKs" : "PSNs";
        return lostOnDownLink(e) ? String.format(Locale.ROOT, "%s lost on the link %s -> %s", what, name(e.node()),
                peer(e.node(), e.port())) : String.format(Locale.ROOT, "%s dropped by %s (%s)", what, name(e.node()),
                e.detail());
    }

    private static boolean lostOnDownLink(JourneyEvent e) {
        return DropReason.LINK_DOWN.key().equals(e.detail());
    }

    /**
     * A link going down or up, told when it is on the flow's way: an end is its sender or receiver, or the flow's
     * packets (data or ACKs) were queued at or lost on either end's port.
     */
    private String link(FlowRecord f, JourneyEvent e, JourneyEvent.LinkChange c, Set<Long> used) {
        boolean onWay = e.node() == f.src() || e.node() == f.dst() || c.peerNode() == f.src()
                || c.peerNode() == f.dst() || used.contains(key(e.node(), e.port()))
                || used.contains(key(c.peerNode(), c.peerPort()));
        if (!onWay) {
            return null;
        }
        return c.up() ? String.format(Locale.ROOT, "the link %s - %s comes back up (a link event of the scenario)",
                name(e.node()), name(c.peerNode()))
                : String.format(Locale.ROOT, "the link %s - %s goes down (a link event of the scenario): what is on it"
                        + " and what is sent onto it is lost until it comes back", name(e.node()), name(c.peerNode()));
    }

    /** The packets re-sent after one recovery, in the order sent. */
    private static final class Resends {
        JourneyEvent first;
        JourneyEvent last;
        long count;
        long lowPsn = Long.MAX_VALUE;
        long highPsn = -1;
        /** PSN ranges as sent, {from, to} each. */
        final List<long[]> ranges = new ArrayList<>();

        void add(JourneyEvent e) {
            if (first == null) {
                first = e;
            }
            last = e;
            count++;
            lowPsn = Math.min(lowPsn, e.psn());
            highPsn = Math.max(highPsn, e.psn());
            long[] r = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (r != null && e.psn() == r[1] + 1) {
                r[1] = e.psn();
            } else {
                ranges.add(new long[] {e.psn(), e.psn()});
            }
        }
    }

    /** The PSNs of {@code r} as ranges, {@code 37-38, 41-45}; after eight ranges, how many more. */
    private static String ranges(Resends r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.ranges.size() && i < 8; i++) {
            long[] x = r.ranges.get(i);
            b.append(i == 0 ? "" : ", ").append(x[0]).append(x[1] > x[0] ? "-" + x[1] : "");
        }
        if (r.ranges.size() > 8) {
            b.append(String.format(Locale.ROOT, " and %d more ranges", r.ranges.size() - 8));
        }
        return b.toString();
    }

    /** The PSNs sent again alone after one recovery of a QP that repeats selectively. */
    private static String selectiveResends(int host, Resends r) {
        if (r.count == 1) {
            return String.format(Locale.ROOT, "h%d re-sends PSN %d alone (selective repeat)", host, r.first.psn());
        }
        return String.format(Locale.ROOT, "h%d re-sends %,d PSNs alone (selective repeat): %s, from %s to %s us",
                host, r.count, ranges(r), us(r.first.timePs()), us(r.last.timePs()));
    }

    /**
     * A recovery as the QP reported it: a go-back-N after a NAK or a local ACK timeout, told once with the packets
     * re-sent because of it (those that name it); a selective repeat's timeout (its re-sends are told where they
     * start); the retries spent.
     */
    private String recovery(JourneyEvent e, JourneyEvent.Recovery r, Map<Integer, Resends> all) {
        String timer = String.format(Locale.ROOT, "h%d's local ACK timeout (%s us) fired: no new ACK since %s us",
                e.node(), us(r.timeoutPs()), us(r.noAckSincePs()));
        if (r.failed()) {
            return String.format(Locale.ROOT, "%s, and %s: the QP fails (retry exceeded)", timer,
                    r.retryLimit() == 0 ? "it may not retry (retry-count 0)" : r.retryLimit() == 1
                            ? "its one retry is spent" : "its " + r.retryLimit() + " retries are spent");
        }
        if (r.selective()) {
            return r.timeout() ? String.format(Locale.ROOT, "%s; it will send again alone the %,d PSN%s it cannot know"
                    + " arrived (selective repeat, retry %d of %d)", timer, r.packets(), r.packets() == 1 ? "" : "s",
                    r.retry(), r.retryLimit()) : null;
        }
        Resends s = all.get(r.number());
        String sent;
        if (s == null) {
            sent = r.packets() == 0 ? "it had sent nothing from there, so nothing is re-sent"
                    : String.format(Locale.ROOT, "none of the %,d packet%s it had sent from there is re-sent before"
                            + " the next recovery", r.packets(), r.packets() == 1 ? "" : "s");
        } else {
            String psns = s.highPsn > s.lowPsn ? "PSNs " + s.lowPsn + "-" + s.highPsn : "PSN " + s.lowPsn;
            sent = String.format(Locale.ROOT, "re-sends %s (%,d %s) from %s to %s us", psns, s.count,
                    s.count == r.packets() ? (s.count == 1 ? "packet" : "packets")
                            : String.format(Locale.ROOT, "of the %,d packets it had sent from there", r.packets()),
                    us(s.first.timePs()), us(s.last.timePs()));
        }
        if (r.timeout()) {
            return String.format(Locale.ROOT, "%s; it goes back to PSN %d (go-back-N, retry %d of %d) and %s", timer,
                    r.fromPsn(), r.retry(), r.retryLimit(), sent);
        }
        return String.format(Locale.ROOT, "h%d goes back to PSN %d after the NAK (go-back-N) and %s", e.node(),
                r.fromPsn(), sent);
    }

    /**
     * How much of the flow went by before its QP's local ACK timeouts fired: each timeout is preceded by a stretch
     * with nothing new acknowledged, as long as the timeout (from when the timer started, as the QP reported it).
     */
    /**
     * A QP sends its messages in the order they were posted: a flow posted while earlier ones were still being sent
     * waits for its turn, and its FCT (from its post) includes that wait. Told by identity: the flows the QP's packets
     * carried between the flow's post and its first packet.
     */
    private void queuedBehindLine(StringBuilder b, FlowRecord f) {
        if (queuedBehind.isEmpty() || firstSendPs == Long.MAX_VALUE || firstSendPs <= f.startPs()) {
            return;
        }
        long waited = firstSendPs - f.startPs();
        String share = f.completed() && f.fctPs() > 0
                ? String.format(Locale.ROOT, " (%.1f%% of its FCT)", 100.0 * waited / f.fctPs()) : "";
        StringBuilder who = new StringBuilder();
        for (int i = 0; i < queuedBehind.size(); i++) {
            JourneyRecorder.QueuedBehind q = queuedBehind.get(i);
            if (i > 0) {
                who.append(i == queuedBehind.size() - 1 ? " and " : ", ");
            }
            who.append(String.format(Locale.ROOT, "flow %d (%,d packet%s%s from %s to %s us)", q.flow(), q.packets(),
                    q.packets() == 1 ? "" : "s", q.resent() == 0 ? "" : String.format(Locale.ROOT,
                            ", %,d of them sent again", q.resent()), us(q.firstSentPs()), us(q.lastSentPs())));
        }
        line(b, "  its first packet left at %s us, %s us after it was posted%s: QP %d sends its messages in the order"
                + " they were posted, and until then it was sending %s", us(firstSendPs), us(waited), share,
                f.queuePair(), who);
    }

    private void timeouts(StringBuilder b, FlowRecord f, List<JourneyEvent> events) {
        long end = f.completed() ? f.finishPs() : Long.MAX_VALUE;
        int fired = 0;
        long waited = 0;
        long timeoutPs = 0;
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.RECOVERY && e.cause() instanceof JourneyEvent.Recovery r && r.timeout()
                    && e.timePs() >= f.startPs() && e.timePs() <= end) {
                fired++;
                waited += e.timePs() - Math.max(r.noAckSincePs(), f.startPs());
                timeoutPs = r.timeoutPs();
            }
        }
        if (fired == 0) {
            return;
        }
        String share = "";
        if (f.completed() && f.fctPs() > 0) {
            double part = (double) waited / f.fctPs();
            share = String.format(Locale.ROOT, ", %.1f%% of its FCT%s", 100 * part,
                    part >= 0.5 ? ": most of the flow's time passed waiting for it" : "");
        }
        line(b, "  its QP's local ACK timeout (%s us) fired %d time%s: %s us with no new ACK before %s%s",
                us(timeoutPs), fired, fired == 1 ? "" : "s", us(waited), fired == 1 ? "it fired" : "they fired", share);
    }

    /** Where and when the data packet a notification answers was marked, as the notification carried it. */
    private String markText(JourneyEvent.Notice n) {
        if (n.markNode() < 0) {
            return "the packet arrived CE-marked";
        }
        return String.format(Locale.ROOT, "marked at %s us by %s port %d (towards %s)", us(n.markAtPs()),
                name(n.markNode()), n.markPort(), peer(n.markNode(), n.markPort()));
    }

    /** A rate or window change and the cause its congestion control reported with it. */
    private String rate(JourneyEvent e, JourneyEvent.RateChange r, Map<Long, JourneyEvent> notices) {
        String window = r.windowBytes() == Long.MAX_VALUE ? ""
                : String.format(Locale.ROOT, ", window %,d bytes", r.windowBytes());
        String what = r.dataWaiting()
                ? String.format(Locale.ROOT, "h%d sends at %s Gb/s (was %s)%s", e.node(), gbps(r.toBps()),
                        gbps(r.fromBps()), window)
                : String.format(Locale.ROOT, "h%d's rate becomes %s Gb/s (was %s)%s, with no data waiting to be sent",
                        e.node(), gbps(r.toBps()), gbps(r.fromBps()), window);
        return what + "  <- " + causeText(r, notices);
    }

    /** The words for a rate change's cause; a notification is named by its number, so by identity. */
    String causeText(JourneyEvent.RateChange r, Map<Long, JourneyEvent> notices) {
        RateCause c = r.cause();
        if (c.isNotification()) {
            JourneyEvent n = notices.get(r.value());
            String kind = c == RateCause.BECN ? "BECN" : "CNP";
            String period = c == RateCause.CNP_PERIOD ? " (cut at the end of the rate-decrease period; the last "
                    + "CNP in it)" : c == RateCause.BECN ? String.format(Locale.ROOT, " (CCTI %d)", r.index()) : "";
            if (n == null) {
                return String.format(Locale.ROOT, "%s number %d of this QP%s", kind, r.value(), period);
            }
            JourneyEvent.Notice notice = (JourneyEvent.Notice) n.cause();
            int sender = n.kind() == JourneyEvent.Kind.CNP_SENT ? n.node() : -1;
            return String.format(Locale.ROOT, "%s sent by %s at %s us for PSN %d, %s%s", kind,
                    sender >= 0 ? name(sender) : "the receiver", us(notice.sentPs()), notice.psn(), markText(notice),
                    period);
        }
        String value = switch (c.family()) {
            case "telemetry", "ecn-echo" -> String.format(Locale.ROOT, "%.3f", r.value() / 1e6);
            case "rtt", "delay", "rtt-sample" -> c == RateCause.RTT_GRADIENT_FALLING || c == RateCause.RTT_GRADIENT_RISING
                    ? String.format(Locale.ROOT, "%+.3f", r.value() / 1e6) : us(r.value()) + " us";
            default -> Long.toString(r.value());
        };
        String t = c.text();
        return t.contains("%s") && t.contains("%d") ? String.format(Locale.ROOT, t, value, r.index())
                : t.contains("%s") ? String.format(Locale.ROOT, t, value)
                : t.contains("%d") ? String.format(Locale.ROOT, t, r.index()) : t;
    }

    /** A wait of the flow's packets behind a pause, and the XOFF that paused the transmitter, by its identity. */
    private String waited(JourneyEvent e, JourneyEvent.Wait w) {
        String what = w.acks() ? "last ACK" : "packets";
        String where = topo.isHost(e.node()) ? "h" + e.node() + "'s RNIC held " + (w.acks() ? "the flow's last ACK" : "its data")
                : String.format(Locale.ROOT, "%s: the flow's %s waited in the queue towards %s", name(e.node()), what,
                        peer(e.node(), e.port()));
        Topology.End far = topo.peer(e.node(), e.port());
        PfcLog.Xoff x = pfc == null ? null : pfc.xoff(far.node(), far.port(), w.priority(), w.xoffSentPs());
        String by = x == null ? String.format(Locale.ROOT, "paused by %s", name(far.node()))
                : String.format(Locale.ROOT, "paused by %s's XOFF of %s us, rooted at %s", name(far.node()),
                        us(x.timePs()), pfc.rootName(x.rootNode(), x.rootPort()));
        return String.format(Locale.ROOT, "%s %s us behind a pause (%s)", where, us(e.value()), by);
    }

    private static String group(JourneyEvent e) {
        return switch (e.kind()) {
            case MARK, DROP -> e.kind().name();
            case CNP_SENT, CNP_HANDLED, SEND -> "notify";
            case RECOVERY -> "recovery";
            case RATE -> "rate:" + e.detail();
            case PAUSED, RESUMED -> "pfc@" + e.node() + "/" + e.port();
            case WAITED -> "wait@" + e.node() + "/" + e.port();
            // One group for every hop: as congestion spreads, the waits of several hops interleave.
            case CREDIT_WAIT -> CREDIT;
            case ECMP_WAIT -> "ecmp@" + e.node() + "/" + e.port();
            default -> e.kind().name();
        };
    }

    /** A PFC frame matters to the flow when it pauses a port its packets use, or its sender's RNIC. */
    private String pause(FlowRecord f, JourneyEvent e, Set<Long> path) {
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
        rocelab.fabric.nic.QueuePair qp = f.queuePair() >= 0 && f.queuePair() < network.queuePairs().size()
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
                    x.egressPort() < 0 ? "" : ", queued mostly towards " + peer(e.node(), x.egressPort()),
                    x.depth() == 0 ? "that port was not paused: it is the congestion point"
                            : String.format(Locale.ROOT, "that port was paused: rooted at %s, %d pause hop%s away",
                                    pfc.rootName(x.rootNode(), x.rootPort()), x.depth(), x.depth() == 1 ? "" : "s"));
        }
        return String.format(Locale.ROOT, "%s sends PFC XOFF to %s for priority %d%s (%s%s): %s", name(e.node()),
                name(far.node()), e.psn(), refresh ? " again, a refresh while the pause holds" : "", held, cause,
                stops);
    }

    private static long key(int node, int port) {
        return (long) node << 32 | port;
    }

    private String name(int node) {
        return topo.nodeName(node);
    }

    private String peer(int node, int port) {
        return topo.nodeName(topo.peer(node, port).node());
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }

    private static String gbps(long bps) {
        return String.format(Locale.ROOT, "%.1f", bps / 1e9);
    }

    private static void line(StringBuilder b, String format, Object... args) {
        b.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

}
