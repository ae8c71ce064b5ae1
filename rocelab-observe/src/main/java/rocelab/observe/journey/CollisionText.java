package rocelab.observe.journey;

import static rocelab.observe.journey.JourneyText.key;
import static rocelab.observe.journey.JourneyText.line;
import static rocelab.observe.journey.JourneyText.us;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.victim.FlowWaits;
import rocelab.observe.victim.Victims;

/**
 * The journey's words for ECMP collisions: the header's sums per hop with the flows queued ahead and the idle
 * equal-cost port, as the switch recorded them when the flow's packets joined the queue; a packet's collision at its
 * hop; and its wait there when it left.
 */
final class CollisionText {
    private final Network network;
    private final Topology topo;
    /** The run's ECMP log (null: no switch hashes among equal-cost ports). */
    private final EcmpLog ecmp;

    CollisionText(Network network, EcmpLog ecmp) {
        this.network = network;
        this.topo = network.topology();
        this.ecmp = ecmp;
    }

    /**
     * The flow's waits behind ECMP collisions, per hop, as the ECMP log has them (they add up to flows.csv's
     * {@code ecmp_wait_us}), and at each hop whose packets were directly ahead of the flow's and which equal-cost port
     * was idle, as the switch recorded them when the flow's packets joined the queue.
     */
    void header(StringBuilder b, FlowRecord f, List<JourneyEvent> events) {
        if (ecmp == null || ecmp.waits(f.id()).isEmpty()) {
            return;
        }
        // The ends of the flows ahead, by the queue pair their packets carried; and per hop, what each flow ahead added
        // to this flow's wait there, from this flow's own packets' waits (every one the journey followed, each by the
        // collision it joined): the ECMP log keeps a bounded number of (flow, flow ahead) pairs per port, shared by
        // all its flows, so its list can miss the flows this one waited behind most (an audit: websearch-load's
        // flow 154 named flows 99 and 187, 378 of its 2,687 us there, not 230 and 313, 1,842 us).
        Map<Long, String> ends = new HashMap<>();
        Map<Long, Map<Long, Long>> waitedBehind = new HashMap<>();
        for (JourneyEvent e : events) {
            if (e.cause() instanceof JourneyEvent.EcmpCollision c) {
                ends.putIfAbsent(c.aheadFlow(), flowEnds(c));
            } else if (e.cause() instanceof JourneyEvent.EcmpWait w && w.collision() != null) {
                waitedBehind.computeIfAbsent(hopKey(e.node(), e.port(), w.acks()), k -> new HashMap<>())
                        .merge(w.collision().aheadFlow(), w.newPs(), Long::sum);
            }
        }
        StringBuilder hops = new StringBuilder();
        for (FlowWaits.Hop h : ecmp.waits(f.id())) {
            hops.append(hops.length() == 0 ? "" : ", ").append(h.others() ? Victims.OTHER_HOPS
                    : name(h.node()) + " towards " + peer(h.node(), h.port())).append(' ').append(us(h.waitPs())).append(" us")
                    .append(h.acks() ? " (its last ACK)" : "");
        }
        line(b, "  waited behind ECMP collisions at %s (%s us summed over hops)", hops, us(ecmp.waitPs(f.id())));
        Set<Long> told = new HashSet<>();
        for (FlowWaits.Hop h : ecmp.waits(f.id())) {
            if (h.others() || !told.add(key(h.node(), h.port()))) {
                continue;
            }
            String what = h.acks() ? "its last ACK" : "it";
            String queued = h.acks() ? "where it queued" : "where its packets queued";
            List<String> with = new ArrayList<>();
            List<Long> behind = behind(waitedBehind.get(hopKey(h.node(), h.port(), h.acks())));
            if (behind.isEmpty()) {
                // No wait of this flow's followed there (a run ended before they left): the switch's record.
                for (int ahead : ecmp.behind(f.id(), h.node(), h.port())) {
                    behind.add((long) ahead);
                }
            }
            int shown = EcmpLog.named(behind.size(), 3);
            for (int i = 0; i < shown; i++) {
                with.add("flow " + behind.get(i) + ends.getOrDefault(behind.get(i), ""));
            }
            if (behind.size() > shown) {
                with.add((behind.size() - shown) + " more");
            }
            // The idle ports the switch kept, and "another" for those it did not (they were idle at some collision
            // too: naming only the ones kept said the idle one was among them).
            List<String> idle = new ArrayList<>();
            var kept = ecmp.idlePorts(h.node(), h.port());
            long leftOut = ecmp.idleLeftOut(h.node(), h.port());
            for (var i : kept.subList(0, EcmpLog.idleNamed(kept.size(), leftOut))) {
                idle.add(peer(h.node(), i.port()));
            }
            if (leftOut > 0) {
                idle.add("another");
            }
            String last = idle.isEmpty() ? "" : idle.remove(idle.size() - 1);
            line(b, "    %s hashed %s onto its port towards %s%s, while %s was idle: an ECMP collision", name(h.node()),
                    what, peer(h.node(), h.port()), with.isEmpty() ? ""
                            : ", " + queued + " behind packets of " + (with.size() == 1 ? with.get(0)
                                    : String.join(", ", with.subList(0, with.size() - 1)) + " and "
                                            + with.get(with.size() - 1)),
                    idle.isEmpty() ? "its equal-cost port towards " + last : "one of its equal-cost ports (towards "
                            + String.join(", ", idle) + " or " + last + ")");
        }
    }

    private static long hopKey(int node, int port, boolean acks) {
        return key(node, port) << 1 | (acks ? 1 : 0);
    }

    /** The flows ahead, the one this flow's wait grew most behind first (ties by id); those it added nothing behind last. */
    private static List<Long> behind(Map<Long, Long> waited) {
        List<Long> out = new ArrayList<>();
        if (waited != null) {
            waited.entrySet().stream().sorted(Map.Entry.<Long, Long>comparingByValue().reversed()
                    .thenComparing(Map.Entry.comparingByKey())).forEach(x -> out.add(x.getKey()));
        }
        return out;
    }

    /** {@code " (h1->h3)"}: the ends of the queue pair of the packet ahead in a collision (empty if unknown). */
    private String flowEnds(JourneyEvent.EcmpCollision c) {
        if (c.aheadQp() >= 0 && c.aheadQp() < network.queuePairs().size()) {
            var qp = network.queuePairs().get(c.aheadQp());
            return " (" + name(qp.sourceHost()) + "->" + name(qp.destinationHost()) + ")";
        }
        return "";
    }

    /** The ECMP collision a packet joined its queue behind, as the switch recorded it then. */
    String collision(JourneyEvent e, JourneyEvent.EcmpCollision c) {
        if (c.fellIdle()) {
            // Queued before: the switch looked when the equal-cost port fell idle, and its wait counts from then.
            return String.format(Locale.ROOT, "%s had hashed %s onto this port among equal-cost ports, where it was"
                    + " queued %s %s%s (%,d bytes ahead of it) when the equal-cost port towards %s fell idle (idle for"
                    + " %s us): an ECMP collision from then", name(e.node()), c.acks() ? "the ACK" : "it",
                    c.directly() ? "directly behind" : "behind", aheadWords(c), c.directly() ? "" : " (the oldest"
                    + " queued)", c.queueBytes(), peer(e.node(), c.idlePort()), us(c.idlePs()));
        }
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
    String collisionWait(JourneyEvent e, JourneyEvent.EcmpWait w) {
        long held = w.enqueuedPs() < 0 ? 0 : e.timePs() - w.enqueuedPs() - (w.toPs() - w.fromPs());
        return String.format(Locale.ROOT, "%s: %s left the queue towards %s after %s us behind the collision%s",
                name(e.node()), w.acks() ? "the ACK" : "it", peer(e.node(), e.port()), us(w.toPs() - w.fromPs()),
                held > 0 ? String.format(Locale.ROOT, " (and %s us more while its class was %s)", us(held),
                        network.isInfiniband() ? "waiting for credits" : "paused") : "");
    }

    /** The first wait behind one collision at a hop, in the story (later ones the header sums). */
    String firstWait(JourneyEvent e, JourneyEvent.EcmpWait w) {
        return String.format(Locale.ROOT, "%s: %s %d waited %s us in the queue towards %s behind an ECMP collision: %s"
                + " had hashed it there among equal-cost ports, %s %s, while its port towards %s was idle (the first"
                + " such wait here behind flow %d; the header sums them)", name(e.node()), w.acks() ? "the ACK of PSN"
                        : "PSN", e.psn(), us(w.toPs() - w.fromPs()), peer(e.node(), e.port()), name(e.node()),
                w.collision().directly() ? "directly behind" : "behind", aheadWords(w.collision()),
                peer(e.node(), w.collision().idlePort()), w.collision().aheadFlow());
    }

    private String name(int node) {
        return topo.nodeName(node);
    }

    private String peer(int node, int port) {
        return topo.nodeName(topo.peer(node, port).node());
    }
}
