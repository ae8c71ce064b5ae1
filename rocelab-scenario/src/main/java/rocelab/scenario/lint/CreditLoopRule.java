package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.congestion.ibcc.FecnParameters;
import rocelab.congestion.ibcc.IbCcAlgorithm;
import rocelab.engine.Rates;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;

/**
 * L21: on InfiniBand, a lane's receive buffer covers its link's credit round trip (IBA vol. 1 §7.9 credits). The
 * sender may have at most a buffer's worth of packets out before the credits of the first come back, and they come
 * back, as the simulator returns them ({@code CreditReturn}), when the receiver frees the packet (a switch when the
 * packet starts to leave it, an HCA when it has taken it in) in a 6-byte flow-control packet: the data packet's
 * serialisation, the cable and any forwarding latency into the receiver, the update's serialisation, the cable and
 * any forwarding latency back. A buffer of k full-size packets per round trip caps the lane at k packets per round
 * trip whatever the load: the "throughput-limited" link of scenario-format.md.
 */
final class CreditLoopRule implements LintRule {
    @Override
    public String id() {
        return "L21";
    }

    @Override
    public String title() {
        return "InfiniBand lane buffer below the credit round trip";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (!c.infiniband()) {
            return;
        }
        InfinibandParameters ib = c.config().infiniband().fabric();
        PauseLoop loop = c.config().pauseLoop();
        for (LintContext.Path path : c.dataPaths()) {
            int mtu = c.nic(path.src()).parameters().mtuBytes();
            List<LintContext.Hop> hops = path.hops();
            for (int i = 0; i <= hops.size(); i++) {
                // Link i ends at hop i's switch (its input buffer), or, past the last hop, at the receiving HCA.
                boolean toHca = i == hops.size();
                LintContext.Hop near = toHca ? hops.get(i - 1) : hops.get(i);
                int edgeNode = near.node();
                int edgePort = toHca ? near.outPort() : near.inPort();
                boolean fromSwitch = i > 0;
                int lane = c.lane(c.switchAt(near.switchIndex()).trafficClass(path.dscp()));
                // The sender on link i: the source's HCA, or the switch before, by its port towards the receiver.
                String sender = fromSwitch
                        ? "PortXmitWait of " + c.port(hops.get(i - 1).node(), hops.get(i - 1).outPort()) + ", ports.csv"
                        : "PortXmitWait of h" + path.src() + "'s HCA (nics.csv PortXmitWait_us)";
                check(c, out, loop, mtu, lane, toHca ? ib.hcaBufferBytes() : ib.vlBufferBytes(), toHca,
                        fromSwitch, edgeNode, edgePort, toHca ? "h" + path.dst() : c.name(edgeNode), sender);
            }
        }
    }

    private void check(LintContext c, Findings out, PauseLoop loop, int mtu, int lane, long bufferBytes,
            boolean toHca, boolean fromSwitch, int node, int port, String receiver, String senderWait) {
        LinkParameters link = c.topology().edgeAt(node, port).parameters();
        FrameFormat frames = FrameFormat.infiniband();
        int frame = frames.dataFrameBytes(mtu, false);
        long packetPs = Rates.serializationPs(frames.onWire(frame), link.rateBps());
        long roundTripPs = roundTripPs(link, loop, frames, packetPs, !toHca, fromSwitch);
        long perPacket = CreditGate.blocks(frame);
        long fits = bufferBytes / CreditGate.BLOCK_BYTES / perPacket;
        if (fits * packetPs >= roundTripPs) {
            return;
        }
        double capGbps = fits * mtu * 8.0 / roundTripPs * 1000;
        double lineGbps = link.rateBps() / 1e9 * mtu / frames.onWire(frame);
        long needPackets = (roundTripPs + packetPs - 1) / packetPs;
        long needBytes = needPackets * perPacket * CreditGate.BLOCK_BYTES;
        String key = toHca ? "hca-buffer" : "vl-buffer";
        String fix = needBytes <= InfinibandParameters.MAX_BUFFER_BYTES
                ? String.format(Locale.ROOT, "%s of at least %,d B (%d packets of %d credits: %d x %.3f us covers"
                        + " the %.3f us round trip), e.g. fabric: {infiniband: {%s: %dKiB}}", key, needBytes, needPackets,
                        perPacket, needPackets, packetPs / 1e6, roundTripPs / 1e6, key, (needBytes + 1023) / 1024)
                : String.format(Locale.ROOT, "none by the buffer: %,d B would cover it and IBA allows at most"
                        + " 128 KiB per lane (%s: 128KiB gets the most); a shorter link, or the cap as it is",
                        needBytes, key);
        out.add(this, Severity.WARNING, List.of(receiver), List.of(c.port(node, port)),
                String.format(Locale.ROOT, "%s %,d B per lane (%s) holds %d full-size packet%s of %,d B (%d credits"
                        + " each), and the credit round trip of a %s link with %.3f us of cable is %.3f us: VL%d"
                        + " carries at most %.1f Gb/s of payload over it, %.0f %% of the %.1f Gb/s of payload the link carries at line rate",
                        toHca ? "the HCA's receive buffer of" : "a switch input buffer of", bufferBytes, key, fits,
                        fits == 1 ? "" : "s", frame, perPacket, gbps(link.rateBps()), link.delayPs() / 1e6,
                        roundTripPs / 1e6, lane, capGbps, 100 * capGbps / lineGbps, lineGbps),
                "the lane's flows over this link together get at most that, even alone on an idle fabric: the"
                        + " sender waits for credits (" + senderWait + ") though nothing downstream is congested; a"
                        + " receiver that frees later (a busy egress, a slow nic.rx) lowers it further"
                        + (fromSwitch && blindsFecn(c) ? BLIND_FECN : ""),
                fix);
    }

    /**
     * A switch port held at the cap waits for credits before its packets whenever its lane is backlogged, so IB CC
     * takes it for a victim of congestion further on, and without Victim_Mask it marks no FECN even as the root of
     * congestion (an audit's 4-to-1 incast into an HCA buffer 1 % short of the round trip: 7 marks in 345 us with
     * 80 KB queued above a 20 KiB threshold).
     */
    private static final String BLIND_FECN = "; with ib-cc, the switch port waits for credits before its packets"
            + " whenever its lane is backlogged, so it counts as a victim of congestion further on and marks no FECN"
            + " (fecn victim-mask: false) even where it is itself the root of congestion";

    /** Whether the switches mark FECN for ib-cc senders but not on lanes that waited for credits. */
    private static boolean blindsFecn(LintContext c) {
        FecnParameters fecn = c.config().infiniband().fecn();
        if (fecn == null || fecn.victimMask()) {
            return false;
        }
        for (int[] f : c.flows()) {
            if (c.nic(f[0]).congestion().name().equals(IbCcAlgorithm.NAME)) {
                return true;
            }
        }
        return false;
    }

    private static String gbps(long bps) {
        return bps % 1_000_000_000L == 0 ? bps / 1_000_000_000L + " Gb/s"
                : String.format(Locale.ROOT, "%.1f Gb/s", bps / 1e9);
    }

    /**
     * The credit round trip of a link as the simulator plays it: the packet's serialisation, the cable and the
     * forwarding latency into a switch receiver, the flow-control packet's serialisation, the cable and the
     * forwarding latency into a switch sender.
     */
    static long roundTripPs(LinkParameters link, PauseLoop loop, FrameFormat frames, long packetPs,
            boolean receiverIsSwitch, boolean senderIsSwitch) {
        long updatePs = Rates.serializationPs(frames.onWire(frames.creditFrameBytes()), link.rateBps());
        return packetPs + loop.oneWayPs(link.delayPs(), receiverIsSwitch) + updatePs
                + loop.oneWayPs(link.delayPs(), senderIsSwitch);
    }
}
