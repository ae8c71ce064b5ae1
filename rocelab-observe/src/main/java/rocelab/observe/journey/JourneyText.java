package rocelab.observe.journey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.network.Network;
import rocelab.fabric.network.RetryFailure;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.topology.Topology;
import rocelab.observe.credit.CreditLog;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.RetryFailureText;
import rocelab.observe.pcap.IbPacketEncoder;
import rocelab.observe.pfc.PfcLog;
import rocelab.observe.victim.FlowWaits;

/**
 * Tells a flow's journey as a time-ordered story: the first packet hop by hop, then every event that shaped the
 * flow (marks and the CNPs they caused, rate changes and the CNPs behind them, drops and retransmissions, PFC
 * pauses on its path), each line linked to its cause. {@code --packet} follows one PSN instead.
 */
public final class JourneyText {
    private final Network network;
    private final Topology topo;
    private final PauseText pauses;
    private final CreditWaitText credits;
    /** The run's ECMP log (null: no switch hashes among equal-cost ports). */
    private final CollisionText collisions;
    /** The group of the waits for credits. */
    private static final String CREDIT = "credit";
    /** The flows posted before it on its QP that the QP sent while the flow waited for its turn (see queuedBehind). */
    private List<JourneyRecorder.QueuedBehind> queuedBehind = List.of();
    /** When the flow's first packet left (Long.MAX_VALUE: it sent none). */
    private long firstSendPs = Long.MAX_VALUE;
    /** How the run ended, for a flow that did not complete (null: not told; the header then says only that). */
    private String stopReason;
    private long runEndPs = -1;
    private List<String> deadlockCycle = List.of();
    private long deadlockSincePs = -1;

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
    public JourneyText(Network network, PfcLog pfc, CreditLog credits) {
        this(network, pfc, credits, null);
    }

    /**
     * @param ecmp the run's ECMP log (null: no switch hashes among equal-cost ports): the flow's waits behind ECMP
     *     collisions, per hop, with the flows it collided with
     */
    public JourneyText(Network network, PfcLog pfc, CreditLog credits,
            EcmpLog ecmp) {
        this.network = network;
        this.topo = network.topology();
        this.pauses = new PauseText(network, pfc);
        this.credits = new CreditWaitText(network, credits);
        this.collisions = new CollisionText(network, ecmp);
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
     * How the run ended ({@code RunResult.stopReason()} and its deadlock cycle): the header of a flow that did not
     * complete then says what ended the run, a deadlock or the stop time, not only that the flow was unfinished.
     */
    public JourneyText runEnded(String stopReason, long endPs, List<String> deadlockCycle, long deadlockSincePs) {
        this.stopReason = stopReason;
        this.runEndPs = endPs;
        this.deadlockCycle = List.copyOf(deadlockCycle);
        this.deadlockSincePs = deadlockSincePs;
        return this;
    }

    /**
     * Why the flow was never posted (from the failure the driver recorded reaching it, the dependency it waited for),
     * told instead of a post time for a flow whose record is {@link FlowRecord#notPosted}.
     */
    public JourneyText notPosted(String why) {
        this.notPostedWhy = why;
        return this;
    }

    private String notPostedWhy;

    /** Why a flow that neither completed nor failed is unfinished: what ended the run. */
    private String unfinishedText() {
        if (stopReason == null) {
            return "did not complete before the run ended";
        }
        String end = us(runEndPs);
        return switch (stopReason) {
            case "deadlock" -> String.format(Locale.ROOT, "did not complete: the run ended at %s us on a deadlock (data"
                    + " stopped moving at or before %s us, the checks running 1 ms apart, and moved no more), %s"
                    + " waiting on each other in a cycle: %s -> (back to the first)", end, us(deadlockSincePs), network.isInfiniband()
                    ? "queues held for credits" : "paused queues", String.join(" -> ", deadlockCycle));
            case "stalled" -> String.format(Locale.ROOT, "did not complete: the run ended at %s us, stalled (no data"
                    + " moved for a long stretch of simulated time with flows unfinished)", end);
            case "stop-at" -> String.format(Locale.ROOT, "did not complete before the scenario's stop time, %s us",
                    end);
            default -> String.format(Locale.ROOT, "did not complete before the run ended at %s us (stop_reason %s)",
                    end, stopReason);
        };
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

    /** A failed flow's QP ran out of retries; what the links did to it, where the fabric recorded that. */
    private String failedText(FlowRecord f) {
        RetryFailure why = network.retryFailureOf(f.queuePair());
        return why == null ? "FAILED: the QP exhausted its retries"
                : "FAILED: the QP exhausted its retries at " + us(why.atPs()) + " us; "
                        + RetryFailureText.why(why, network.topology());
    }

    private String tell(FlowRecord f, List<JourneyEvent> events, long psn, long fromPs, long toPs, int maxLines) {
        StringBuilder b = new StringBuilder();
        if (network.isInfiniband()) {
            // No UDP/IP header on InfiniBand, so no source port: a switch forwards a packet by its destination LID.
            line(b, "journey of flow %d: h%d -> h%d, %,d bytes, RC QP %d (InfiniBand: the switches forward its packets"
                    + " by their destination LID, h%d's LID %d)", f.id(), f.src(), f.dst(), f.sizeBytes(),
                    f.queuePair(), f.dst(), IbPacketEncoder.lid(f.dst()));
        } else {
            line(b, "journey of flow %d: h%d -> h%d, %,d bytes, RC QP %d (UDP source port %d)", f.id(), f.src(),
                    f.dst(), f.sizeBytes(), f.queuePair(), f.udpSourcePort());
        }
        if (f.notPosted()) {
            // It sent nothing: no post time, no packets to follow.
            line(b, "  %s", notPostedWhy != null ? notPostedWhy
                    : "never posted: a failure reached it first (something it waited for failed, or its QP did)");
            return b.toString();
        }
        line(b, "  posted at %s us; %s", us(f.startPs()), f.completed()
                ? String.format(Locale.ROOT, "completed at %s us: FCT %s us, %.2fx the %s us of its closed form alone on an idle fabric",
                        us(f.finishPs()), us(f.fctPs()), f.slowdown(), us(f.idealFctPs()))
                : f.failed() ? failedText(f) : unfinishedText());
        queuedBehindLine(b, f);
        if (network.isInfiniband()) {
            infinibandPaths(b, f);
        }
        if (f.rateHeldPs() > 0) {
            // Often the largest part of a throttled flow's time, and otherwise only the sum of its many rate lines.
            long life = (f.completed() ? f.finishPs() : endPs(events, f)) - f.startPs();
            line(b, "  held back by its congestion control's rate %s us%s: data ready, its rate's gap not over"
                    + " (flows.csv rate_held_us)", us(f.rateHeldPs()), life > 0 ? String.format(Locale.ROOT,
                    ", %.1f %% of its %s", 100.0 * f.rateHeldPs() / life, f.completed() ? "FCT" : "time in the run")
                    : "");
        }
        pauses.header(b, f);
        credits.header(b, f, events);
        collisions.header(b, f, events);
        RecoveryText.timeouts(b, f, events);
        QueuePair qp = f.queuePair() >= 0 && f.queuePair() < network.queuePairs().size()
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
        // A single line more is told, not counted: the count would take its place.
        int shown = Numbers.shown(story.size(), Math.max(0, maxLines));
        for (int i = 0; i < shown; i++) {
            b.append(story.get(i)).append('\n');
        }
        if (story.size() > shown) {
            line(b, "  ... %d more lines (--max-lines, or --json for every event)", story.size() - shown);
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
                    : String.format(Locale.ROOT, "%s dropped %s%s (%s)%s", name(e.node()), e.flag() ? "its ACK" : "it",
                            dropPort(e), e.detail(), dropCause(e));
            case DATA_ARRIVED -> String.format(Locale.ROOT, "h%d received it%s%s", e.node(), e.flag() ? ", CE-marked" : "",
                    outOfSequence(e.detail()));
            case ACK_ARRIVED -> String.format(Locale.ROOT, "h%d received the ACK for PSN %d", e.node(), e.psn());
            case ECMP_COLLISION -> collisions.collision(e, (JourneyEvent.EcmpCollision) e.cause());
            case ECMP_WAIT -> collisions.collisionWait(e, (JourneyEvent.EcmpWait) e.cause());
            default -> e.kind().name();
        };
    }

    /**
     * One told line, the group it belongs to, and what kind of line it is within its group ({@code like}: drops of
     * several causes are one group, so a shortened run can say how many of each it hides); {@code waitPs}: the time a
     * wait for credits lasted (0 for other lines).
     */
    record Told(long timePs, String group, String text, String like, long waitPs) {}

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
        Map<String, long[]> more = new LinkedHashMap<>();
        int hidden = 0;
        long firstHidden = Long.MAX_VALUE;
        long lastHidden = Long.MIN_VALUE;
        for (Told t : run) {
            long[] c = more.get(t.like());
            if (c == null) {
                more.put(t.like(), new long[2]);
                out.add(String.format(Locale.ROOT, "  %12s us  %s", us(t.timePs()), t.text()));
            } else {
                c[0]++;
                c[1] += t.waitPs();
                hidden++;
                firstHidden = Math.min(firstHidden, t.timePs());
                lastHidden = Math.max(lastHidden, t.timePs());
            }
        }
        if (hidden == 0) {
            return;
        }
        StringBuilder b = new StringBuilder();
        more.forEach((hop, c) -> b.append(c[0] == 0 ? "" : (b.length() == 0 ? "" : "; ") + String.format(Locale.ROOT,
                "%,d %s, %s us", c[0], hop, us(c[1]))));
        // The hidden waits' own times: they may lie before a first wait of another kind printed just above (a wait
        // at a new hop), so "until the run's end" would read as if they came after it.
        out.add(String.format(Locale.ROOT, "  %12s     ... %,d more waits for credits %s (%s)", "", hidden,
                hidden == 1 ? "at " + us(firstHidden) + " us"
                        : "from " + us(firstHidden) + " to " + us(lastHidden) + " us", b));
    }

    /** What a shortened run hides: "like these" when all of one kind, else how many of each kind. */
    static String hidden(List<Told> run, List<Told> hidden) {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        for (Told t : hidden) {
            kinds.merge(t.like(), 1, Integer::sum);
        }
        if (kinds.size() == 1 && run.stream().allMatch(t -> t.like().equals(run.get(0).like()))) {
            return "like these";
        }
        StringBuilder b = new StringBuilder();
        // One drop is one PSN or ACK, one notification one CNP ("1 PSN lost on the link ...", not "1 PSNs").
        kinds.forEach((like, n) -> b.append(b.length() == 0 ? "(" : ", ").append(n).append(' ').append(
                n == 1 && (like.startsWith("PSNs ") || like.startsWith("ACKs ") || like.startsWith("CNPs "))
                        ? like.substring(0, 3) + like.substring(4) : like));
        return b.append(')').toString();
    }

    private List<Told> tell(FlowRecord f, List<JourneyEvent> events, long fromPs, long toPs) {
        List<Told> out = new ArrayList<>();
        // Every port the flow's packets (data or ACKs) were queued at in its life, to tell the PFC frames that paused
        // its way: known before the first line, so an XOFF that paused a port just before the flow's packets reached
        // it is told with its XON (an audit: a 3-tier pause tree told s2's XON to s1, and the flow's wait behind
        // "s2's XOFF of 20.054 us", but not that XOFF, sent before the flow's first packet came to s1).
        Set<Long> path = new HashSet<>();
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.ENQUEUE) {
                path.add(key(e.node(), e.port()));
            }
        }
        // Notifications by their number: a rate change names the one it reacted to, so it is found by identity.
        Map<Long, JourneyEvent> noticeByNumber = new HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.Notice n && (e.kind() == JourneyEvent.Kind.CNP_SENT
                    || !noticeByNumber.containsKey(n.number()))) {
                noticeByNumber.put(n.number(), e);
            }
        }
        // The BECNs that raised their sender's CCT index (ib-cc reports the change the instant it handles one): a BECN
        // with none found its index at ccti-limit already, and changed nothing.
        Set<Long> raisedBy = new HashSet<>();
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.RATE && e.cause() instanceof JourneyEvent.RateChange r
                    && r.cause() == RateCause.BECN) {
                raisedBy.add(r.value());
            }
        }
        // Each recovery's re-sends, by the recovery each re-sent packet names: a recovery is told once, not per packet.
        Map<Integer, RecoveryText.Resends> resends = new HashMap<>();
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.SEND && e.cause() instanceof JourneyEvent.Resend r) {
                resends.computeIfAbsent(r.recovery(), k -> new RecoveryText.Resends()).add(e);
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
        // The ports whose link is down at the event told: a PFC frame sent there never arrives.
        Set<Long> downPorts = new HashSet<>();
        for (JourneyEvent e : events) {
            boolean show = e.timePs() >= fromPs && e.timePs() <= toPs;
            String text = null;
            switch (e.kind()) {
                case SEND -> {
                    if (!started) {
                        text = String.format(Locale.ROOT, "h%d starts sending at %s Gb/s", e.node(), gbps(e.value()));
                        started = true;
                    }
                    if (e.flag() && JourneyRecorder.SELECTIVE.equals(e.detail())
                            && e.cause() instanceof JourneyEvent.Resend r && resends.get(r.recovery()).first == e) {
                        // Selective repeat: the PSNs re-sent alone after one recovery, told at the first of them.
                        text = RecoveryText.selectiveResends(e.node(), resends.get(r.recovery()));
                    } else if (e.flag() && !(e.cause() instanceof JourneyEvent.Resend)) {
                        // A re-send no recovery was reported for (not expected): told as it is.
                        text = String.format(Locale.ROOT, "h%d re-sends PSN %d", e.node(), e.psn());
                    }
                }
                case RECOVERY -> text = RecoveryText.recovery(e, (JourneyEvent.Recovery) e.cause(), resends);
                case RATE -> text = rate(e, (JourneyEvent.RateChange) e.cause(), noticeByNumber);
                case MARK -> text = String.format(Locale.ROOT, "%s: queue towards %s at %,d bytes, PSN %d marked CE and"
                        + " still forwarded", name(e.node()), peer(e.node(), e.port()), e.value(), e.psn());
                case DROP -> text = lostOnDownLink(e)
                        ? String.format(Locale.ROOT, "%s %d lost on the link %s -> %s, which is down",
                                e.flag() ? "the ACK of PSN" : "PSN", e.psn(), name(e.node()), peer(e.node(), e.port()))
                        : String.format(Locale.ROOT, "%s dropped %s %d%s (%s)%s", name(e.node()),
                                e.flag() ? "the ACK of PSN" : "PSN", e.psn(), dropPort(e), e.detail(), dropCause(e));
                case LINK -> {
                    JourneyEvent.LinkChange change = (JourneyEvent.LinkChange) e.cause();
                    text = link(f, e, change, used);
                    if (change.up()) {
                        downPorts.remove(key(e.node(), e.port()));
                        downPorts.remove(key(change.peerNode(), change.peerPort()));
                    } else {
                        downPorts.add(key(e.node(), e.port()));
                        downPorts.add(key(change.peerNode(), change.peerPort()));
                    }
                }
                // Generated, not sent: the interval runs from when the RNIC made the CNP, which may wait for the wire
                // before the line that says it was sent (train-3d-rail: 160 ps, one time printed two ways).
                case CNP_WITHHELD -> text = String.format(Locale.ROOT, "h%d sends no CNP for PSN %d, CE-marked:"
                        + " %s generated one %s us before (at %s us), within its %s us interval %s", e.node(), e.psn(),
                        e.flag() ? "its port (for this QP or another)" : "it", us(e.timePs() - e.value()),
                        us(e.value()), us(Long.parseLong(e.detail())), e.flag() ? "per port" : "per QP");
                case CNP_SENT -> {
                    JourneyEvent.Notice n = (JourneyEvent.Notice) e.cause();
                    text = String.format(Locale.ROOT, "h%d sends %s back for PSN %d  <- %s", e.node(),
                            e.flag() ? "the CNP flag on an ACK" : "a CNP", n.psn(), markText(n));
                }
                case CNP_HANDLED -> {
                    JourneyEvent.Notice n = (JourneyEvent.Notice) e.cause();
                    String reaction = !e.flag() ? "ignored by its congestion control"
                            : network.isInfiniband() && !raisedBy.contains(n.number())
                                    ? "its CCT index is at its ccti-limit already, so it raises nothing (rate stays "
                                            + gbps(e.value()) + " Gb/s)"
                                    : "its congestion control reacts (rate until now " + gbps(e.value()) + " Gb/s)";
                    text = String.format(Locale.ROOT, "h%d's RNIC gets the CNP (sent at %s us for PSN %d): %s",
                            e.node(), us(n.sentPs()), n.psn(), reaction);
                }
                case NAK_ARRIVED -> text = e.flag()
                        ? String.format(Locale.ROOT, "h%d gets a selective NAK: the receiver has every PSN before %d"
                                + " and asks for PSN%s alone", e.node(), Long.parseLong(e.detail()) + 1,
                                e.value() == e.psn() ? " " + e.psn() : "s " + e.psn() + "-" + e.value())
                        : String.format(Locale.ROOT, "h%d gets a NAK: the receiver expects PSN %d", e.node(), e.psn());
                case PAUSED, RESUMED -> {
                    text = pauses.frame(f, e, path);
                    if (text != null && downPorts.contains(key(e.node(), e.port()))) {
                        text = pauses.lostOnDownLink(e);
                    }
                }
                case WAITED -> text = pauses.waited(f, e, (JourneyEvent.Wait) e.cause());
                case CREDIT_WAIT -> text = credits.line(e, (JourneyEvent.CreditWait) e.cause());
                case ECMP_WAIT -> {
                    JourneyEvent.EcmpWait w = (JourneyEvent.EcmpWait) e.cause();
                    if (w.collision() != null && collisionsTold.add(e.node() + "/" + e.port() + "/" + w.acks() + "/"
                            + w.collision().aheadFlow())) {
                        text = collisions.firstWait(e, w);
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
        if (e.kind() == JourneyEvent.Kind.CNP_SENT || e.kind() == JourneyEvent.Kind.CNP_HANDLED) {
            // One run (a receiver's CNPs and the sender's handling of them interleave), but not alike: a shortened run
            // of sends hid a CNP's arrival as "more like these" (an audit, lossless-dcqcn's flow 15). In words: a
            // shortened run counts what it hides by this ("2 CNPs sent, 1 CNP handled").
            return e.kind() == JourneyEvent.Kind.CNP_SENT ? "CNPs sent" : "CNPs handled";
        }
        if (e.kind() != JourneyEvent.Kind.DROP) {
            return group(e);
        }
        String what = e.flag() ? "ACKs" : "PSNs";
        String holder = e.cause() instanceof JourneyEvent.BufferHeld h && h.port() >= 0 ? h.port() == e.port()
                ? ", that port's own queue holding the most of the buffer"
                : String.format(Locale.ROOT, ", port %d's queue holding the most of the buffer", h.port()) : "";
        return lostOnDownLink(e) ? String.format(Locale.ROOT, "%s lost on the link %s -> %s", what, name(e.node()),
                peer(e.node(), e.port())) : String.format(Locale.ROOT, "%s dropped by %s%s (%s%s)", what,
                name(e.node()), dropPort(e), e.detail(), holder);
    }

    /**
     * Where a switch dropped a packet, the port it counts the drop on: {@code  at port 5 (towards spine1)}, the output
     * it was headed for (a full buffer, the PFC watchdog, a frame over that port's MTU), or {@code  arriving on port 0
     * (from h1)} (a headroom overflow, no route); empty for an RNIC.
     */
    private String dropPort(JourneyEvent e) {
        if (topo.isHost(e.node())) {
            return "";
        }
        boolean ingress = DropReason.HEADROOM_EXCEEDED.key().equals(e.detail())
                || DropReason.NO_ROUTE.key().equals(e.detail());
        return String.format(Locale.ROOT, ingress ? " arriving on port %d (from %s)" : " at port %d (towards %s)",
                e.port(), peer(e.node(), e.port()));
    }

    /**
     * What the switch held the drop's cause to be at that moment, carried with the drop: for a full shared buffer, the
     * queue that held the most of it; for the PFC watchdog, the pause that held the queue in its storm and that pause's
     * root, by the PFC frame's identity. Empty for other drops.
     */
    private String dropCause(JourneyEvent e) {
        if (e.cause() instanceof JourneyEvent.BufferHeld h) {
            // A queue's bytes count its lossless packets in headroom too: with headroom in use, the holder is told
            // against the pool and the headroom together, never as a part of the pool alone (an audit's lossy drop
            // beside a pausing class: "held 202,842 bytes of it", of a pool with 83,898 in use).
            boolean headroom = h.headroomUsedBytes() > 0;
            String full = String.format(Locale.ROOT, ": the shared buffer was full (%,d of its %,d bytes in use%s)",
                    h.poolUsedBytes(), h.poolBytes(), headroom ? String.format(Locale.ROOT, ", and %,d more in the"
                            + " lossless priorities' headroom", h.headroomUsedBytes()) : "");
            if (h.port() < 0) {
                return full;
            }
            String ofIt = headroom ? String.format(Locale.ROOT, "of those %,d", h.poolUsedBytes()
                    + h.headroomUsedBytes()) : "of it";
            return full + (h.port() == e.port()
                    ? String.format(Locale.ROOT, " and that port's own queue of class %d held %,d bytes %s", h.tc(),
                            h.bytes(), ofIt)
                    : String.format(Locale.ROOT, " and port %d's queue (towards %s) held %,d bytes %s%s", h.port(),
                            peer(e.node(), h.port()), h.bytes(), ofIt, h.ownBytes() == h.bytes()
                                    ? ", as much as this port's own queue of that class" : ""));
        }
        if (e.cause() instanceof JourneyEvent.WatchdogDrop w) {
            return ": " + pauses.watchdogDrop(e, w);
        }
        return "";
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

    /** Where and when the data packet a notification answers was marked, as the notification carried it. */
    private String markText(JourneyEvent.Notice n) {
        if (n.markNode() < 0) {
            return "the packet arrived CE-marked";
        }
        return String.format(Locale.ROOT, "marked at %s us by %s port %d (towards %s)%s", us(n.markAtPs()),
                name(n.markNode()), n.markPort(), peer(n.markNode(), n.markPort()),
                n.markHeldByPause() ? ", where a PFC pause held it" : "");
    }

    /** A rate or window change and the cause its congestion control reported with it. */
    private String rate(JourneyEvent e, JourneyEvent.RateChange r, Map<Long, JourneyEvent> notices) {
        String window = r.windowBytes() == Long.MAX_VALUE ? ""
                : String.format(Locale.ROOT, ", window %,d bytes", r.windowBytes());
        int d = decimals(r.fromBps(), r.toBps());
        String what = r.dataWaiting()
                ? String.format(Locale.ROOT, "h%d sends at %s Gb/s (was %s)%s", e.node(), gbps(r.toBps(), d),
                        gbps(r.fromBps(), d), window)
                : String.format(Locale.ROOT, "h%d's rate becomes %s Gb/s (was %s)%s, with no data waiting to be sent",
                        e.node(), gbps(r.toBps(), d), gbps(r.fromBps(), d), window);
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
        // INT records count the switches of the way from 0; the words count them from 1 (switch 1 is the first).
        int index = c.family().equals("telemetry") ? r.index() + 1 : r.index();
        return t.contains("%s") && t.contains("%d") ? String.format(Locale.ROOT, t, value, index)
                : t.contains("%s") ? String.format(Locale.ROOT, t, value)
                : t.contains("%d") ? String.format(Locale.ROOT, t, r.index()) : t;
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

    static long key(int node, int port) {
        return (long) node << 32 | port;
    }

    private String name(int node) {
        return topo.nodeName(node);
    }

    private String peer(int node, int port) {
        return topo.nodeName(topo.peer(node, port).node());
    }

    static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }

    private static String gbps(long bps) {
        return gbps(bps, 1);
    }

    private static String gbps(long bps, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", bps / 1e9);
    }

    /**
     * Decimals enough (one to six) for {@code from} and {@code to} to read differently: a rate-increase step of a few
     * Mb/s near line rate read "100.0 (was 100.0)".
     */
    private static int decimals(long fromBps, long toBps) {
        int d = 1;
        while (d < 6 && gbps(fromBps, d).equals(gbps(toBps, d))) {
            d++;
        }
        return d;
    }

    /** What a go-back-N responder does with a data packet out of sequence ({@link JourneyRecorder}'s detail). */
    private static String outOfSequence(String detail) {
        if (detail == null) {
            return "";
        }
        String expected = detail.substring(detail.indexOf(' ') + 1);
        return detail.startsWith("ahead")
                ? ", out of sequence (it expects PSN " + expected + "): go-back-N discards it"
                : ", a duplicate (it expects PSN " + expected + "): discarded";
    }

    /**
     * Where a root of the flow's waits lies, for a header's line about it: on its own way, not (a victim's wait), or,
     * for a root its log had not been told yet, no claim either way.
     */
    static String way(FlowWaits.Root r, FlowRecord f) {
        return switch (r.way()) {
            case ON -> "on its own way (to h" + f.dst() + " or back)";
            case OFF -> "NOT on its way to h" + f.dst() + " or back (a victim's wait)";
            case NOT_KNOWN -> "where they were rooted is not known, nor whether on its way to h" + f.dst() + " or back";
        };
    }

    static void line(StringBuilder b, String format, Object... args) {
        b.append(String.format(Locale.ROOT, format, args)).append('\n');
    }


    /** The last event's time: an unfinished flow's time in the run ends there at the latest. */
    private static long endPs(List<JourneyEvent> events, FlowRecord f) {
        long end = f.startPs();
        for (JourneyEvent e : events) {
            end = Math.max(end, e.timePs());
        }
        return end;
    }
}
