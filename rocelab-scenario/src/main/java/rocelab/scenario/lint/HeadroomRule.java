package rocelab.scenario.lint;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.nic.ReceiveParameters;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * L3: every lossless priority group needs headroom for what is still in flight after XOFF: the formula of
 * {@code rocelab headroom} over the delays the simulator applies on the port ({@link PauseLoop}: cable, forwarding
 * latency, the peer's response time), the same function auto headroom uses. Headroom is a property of the port's
 * configuration, not of the traffic: every lossless priority of every switch port is checked, whether or not the
 * scenario's traffic enters there (an audit's 100 KB on 400G uplinks needing 169,773 B linted clean or not depending
 * only on the direction of its incast). The ports the traffic enters come first, in the order its paths reach them.
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
        Set<Long> done = new HashSet<>();
        for (Queues.Queue q : Queues.ingress(c)) {
            if (c.switchAt(q.switchIndex()).pfc().isLossless(q.tc())
                    && done.add((long) q.switchIndex() << 32 | q.port())) {
                check(c, q.switchIndex(), q.port(), out);
            }
        }
        receivers(c, out, this);
        for (int i = 0; i < c.topology().switchCount(); i++) {
            int node = c.topology().hostCount() + i;
            for (int port = 0; port < c.topology().portCount(node); port++) {
                if (c.switchAt(i).pfc().enabled() && done.add((long) i << 32 | port)) {
                    check(c, i, port, out);
                }
            }
        }
    }

    /** The port's headroom (one figure for all its lossless priority groups) against what the port needs. */
    private void check(LintContext c, int switchIndex, int port, Findings out) {
        SwitchConfig s = c.switchAt(switchIndex);
        int node = c.topology().hostCount() + switchIndex;
        int mtu = c.config().nic().mtuBytes();
        int frame = PauseLoop.largestFrame(c.frames(), mtu);
        PauseLoop loop = c.config().pauseLoop();
        LinkParameters l = c.topology().edgeAt(node, port).parameters();
        boolean peerIsSwitch = !c.topology().isHost(c.topology().peer(node, port).node());
        long need = loop.headroomBytes(c.topology(), node, port, c.frames(), mtu);
        long have = s.headroom(port);
        if (have >= need) {
            return;
        }
        // The command is given exactly what the port has (a 2.5 Gb/s link, a 1.2345 us latency): rounded, it
        // computes another figure than the one it is quoted for.
        String latency = loop.forwardingLatencyPs() == 0 ? "" : " --forwarding-latency "
                + micros(loop.forwardingLatencyPs()) + (peerIsSwitch ? " --peer switch" : "");
        long response = loop.peerResponsePs(c.topology(), node, port);
        // Below 10 Gb/s the calculator wants the response spelled out: it has no 802.3 value to cite there.
        String responseFlag = response == Headroom.responsePs(l.rateBps())
                && l.rateBps() >= Headroom.SLOWEST_TABLE_BPS ? "" : " --response " + micros(response);
        out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(node, port)),
                String.format(Locale.ROOT, "%s reserves %,d B of headroom on %s of this port;"
                        + " %s Gb/s over a pause loop of %s with a %.3f us peer response and %,d B frames"
                        + " needs %,d B", s.name(), have, priorities(s.pfc().losslessMask()),
                        Headroom.gbps(l.rateBps()), loop.describe(l.delayPs(), peerIsSwitch), response / 1e6, frame,
                        need),
                "drops on the lossless class despite PFC during an incast"
                        + " (dropped_headroom_exceeded): what arrives between XOFF and the peer stopping"
                        + " does not fit",
                String.format(Locale.ROOT, "headroom: auto, or at least %,d B (rocelab headroom --speed"
                        + " %sGbps --delay %s --mtu %d%s%s%s)", need, Headroom.gbps(l.rateBps()),
                        micros(l.delayPs()), mtu,
                        c.frames().vlanTagged() ? " --vlan" : "", latency, responseFlag));
    }

    /**
     * An RNIC whose receive pipeline is slower than its link pauses its switch at its own XOFF ({@code nic.rx}); the
     * rest of its receive buffer is its headroom, and the same loop fills it. An audit's 400 Gb/s RNIC with a 200
     * Gb/s pipeline and 10 KB above XOFF dropped 624 packets (out_of_buffer) on its lossless priority, and no rule
     * said so. The pause loop is the switch port's ({@code PauseLoop}): the PFC frame into the switch, the data
     * back.
     */
    private static void receivers(LintContext c, Findings out, LintRule rule) {
        PauseLoop loop = c.config().pauseLoop();
        int mtu = c.config().nic().mtuBytes();
        int frame = PauseLoop.largestFrame(c.frames(), mtu);
        for (int h = 0; h < c.topology().hostCount(); h++) {
            NicConfig nic = c.nic(h);
            ReceiveParameters rx = nic.receive();
            if (!rx.limited() || !nic.pfcEnabled(nic.receivePriority(c.config().vlanTagged(),
                    nic.parameters().dataPriority()))) {
                continue;
            }
            for (int p = 0; p < c.topology().portCount(h); p++) {
                LinkParameters l = c.topology().edgeAt(h, p).parameters();
                if (rx.rateBps() >= l.rateBps()) {
                    continue; // the pipeline keeps up: the buffer never fills
                }
                long response = loop.responsePs(true, l.rateBps());
                long need = ReceiveHeadroom.need(l.rateBps(), loop.roundTripPs(l.delayPs(), false), response, frame,
                        c.frames().framingBytes(), rx.rateBps());
                long have = rx.bufferBytes() - rx.xoffBytes();
                if (have >= need) {
                    continue;
                }
                Topology.End sw = c.topology().peer(h, p);
                long xoff = rx.bufferBytes() - need;
                String rate = Headroom.gbps(rx.rateBps()) + "Gbps";
                String lower = xoff <= 0 ? "" : String.format(Locale.ROOT, "xoff at most %,d B (nics: [{hosts: %d,"
                        + " rx: {rate: %s, buffer: %dB, xoff: %dB, xon: %dB}}]), or ", xoff, h, rate, rx.bufferBytes(),
                        xoff, Math.min(rx.xonBytes(), xoff / 2));
                out.add(rule, Severity.ERROR, List.of("h" + h), List.of(c.port(sw.node(), sw.port())),
                        String.format(Locale.ROOT, "h%d pauses its switch at xoff %,d B of a %,d B receive buffer,"
                                + " %,d B above XOFF; %s Gb/s into a %s Gb/s receive pipeline over a pause loop of %s"
                                + " with a %.3f us switch response and %,d B frames brings up to %,d B after XOFF,"
                                + " net of what the pipeline drains meanwhile", h, rx.xoffBytes(), rx.bufferBytes(), have,
                                Headroom.gbps(l.rateBps()), Headroom.gbps(rx.rateBps()),
                                loop.describe(l.delayPs(), false), response / 1e6, frame, need),
                        "drops on the lossless priority despite PFC (out_of_buffer on h" + h + "): what the switch"
                                + " sends between the RNIC's XOFF and its stopping does not fit",
                        lower + String.format(Locale.ROOT, "a receive buffer of at least %,d B", rx.xoffBytes()
                                + need));
            }
        }
    }

    /** {@code priority 3}, {@code priorities 3 and 4}: the lossless groups of the port, which share its headroom. */
    private static String priorities(int mask) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if ((mask & 1 << i) != 0) {
                p.add(String.valueOf(i));
            }
        }
        if (p.size() == 1) {
            return "priority " + p.get(0);
        }
        return "priorities " + String.join(", ", p.subList(0, p.size() - 1)) + " and " + p.get(p.size() - 1);
    }

    /** A time as a scenario writes it ({@code 1us}, {@code 0.5us}), exactly. */
    private static String micros(long ps) {
        return BigDecimal.valueOf(ps).movePointLeft(6).stripTrailingZeros().toPlainString() + "us";
    }
}
