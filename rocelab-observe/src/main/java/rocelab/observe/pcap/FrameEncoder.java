package rocelab.observe.pcap;

import java.util.Arrays;
import java.util.zip.CRC32;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.switching.Switch;

/**
 * Encodes a simulated frame into the bytes a capture would show (without FCS): Ethernet II (802.1Q tag, VLAN 100,
 * when the fabric tags), IPv4 with the frame's DSCP and ECN, UDP to port 4791 with the QP's source port, BTH, RETH
 * or AETH, the payload (zeros) padded to 4 bytes, and a correct ICRC; CNPs and 802.1Qbb PFC frames likewise. An ACK
 * or NAK that carries a congestion notification instead of a CNP ({@code cnp-on-ack}) has the BTH's BECN bit set.
 * Addresses: host h has IPv4 10.0.0.(h+1) and MAC 02:00:00:00:hh:hh (h+1); queue pair q has QP number 0x100 + q
 * on the wire, because QP numbers 0 and 1 are the InfiniBand management QPs (and dissect as such).
 *
 * <p>A frame that carries a telemetry header (HPCC's INT: its frame is longer than its RoCE headers and payload) has
 * it after the padded payload (or the AETH), inside the ICRC, so the IP and UDP lengths and the capture's length are
 * the frame's and Wireshark dissects it as RDMA payload: the ns-3 {@code IntHeader} as HPCC ns-3 serialises it, one
 * 8-byte record per hop ({@code IntHop}: bits 0-2 the rate code, 0 to 4 for 25 to 400 Gb/s, 7 otherwise; 3-26 the
 * time in ns; 27-46 the port's transmitted bytes in 128-byte units; 47-63 its queue in 80-byte units; as two
 * little-endian 32-bit words), the records the packet has collected where it is captured and zeros after, then the
 * 16-bit hop count.
 */
public final class FrameEncoder {
    /** VLAN id of tagged frames. */
    public static final int VLAN_ID = 100;
    private static final int R_KEY = 0x1234;
    /** Wire QP number of the simulation's queue pair 0. */
    public static final int QPN_BASE = 0x100;

    private final boolean vlan;

    public FrameEncoder(boolean vlanTagged) {
        this.vlan = vlanTagged;
    }

    /**
     * The frame's bytes as captured (no FCS), or null for a frame kind that has no wire encoding; {@code msn} is an
     * ACK's or NAK's message sequence number (the responder's completed messages on the QP), ignored otherwise.
     */
    public byte[] encode(Packet p, int senderNode, int msn) {
        if (p.kind() == PacketKind.PFC) {
            return pfc(p, senderNode);
        }
        return roce(p, msn);
    }

    private byte[] pfc(Packet p, int senderNode) {
        byte[] f = new byte[60];
        int i = mac(f, 0, 0x0180C2000001L);
        i = mac(f, i, 0x020000000000L | (senderNode + 1L));
        i = BigEndian.u16(f, i, 0x8808);
        i = BigEndian.u16(f, i, 0x0101);
        i = BigEndian.u16(f, i, 1 << p.priority());
        i += 2 * p.priority();
        BigEndian.u16(f, i, p.pauseQuanta());
        return f;
    }

    private byte[] roce(Packet p, int msn) {
        int l2 = FrameFormat.ETHERNET_HEADER + (vlan ? FrameFormat.VLAN_TAG : 0);
        int ib = FrameFormat.BTH;
        // Out-of-order placement puts a RETH (its placement address) on every packet of a WRITE.
        boolean reth = p.kind() == PacketKind.DATA && (Opcodes.hasReth(p.opcode()) || p.placementOffset() >= 0);
        boolean aeth = p.kind() == PacketKind.ACK || p.kind() == PacketKind.NAK;
        boolean cnp = p.kind() == PacketKind.CNP;
        ib += reth ? FrameFormat.RETH : aeth ? FrameFormat.AETH : cnp ? FrameFormat.CNP_RESERVED : 0;
        int payload = p.kind() == PacketKind.DATA ? p.payloadBytes() : 0;
        int pad = (4 - payload % 4) % 4;
        int plainIp = FrameFormat.IPV4_HEADER + FrameFormat.UDP_HEADER + ib + payload + pad + FrameFormat.ICRC;
        // What the frame has beyond its headers and payload is its congestion control's telemetry header.
        int telemetry = p.kind() == PacketKind.DATA || aeth
                ? Math.max(0, p.frameBytes() - FrameFormat.FCS - l2 - plainIp) : 0;
        int udpLen = FrameFormat.UDP_HEADER + ib + payload + pad + telemetry + FrameFormat.ICRC;
        int ipLen = FrameFormat.IPV4_HEADER + udpLen;
        byte[] f = new byte[Math.max(60, l2 + ipLen)];
        int i = mac(f, 0, 0x020000000000L | (p.dstHost() + 1L));
        i = mac(f, i, 0x020000000000L | (p.srcHost() + 1L));
        if (vlan) {
            i = BigEndian.u16(f, i, 0x8100);
            i = BigEndian.u16(f, i, p.priority() << 13 | VLAN_ID);
        }
        i = BigEndian.u16(f, i, 0x0800);
        int ip = i;
        f[i++] = 0x45;
        f[i++] = (byte) (p.dscp() << 2 | p.ecn().codepoint());
        i = BigEndian.u16(f, i, ipLen);
        i = BigEndian.u16(f, i, 0);
        i = BigEndian.u16(f, i, 0x4000);
        f[i++] = 64;
        f[i++] = 17;
        i += 2;
        i = BigEndian.u32(f, i, Switch.ipOf(p.srcHost()));
        i = BigEndian.u32(f, i, Switch.ipOf(p.dstHost()));
        BigEndian.u16(f, ip + 10, ipChecksum(f, ip));
        int udp = i;
        i = BigEndian.u16(f, i, p.entropy());
        i = BigEndian.u16(f, i, FrameFormat.ROCEV2_UDP_PORT);
        i = BigEndian.u16(f, i, udpLen);
        i = BigEndian.u16(f, i, 0);
        int bth = i;
        f[i++] = (byte) p.opcode();
        f[i++] = (byte) (pad << 4);
        i = BigEndian.u16(f, i, 0xFFFF);
        // BECN: a CNP, or an ACK carrying the notification a CNP would (cnp-on-ack), as InfiniBand piggybacks BECN.
        f[i++] = (byte) (cnp || aeth && p.cnpFlag() ? 0x40 : 0);
        i = BigEndian.u24(f, i, QPN_BASE + p.queuePair());
        f[i++] = (byte) (p.ackRequest() ? 0x80 : 0);
        i = BigEndian.u24(f, i, (int) p.psn());
        if (reth) {
            // The virtual address: the payload's offset in the WRITE (0 for its first packet, as before).
            long va = Math.max(0, p.placementOffset());
            BigEndian.u32(f, i, (int) (va >>> 32));
            BigEndian.u32(f, i + 4, (int) va);
            i += 8;
            i = BigEndian.u32(f, i, R_KEY);
            i = BigEndian.u32(f, i, (int) Math.min(p.messageBytes(), 0xFFFFFFFFL));
        } else if (aeth) {
            f[i++] = (byte) p.syndrome();
            i = BigEndian.u24(f, i, msn & 0xFFFFFF);
        } else if (cnp) {
            i += FrameFormat.CNP_RESERVED;
        }
        i += payload + pad;
        if (telemetry > 0) {
            i = intHeader(f, i, p, telemetry);
        }
        long crc = icrc(f, ip, udp, bth, i);
        f[i++] = (byte) crc;
        f[i++] = (byte) (crc >>> 8);
        f[i++] = (byte) (crc >>> 16);
        f[i] = (byte) (crc >>> 24);
        return f;
    }

    /** Writes {@code p}'s INT header of {@code bytes} (room for (bytes - 2) / 8 records) at {@code i}. */
    private static int intHeader(byte[] f, int i, Packet p, int bytes) {
        int room = (bytes - FrameFormat.INT_HOP_COUNT) / FrameFormat.INT_HOP_RECORD;
        int hops = p.telemetryHops();
        for (int h = 0; h < Math.min(room, hops); h++) {
            long word = rateCode(p.hopRateBps(h))
                    | (p.hopTimePs(h) / 1000 & 0xFFFFFFL) << 3
                    | (p.hopTxBytes(h) / 128 & 0xFFFFFL) << 27
                    | Math.min(p.hopQueueBytes(h) / 80, 0x1FFFFL) << 47;
            u32le(f, i + h * FrameFormat.INT_HOP_RECORD, (int) word);
            u32le(f, i + h * FrameFormat.INT_HOP_RECORD + 4, (int) (word >>> 32));
        }
        int count = i + room * FrameFormat.INT_HOP_RECORD;
        f[count] = (byte) hops;
        f[count + 1] = (byte) (hops >>> 8);
        return i + bytes;
    }

    /** The 3-bit line-rate code of ns-3's {@code IntHop}. */
    private static long rateCode(long bps) {
        long g = bps / 1_000_000_000L;
        return g == 25 ? 0 : g == 50 ? 1 : g == 100 ? 2 : g == 200 ? 3 : g == 400 ? 4 : 7;
    }

    private static void u32le(byte[] f, int i, int v) {
        f[i] = (byte) v;
        f[i + 1] = (byte) (v >>> 8);
        f[i + 2] = (byte) (v >>> 16);
        f[i + 3] = (byte) (v >>> 24);
    }

    /**
     * The RoCEv2 invariant CRC: CRC-32 over 8 bytes of 0xFF, the IPv4 header with ToS, TTL and checksum masked,
     * the UDP header with its checksum masked, the BTH with its FECN/BECN byte masked, and everything after it up
     * to the ICRC (IBTA Annex A17; Linux rxe_icrc.c).
     */
    static long icrc(byte[] f, int ip, int udp, int bth, int end) {
        CRC32 c = new CRC32();
        byte[] ones = {-1, -1, -1, -1, -1, -1, -1, -1};
        c.update(ones);
        byte[] head = Arrays.copyOfRange(f, ip, bth + FrameFormat.BTH);
        head[1] = (byte) 0xFF;
        head[8] = (byte) 0xFF;
        head[10] = (byte) 0xFF;
        head[11] = (byte) 0xFF;
        int u = udp - ip;
        head[u + 6] = (byte) 0xFF;
        head[u + 7] = (byte) 0xFF;
        head[bth - ip + 4] = (byte) 0xFF;
        c.update(head);
        c.update(f, bth + FrameFormat.BTH, end - bth - FrameFormat.BTH);
        return c.getValue();
    }

    private static int ipChecksum(byte[] f, int ip) {
        long sum = 0;
        for (int k = 0; k < 20; k += 2) {
            sum += ((f[ip + k] & 0xff) << 8) | (f[ip + k + 1] & 0xff);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) (~sum & 0xffff);
    }

    private static int mac(byte[] f, int i, long mac) {
        for (int k = 5; k >= 0; k--) {
            f[i++] = (byte) (mac >>> (8 * k));
        }
        return i;
    }
}
