package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.topology.LinkParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L3: every lossless priority group needs headroom for what is still in flight after XOFF: the formula of
 * {@code rocelab headroom} over the delays the simulator applies on the port ({@link PauseLoop}: cable, forwarding
 * latency, the peer's response time), the same function auto headroom uses.
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
        int mtu = c.config().nic().mtuBytes();
        int frame = PauseLoop.largestFrame(c.frames(), mtu);
        PauseLoop loop = c.config().pauseLoop();
        for (Queues.Queue q : Queues.ingress(c)) {
            SwitchConfig s = c.switchAt(q.switchIndex());
            if (!s.pfc().isLossless(q.tc())) {
                continue;
            }
            LinkParameters l = c.topology().edgeAt(q.node(), q.port()).parameters();
            boolean peerIsSwitch = !c.topology().isHost(c.topology().peer(q.node(), q.port()).node());
            long need = loop.headroomBytes(c.topology(), q.node(), q.port(), c.frames(), mtu);
            long have = s.headroom(q.port());
            if (have < need) {
                double meters = Headroom.cableMeters(l.delayPs());
                String latency = loop.forwardingLatencyPs() == 0 ? "" : String.format(Locale.ROOT,
                        " --forwarding-latency %.3fus%s", loop.forwardingLatencyPs() / 1e6,
                        peerIsSwitch ? " --peer switch" : "");
                long response = loop.peerResponsePs(c.topology(), q.node(), q.port());
                String responseFlag = response == Headroom.responsePs(l.rateBps()) ? ""
                        : String.format(Locale.ROOT, " --response %.3fus", response / 1e6);
                out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(q.node(), q.port())),
                        String.format(Locale.ROOT, "%s reserves %,d B of headroom on priority %d of this port;"
                                + " %.0f Gb/s over a pause loop of %s with a %.3f us peer response and %,d B frames"
                                + " needs %,d B", s.name(), have, q.tc(), l.rateBps() / 1e9,
                                loop.describe(l.delayPs(), peerIsSwitch), response / 1e6, frame, need),
                        "drops on the lossless class despite PFC during an incast"
                                + " (dropped_headroom_exceeded): what arrives between XOFF and the peer stopping"
                                + " does not fit",
                        String.format(Locale.ROOT, "headroom: auto, or at least %,d B (rocelab headroom --speed"
                                + " %.0fGbps --cable %.0fm --mtu %d%s%s%s)", need, l.rateBps() / 1e9, meters, mtu,
                                c.frames().vlanTagged() ? " --vlan" : "", latency, responseFlag));
            }
        }
    }
}
