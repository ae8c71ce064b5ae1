package rocelab.scenario.lint;

import java.util.List;
import rocelab.fabric.packet.FrameFormat;
import rocelab.scenario.FabricMode;
import rocelab.scenario.device.DevicePlans;
import rocelab.scenario.device.SwitchConfig;

/**
 * L11: every port on the path must carry the largest RoCE packet (the RoCE MTU plus IP, UDP, BTH, RETH and ICRC),
 * and both ends of a link should agree on the MTU. On InfiniBand a port's MTU is the largest payload it carries
 * (headers on top), so every port must have at least the HCAs' MTU ({@code fabric.mtu}).
 */
final class MtuRule implements LintRule {
    @Override
    public String id() {
        return "L11";
    }

    @Override
    public String title() {
        return "MTU too small or mismatched along the path";
    }

    @Override
    public void check(LintContext c, Findings out) {
        boolean ib = c.config().mode() == FabricMode.INFINIBAND;
        int roceMtu = c.config().nic().mtuBytes();
        int ipBytes = c.frames().dataFrameBytes(roceMtu, true) - DevicePlans.l2Overhead(c.config().vlanTagged());
        for (Queues.Queue q : Queues.egress(c)) {
            check(c, q.switchIndex(), q.node(), q.port(), roceMtu, ipBytes, ib, out);
        }
        for (Queues.Queue q : Queues.ingress(c)) {
            check(c, q.switchIndex(), q.node(), q.port(), roceMtu, ipBytes, ib, out);
        }
        for (SwitchConfig s : c.devices().switches()) {
            for (int p = 0; p < s.portCount(); p++) {
                int peer = c.peer(s.node(), p);
                if (c.topology().isHost(peer) || peer < s.node()) {
                    continue;
                }
                SwitchConfig o = c.switchAt(peer - c.topology().hostCount());
                int op = c.topology().peer(s.node(), p).port();
                if (s.mtu(p) != o.mtu(op)) {
                    out.add(this, Severity.WARNING, List.of(s.name(), o.name()), List.of(c.port(s.node(), p),
                            c.port(o.node(), op)), "the two ends of " + s.name() + "-" + o.name() + " have different"
                            + " MTUs (" + text(s.mtu(p)) + " and " + text(o.mtu(op)) + ")",
                            ib ? "packets that one end carries can be oversize for the other (dropped_oversize)"
                                    : "frames that one end sends can be oversize for the other (rx_oversize_pkts_phy)",
                            ib ? "the same MTU on both ends (4096)" : "the same MTU on both ends (e.g. 9100)");
                }
            }
        }
    }

    private void check(LintContext c, int switchIndex, int node, int port, int roceMtu, int ipBytes, boolean ib,
            Findings out) {
        SwitchConfig s = c.switchAt(switchIndex);
        int mtu = s.mtu(port);
        if (ib) {
            if (mtu != 0 && mtu < roceMtu) {
                out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(node, port)), s.name() + " has"
                        + " InfiniBand MTU " + mtu + " on this port, but the HCAs send up to " + roceMtu + " bytes of"
                        + " payload per packet (fabric mtu; an InfiniBand MTU counts the payload, the LRH, BTH, RETH,"
                        + " ICRC and VCRC come on top)",
                        "every full-size packet is dropped there (dropped_oversize): the flows retransmit until their"
                                + " retries run out",
                        "MTU " + ibMtu(roceMtu) + (ibMtu(roceMtu) < 4096 ? " or 4096" : "") + " on every port of the"
                                + " path, or a path MTU of at most " + mtu + " (fabric mtu)");
            }
            return;
        }
        if (mtu != 0 && mtu < ipBytes) {
            // Only the first packet of a WRITE carries the RETH: the rest of a message is 16 bytes smaller, and a port
            // between the two sizes drops the first packets alone (and their go-back-N resends), not every packet.
            int laterBytes = ipBytes - FrameFormat.RETH;
            int fitBytes = (mtu - (ipBytes - roceMtu)) & ~3;
            String symptom = mtu >= laterBytes
                    ? "the first packet of every message longer than " + fitBytes + " bytes (up to " + ipBytes
                            + " bytes of IP with its RETH) is dropped there (dropped_oversize, rx_oversize_pkts_phy),"
                            + " and so is every go-back-N resend of it; the later packets (" + laterBytes + " bytes)"
                            + " fit but are out of sequence without it, so those flows fail when their retries run out"
                    : "every full-size RoCE packet is dropped there (dropped_oversize, rx_oversize_pkts_phy), the"
                            + " first of a message and the later ones alike: the flows retransmit until their retries"
                            + " run out";
            out.add(this, Severity.ERROR, List.of(s.name()), List.of(c.port(node, port)), s.name() + " has MTU " + mtu
                    + " on this port; RoCE packets with a " + roceMtu + "-byte payload are " + ipBytes
                    + " bytes of IP for the first packet of a message (" + FrameFormat.IPV4_HEADER + " IP + "
                    + FrameFormat.UDP_HEADER + " UDP + " + FrameFormat.BTH + " BTH + " + FrameFormat.RETH
                    + " RETH + payload + " + FrameFormat.ICRC + " ICRC), " + laterBytes + " for the later ones"
                    + " (no RETH)",
                    symptom,
                    "MTU of at least " + ipBytes + " on every port of the path (9100 is usual), or a smaller RoCE"
                            + " MTU (fabric mtu)");
        }
    }

    /** The smallest InfiniBand MTU (256, 512, 1024, 2048 or 4096) that carries {@code payloadBytes}. */
    static int ibMtu(int payloadBytes) {
        return Math.max(256, Integer.highestOneBit(Math.max(1, payloadBytes - 1)) << 1);
    }

    private static String text(int mtu) {
        return mtu == 0 ? "unlimited" : String.valueOf(mtu);
    }
}
