package rocelab.scenario.lint;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L5: ECN must mark before PFC pauses, or DCQCN never gets a chance and every congestion episode becomes a pause.
 * Only queues that carry the data of a sender whose congestion control reacts to ECN are looked at: in a fabric held
 * back by PFC alone ({@code cc: none}), or by a delay- or INT-based control, when a queue marks changes nothing.
 * The marking threshold of a lossless egress queue is compared with the queue depth at which a 2:1 incast makes
 * the feeding priority groups reach XOFF ({@link BufferMath#xoffQueueDepth}); that of a lossy queue with the most
 * its shared buffer can hold before it tail-drops.
 */
final class EcnBeforePfcRule implements LintRule {
    @Override
    public String id() {
        return "L5";
    }

    @Override
    public String title() {
        return "ECN threshold at or above the PFC XOFF point, or above what a lossy queue can hold";
    }

    @Override
    public void check(LintContext c, Findings out) {
        Set<Queues.Queue> heard = queuesOfEcnReaders(c);
        for (Queues.Queue q : Queues.egress(c)) {
            if (!heard.contains(q)) {
                // No sender whose data this queue carries reacts to ECN (cc none, or a delay- or INT-based control):
                // when it marks changes nothing, so marking after PFC costs nothing either.
                continue;
            }
            SwitchConfig s = c.switchAt(q.switchIndex());
            EcnParameters ecn = s.ecn(q.port());
            if (ecn.scheme() == EcnParameters.Scheme.NONE || (ecn.classMask() & 1 << q.tc()) == 0) {
                continue;
            }
            long rate = c.topology().edgeAt(q.node(), q.port()).parameters().rateBps();
            long first = ecn.scheme() == EcnParameters.Scheme.RED ? ecn.kminFor(rate) : ecn.kFor(rate);
            if (!c.lossless() || !s.pfc().isLossless(q.tc())) {
                beforeDrops(c, s, q, ecn, rate, first, out);
                continue;
            }
            long xoff = BufferMath.xoffQueueDepth(s);
            String name = ecn.scheme() == EcnParameters.Scheme.RED ? "Kmin" : "K";
            String where = s.pfc().dynamic()
                    ? String.format(Locale.ROOT, "alpha %s of the free buffer", trim(s.pfc().alpha()))
                    : xoff < BufferMath.FAN_IN * s.pfc().xoffBytes()
                            ? String.format(Locale.ROOT, "static xoff %,d B per priority group, but the %,d B shared"
                                    + " pool fills first", s.pfc().xoffBytes(), xoff)
                            : String.format(Locale.ROOT, "static xoff %,d B per priority group", s.pfc().xoffBytes());
            if (first >= xoff) {
                out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                        String.format(Locale.ROOT, "%s marks ECN on class %d from %s = %,d B, but a 2:1 incast"
                                + " into this queue reaches PFC XOFF (%s) at %,d B", s.name(), q.tc(), name, first,
                                where, xoff),
                        "PFC pauses before the first CE mark: tx_prio" + q.tc() + "_pause high,"
                                + " np_ecn_marked_roce_packets near 0, pauses spread upstream",
                        String.format(Locale.ROOT, "lower %s well below %,d B, or raise the XOFF point (alpha or"
                                + " xoff, buffer)", name, xoff));
            } else if (ecn.scheme() == EcnParameters.Scheme.RED && ecn.kmaxFor(rate) >= xoff) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                        String.format(Locale.ROOT, "%s reaches full marking (Kmax %,d B) on class %d only beyond the"
                                + " 2:1-incast XOFF point (%,d B, %s)", s.name(), ecn.kmaxFor(rate), q.tc(), xoff,
                                where),
                        "under a sharp incast PFC still fires while the marking ramps up: pauses alongside CNPs",
                        String.format(Locale.ROOT, "Kmax below %,d B", xoff));
            }
        }
    }

    /** The egress queues that carry data of a sender whose congestion control reacts to ECN marks. */
    private static Set<Queues.Queue> queuesOfEcnReaders(LintContext c) {
        Set<Queues.Queue> out = new HashSet<>();
        for (LintContext.Path p : c.dataPaths()) {
            if (!PriorityText.readsEcn(c.nic(p.src()).congestion().name())) {
                continue;
            }
            for (LintContext.Hop h : p.hops()) {
                out.add(new Queues.Queue(h.switchIndex(), h.node(), h.outPort(),
                        c.switchAt(h.switchIndex()).trafficClass(p.dscp())));
            }
        }
        return out;
    }

    /**
     * A lossy queue tail-drops when the shared pool is full: a queue alone can hold at most the buffer less the
     * headroom reserved for lossless groups. Marking that starts beyond it never happens, and DCQCN never hears of
     * congestion before the drops (and go-back-N) do.
     */
    private void beforeDrops(LintContext c, SwitchConfig s, Queues.Queue q, EcnParameters ecn, long rate, long first,
            Findings out) {
        long usable = s.parameters().bufferBytes() - BufferMath.reserved(s);
        String name = ecn.scheme() == EcnParameters.Scheme.RED ? "Kmin" : "K";
        if (first >= usable) {
            out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                    String.format(Locale.ROOT, "%s marks ECN on lossy class %d from %s = %,d B, but its shared buffer"
                            + " holds at most %,d B: the queue tail-drops before the first CE mark", s.name(), q.tc(),
                            name, first, usable),
                    "drops and retransmissions under congestion, no ECN marks, no CNPs, no rate cuts",
                    String.format(Locale.ROOT, "lower %s well below %,d B, or give the switch more buffer", name,
                            usable));
        } else if (ecn.scheme() == EcnParameters.Scheme.RED && ecn.kmaxFor(rate) > usable) {
            out.add(this, Severity.WARNING, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                    String.format(Locale.ROOT, "%s reaches full marking (Kmax %,d B) on lossy class %d only beyond"
                            + " the %,d B its shared buffer can hold", s.name(), ecn.kmaxFor(rate), q.tc(), usable),
                    "under a sharp incast the queue drops while marking is still partial",
                    String.format(Locale.ROOT, "Kmax below %,d B", usable));
        }
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
