package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.topology.LinkParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L3: every lossless priority group needs headroom for what is still in flight after XOFF: the frame being sent,
 * the cable round trip, the peer's response time and the peer's frame (the formula of {@code rocelab headroom}).
 */
final class HeadroomRule implements LintRule {
    @Override
    public String id() {
        return "L3";
    }

    @Override
    public String title() {
        return "PFC headroom below what the cable and speed need";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (!c.lossless()) {
            return;
        }
        int frame = c.frames().dataFrameBytes(c.config().nic().mtuBytes(), true);
        for (Queues.Queue q : Queues.ingress(c)) {
            SwitchConfig s = c.switchAt(q.switchIndex());
            if (!s.pfc().isLossless(q.tc())) {
                continue;
            }
            LinkParameters l = c.topology().edgeAt(q.node(), q.port()).parameters();
            double meters = Headroom.cableMeters(l.delayPs());
            long need = Headroom.bytes(l.rateBps(), meters, frame);
            long have = s.headroom(q.port());
            if (have < need) {
                out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                        String.format(Locale.ROOT, "%s reserves %,d B of headroom on priority %d of this port;"
                                + " %.0f Gb/s over %.0f m of cable with %,d B frames needs %,d B", s.name(), have,
                                q.tc(), l.rateBps() / 1e9, meters, frame, need),
                        "drops on the lossless class despite PFC during an incast"
                                + " (dropped_headroom_exceeded): what arrives between XOFF and the peer stopping"
                                + " does not fit",
                        String.format(Locale.ROOT, "headroom: auto, or at least %,d B (rocelab headroom --speed"
                                + " %.0fGbps --cable %.0fm --mtu %d)", need, l.rateBps() / 1e9, meters,
                                c.config().nic().mtuBytes()));
            }
        }
    }
}
