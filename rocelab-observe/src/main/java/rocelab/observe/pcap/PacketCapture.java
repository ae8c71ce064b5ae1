package rocelab.observe.pcap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.LinkProbe;
import rocelab.fabric.network.Network;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.topology.Topology;
import rocelab.observe.output.AtomicFiles;

/**
 * A packet capture of chosen links, written as a classic pcap file (nanosecond timestamps, LINKTYPE_ETHERNET) that
 * Wireshark and tshark dissect as RoCEv2, CNP and PFC; in an InfiniBand fabric, native IB packets as exported PDUs
 * for the infiniband dissector ({@link IbPacketEncoder}), without the link-level flow-control packets. Frames are
 * stamped when their first bit goes on the wire. Filters: links, one QP or one message of it (PFC frames always
 * pass), a time window, and a budget of frames after which capturing stops. Capturing encodes frames as they pass,
 * so it costs time and memory only when asked for.
 */
public final class PacketCapture implements LinkProbe {
    private final FrameEncoder encoder;
    private final IbPacketEncoder ibEncoder;
    private final int queuePair;
    private final long fromPs;
    private final long toPs;
    private final int budget;
    /**
     * With {@link #onlyMessage}: the message's cookie, then the PSNs of its first and last packets as its RNIC sends
     * them (-1 until then): a queue pair carries one message after another (a collective's steps), so the queue pair
     * alone would let the other messages' frames in.
     */
    private long message = -1;
    private long messageFirstPsn = -1;
    private long messageLastPsn = -1;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    /** Each watched link's sending node; -1 - node for a link watched only for its messages' ends, not captured. */
    private final IdentityHashMap<Link, Integer> senders = new IdentityHashMap<>();
    /** Per QP: the count of its messages seen, then the PSN of each one's last packet, in order. */
    private final HashMap<Integer, long[]> messageEnds = new HashMap<>();
    private int frames;
    private long ceMarked;
    private long cnps;
    private long pfcFrames;

    /**
     * @param links node-name pairs ({@code leaf0-spine1}); empty: every link
     * @param queuePair capture only this QP's frames (and PFC frames); -1: all
     */
    public PacketCapture(Network network, boolean vlanTagged, List<String> links, int queuePair, long fromPs,
            long toPs, int budget) {
        this.encoder = new FrameEncoder(vlanTagged);
        this.ibEncoder = network.isInfiniband() ? new IbPacketEncoder(network.serviceLevelOfDscp()) : null;
        this.queuePair = queuePair;
        this.fromPs = fromPs;
        this.toPs = toPs;
        this.budget = budget;
        header();
        Topology t = network.topology();
        for (Topology.Edge e : t.edges()) {
            String a = t.nodeName(e.a().node());
            String b = t.nodeName(e.b().node());
            boolean captured = links.isEmpty() || links.contains(a + "-" + b) || links.contains(b + "-" + a);
            // Every RNIC's own link is watched, captured or not: each message's last packet leaves by it first, which
            // an ACK's MSN needs (a capture of one switch's links still numbers its ACKs right).
            if (captured || t.isHost(e.a().node())) {
                attach(network.link(e.index(), true), e.a().node(), captured);
            }
            if (captured || t.isHost(e.b().node())) {
                attach(network.link(e.index(), false), e.b().node(), captured);
            }
        }
    }

    /**
     * Captures only the frames of the message posted with {@code cookie} on the chosen queue pair (a flow of
     * flows.csv): its data packets, and the ACKs, NAKs and CNPs whose PSN (a CNP: the marked packet's) is one of its
     * PSNs. PFC frames still pass.
     */
    public PacketCapture onlyMessage(long cookie) {
        this.message = cookie;
        return this;
    }

    /** Whether {@code p} belongs to the chosen message; a frame of its queue pair that does not is left out. */
    private boolean ofMessage(Packet p) {
        if (p.kind() == PacketKind.DATA) {
            return p.cookie() == message;
        }
        long psn = p.kind() == PacketKind.CNP ? p.causePsn() : p.psn();
        return messageFirstPsn >= 0 && psn >= messageFirstPsn && (messageLastPsn < 0 || psn <= messageLastPsn);
    }

    /** Checks link names against the topology; returns the first unknown one, or null. */
    public static String unknownLink(Topology t, List<String> links) {
        for (String l : links) {
            int dash = l.indexOf('-', 1);
            boolean found = false;
            for (int d = dash; d > 0 && !found; d = l.indexOf('-', d + 1)) {
                int a = t.nodeByName(l.substring(0, d));
                int b = t.nodeByName(l.substring(d + 1));
                for (Topology.Edge e : t.edges()) {
                    found |= a >= 0 && b >= 0 && (e.a().node() == a && e.b().node() == b
                            || e.a().node() == b && e.b().node() == a);
                }
            }
            if (!found) {
                return l;
            }
        }
        return null;
    }

    private void attach(Link link, int senderNode, boolean captured) {
        senders.put(link, captured ? senderNode : -1 - senderNode);
        link.probe(this);
    }

    /**
     * The AETH's MSN of an ACK or NAK: how many messages of its QP the responder had completed when it sent it. RC
     * delivers messages in PSN order, so they are those whose last packet's PSN the ACK acknowledges (a NAK: those
     * before the PSN it asks for; a selective NAK: up to its cumulative PSN).
     */
    private int msn(Packet p) {
        long acked = p.kind() == PacketKind.ACK ? p.psn() : p.selective() ? p.cumulativePsn() : p.psn() - 1;
        long[] ends = messageEnds.get(p.queuePair());
        int n = ends == null ? 0 : (int) ends[0];
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[1 + mid] <= acked) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Notes the PSN of a message's last packet, the first time it is sent (a retransmission sends it again). */
    private void noteMessageEnd(Packet p) {
        long[] ends = messageEnds.get(p.queuePair());
        if (ends == null) {
            ends = new long[9];
        }
        int n = (int) ends[0];
        if (n > 0 && ends[n] >= p.psn()) {
            return;
        }
        if (n + 1 == ends.length) {
            ends = Arrays.copyOf(ends, 2 * ends.length);
        }
        ends[1 + n] = p.psn();
        ends[0] = n + 1;
        messageEnds.put(p.queuePair(), ends);
    }

    @Override
    public void onTransmit(long startPs, Link link, Packet p) {
        int sender = senders.get(link);
        if (p.kind() == PacketKind.DATA && Opcodes.isLast(p.opcode())) {
            noteMessageEnd(p);
        }
        if (message >= 0 && p.kind() == PacketKind.DATA && p.cookie() == message) {
            // Its RNIC's link is watched, so its first packet is seen before anything that answers it.
            messageFirstPsn = messageFirstPsn < 0 ? p.psn() : Math.min(messageFirstPsn, p.psn());
            if (Opcodes.isLast(p.opcode())) {
                messageLastPsn = p.psn();
            }
        }
        if (sender < 0 || frames >= budget || startPs < fromPs || startPs > toPs) {
            return;
        }
        if (queuePair >= 0 && p.kind() != PacketKind.PFC && (p.queuePair() != queuePair
                || message >= 0 && !ofMessage(p))) {
            return;
        }
        int msn = p.kind() == PacketKind.ACK || p.kind() == PacketKind.NAK ? msn(p) : 0;
        byte[] f = ibEncoder != null ? ibEncoder.encode(p, msn) : encoder.encode(p, sender, msn);
        if (f == null) {
            // IB link-level flow-control packets: Wireshark reports them malformed in this form; vl.csv counts them.
            return;
        }
        long ns = startPs / 1000;
        u32le(ns / 1_000_000_000L);
        u32le(ns % 1_000_000_000L);
        u32le(f.length);
        u32le(f.length);
        out.write(f, 0, f.length);
        frames++;
        if (p.kind() == PacketKind.DATA && p.ecn() == Ecn.CE) {
            // (FECN on InfiniBand)
            ceMarked++;
        } else if (p.kind() == PacketKind.CNP) {
            cnps++;
        } else if (p.kind() == PacketKind.PFC) {
            pfcFrames++;
        }
    }

    private void header() {
        u32le(0xA1B23C4DL);
        u16le(2);
        u16le(4);
        u32le(0);
        u32le(0);
        u32le(65535);
        u32le(ibEncoder != null ? IbPacketEncoder.LINKTYPE_WIRESHARK_UPPER_PDU : 1);
    }

    private void u32le(long v) {
        out.write((int) v);
        out.write((int) (v >>> 8));
        out.write((int) (v >>> 16));
        out.write((int) (v >>> 24));
    }

    private void u16le(int v) {
        out.write(v);
        out.write(v >>> 8);
    }

    public void write(Path file) throws IOException {
        AtomicFiles.write(file, out.toByteArray());
    }

    public int frames() {
        return frames;
    }

    /** Captured data frames carrying ECN CE. */
    public long ceMarked() {
        return ceMarked;
    }

    public long cnps() {
        return cnps;
    }

    public long pfcFrames() {
        return pfcFrames;
    }
}
