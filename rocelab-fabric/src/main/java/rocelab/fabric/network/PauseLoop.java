package rocelab.fabric.network;

import java.util.Locale;
import rocelab.engine.Saturating;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.Topology;

/**
 * The delays a pause meets between a switch port and its peer, exactly as the simulator applies them: a frame
 * reaches the far end of a link after the cable's propagation delay plus, when the far end is a switch, that
 * switch's forwarding latency (which rides on the link into it, before the buffer; PFC frames included), and a
 * transmitter acts on a PFC frame its response time after the frame arrived. {@link NetworkBuilder} wires the links
 * with {@link #oneWayPs}; auto headroom, {@code rocelab headroom} and the lint compute headroom with
 * {@link #headroomBytes}, so the formula and the simulation cannot disagree.
 *
 * @param forwardingLatencyPs every switch's forwarding latency (uniform across switches)
 * @param switchResponsePs how long after a PFC frame arrives a switch port stops; -1: IEEE 802.3 at its speed
 * @param nicResponsePs the same for an RNIC; -1: IEEE 802.3 at its speed
 */
public record PauseLoop(long forwardingLatencyPs, long switchResponsePs, long nicResponsePs) {
    public PauseLoop {
        if (forwardingLatencyPs < 0 || switchResponsePs < -1 || nicResponsePs < -1) {
            throw new IllegalArgumentException("forwarding latency and response times must not be negative");
        }
    }

    /** No forwarding latency, 802.3 response times. */
    public static PauseLoop standard() {
        return new PauseLoop(0, -1, -1);
    }

    /** Delay from a frame's last bit leaving the near end of a cable to its arrival at a device. */
    public long oneWayPs(long cableDelayPs, boolean toSwitch) {
        return Saturating.add(cableDelayPs, toSwitch ? forwardingLatencyPs : 0);
    }

    /** The pause loop of a switch port: its PFC frame out to the peer, the peer's frames back into this switch. */
    public long roundTripPs(long cableDelayPs, boolean peerIsSwitch) {
        return Saturating.add(oneWayPs(cableDelayPs, peerIsSwitch), oneWayPs(cableDelayPs, true));
    }

    /** The pause loop of port {@code port} of switch node {@code node}. */
    public long roundTripPs(Topology topology, int node, int port) {
        LinkParameters l = topology.edgeAt(node, port).parameters();
        return roundTripPs(l.delayPs(), !topology.isHost(topology.peer(node, port).node()));
    }

    /** How long after a PFC frame arrives a device of this kind still starts frames, at its port speed. */
    public long responsePs(boolean isSwitch, long rateBps) {
        long configured = isSwitch ? switchResponsePs : nicResponsePs;
        return configured >= 0 ? configured : Headroom.responsePs(rateBps);
    }

    /** The peer's response time on port {@code port} of switch node {@code node}. */
    public long peerResponsePs(Topology topology, int node, int port) {
        return responsePs(!topology.isHost(topology.peer(node, port).node()),
                topology.edgeAt(node, port).parameters().rateBps());
    }

    /**
     * The headroom port {@code port} of switch node {@code node} needs per lossless priority (see
     * {@link Headroom#bytes}), with the largest RoCE frame of {@code mtuBytes} (tagged, with RETH) in
     * {@code frames}.
     */
    public long headroomBytes(Topology topology, int node, int port, FrameFormat frames,
            int mtuBytes) {
        long rate = topology.edgeAt(node, port).parameters().rateBps();
        return Headroom.bytes(rate, roundTripPs(topology, node, port), peerResponsePs(topology, node, port),
                largestFrame(frames, mtuBytes), frames.framingBytes());
    }

    /** The largest RoCE frame of an MTU (tagged, with RETH): what the headroom formula counts per frame. */
    public static int largestFrame(FrameFormat frames, int mtuBytes) {
        return frames.dataFrameBytes(mtuBytes, true);
    }

    /** What the loop of that port is made of, for people: "2 x 1.000 us cable + 2.000 us forwarding latency". */
    public String describe(long cableDelayPs, boolean peerIsSwitch) {
        int pipelines = peerIsSwitch ? 2 : 1;
        String cable = String.format(Locale.ROOT, "2 x %.3f us cable (%.0f m)", cableDelayPs / 1e6,
                Headroom.cableMeters(cableDelayPs));
        if (forwardingLatencyPs == 0) {
            return cable;
        }
        return cable + String.format(Locale.ROOT, " + %d x %.3f us forwarding latency (%s)", pipelines,
                forwardingLatencyPs / 1e6, peerIsSwitch ? "into this switch, and the PFC frame into the peer switch"
                        : "into this switch");
    }
}
