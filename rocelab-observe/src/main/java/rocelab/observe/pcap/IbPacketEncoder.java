package rocelab.observe.pcap;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;

/**
 * Encodes a simulated InfiniBand packet as a pcap record of LINKTYPE_WIRESHARK_UPPER_PDU (252): an exported-PDU
 * header naming the {@code infiniband} dissector (tag 12, padded to 4 bytes, then the end tag), followed by the
 * native packet: LRH (VL, SL, LNH = BTH next, DLID, packet length in words, SLID), BTH (FECN and BECN bits
 * carried), RETH or AETH, the payload (zeros) padded to 4 bytes, ICRC and VCRC; a CNP is InfiniBand's (opcode 0x80,
 * the BTH alone before the CRCs, as Annex A10 and Linux's hfi1 driver send it). Wireshark 4.0 cannot read
 * LINKTYPE 247 (raw IB) but dissects this form. Host h has LID h + 1; queue pair q has QP number 0x100 + q.
 * ICRC: CRC-32 over the packet with the LRH VL and the BTH FECN/BECN byte masked to ones; VCRC: the 16-bit CRC
 * (x^16 + x^12 + x^3 + x + 1, reflected, init and final xor 0xFFFF) over LRH to ICRC; both little-endian as the
 * RoCE ICRC. Wireshark shows both CRCs but verifies neither.
 */
public final class IbPacketEncoder {
    /** pcap link type of Wireshark's exported PDUs. */
    public static final int LINKTYPE_WIRESHARK_UPPER_PDU = 252;
    private static final int TAG_DISSECTOR_NAME = 12;
    private static final byte[] DISSECTOR = "infiniband".getBytes(StandardCharsets.US_ASCII);
    private static final int TAG_BYTES = 4 + ((DISSECTOR.length + 3) & ~3) + 4;
    private static final int LNH_BTH = 2;
    private static final int[] VCRC_TABLE = vcrcTable();

    private final int[] serviceLevelOfDscp;

    /** The LID of host {@code host}'s HCA port: {@code host + 1} (LID 0 is reserved). */
    public static int lid(int host) {
        return host + 1;
    }

    /** @param serviceLevelOfDscp the SL each DSCP (traffic selector) maps to, written into the LRH */
    public IbPacketEncoder(int[] serviceLevelOfDscp) {
        this.serviceLevelOfDscp = serviceLevelOfDscp.clone();
    }

    /**
     * The record's bytes (exported-PDU tags, then the packet), or null for a link-level flow-control packet or a
     * subnet management packet (whose MAD contents are not modelled).
     */
    public byte[] encode(Packet p, int msn) {
        if (p.kind() == PacketKind.CREDIT || p.kind() == PacketKind.PFC || p.kind() == PacketKind.MANAGEMENT) {
            return null;
        }
        // Out-of-order placement puts a RETH (its placement address) on every packet of a WRITE.
        boolean reth = p.kind() == PacketKind.DATA && (Opcodes.hasReth(p.opcode()) || p.placementOffset() >= 0);
        boolean aeth = p.kind() == PacketKind.ACK || p.kind() == PacketKind.NAK;
        boolean cnp = p.kind() == PacketKind.CNP;
        int ext = reth ? FrameFormat.RETH : aeth ? FrameFormat.AETH : 0;
        int payload = p.kind() == PacketKind.DATA ? p.payloadBytes() : 0;
        int pad = (4 - payload % 4) % 4;
        int length = FrameFormat.LRH + FrameFormat.BTH + ext + payload + pad + FrameFormat.ICRC + FrameFormat.VCRC;
        byte[] f = new byte[TAG_BYTES + length];
        int i = BigEndian.u16(f, 0, TAG_DISSECTOR_NAME);
        i = BigEndian.u16(f, i, (DISSECTOR.length + 3) & ~3);
        System.arraycopy(DISSECTOR, 0, f, i, DISSECTOR.length);
        i += (DISSECTOR.length + 3) & ~3;
        i = BigEndian.u16(f, i, 0);
        i = BigEndian.u16(f, i, 0);
        int lrh = i;
        f[i++] = (byte) (p.priority() << 4);
        f[i++] = (byte) (serviceLevelOfDscp[p.dscp()] << 4 | LNH_BTH);
        i = BigEndian.u16(f, i, lid(p.dstHost()));
        i = BigEndian.u16(f, i, (length - FrameFormat.VCRC) / 4);
        i = BigEndian.u16(f, i, lid(p.srcHost()));
        int bth = i;
        // InfiniBand's CNP has an opcode of its own: RoCEv2's (0x81, with 16 reserved bytes) is not InfiniBand's.
        f[i++] = (byte) (cnp ? Opcodes.IB_CNP : p.opcode());
        f[i++] = (byte) (pad << 4);
        i = BigEndian.u16(f, i, 0xFFFF);
        f[i++] = (byte) ((p.kind() == PacketKind.DATA && p.ecn() == Ecn.CE ? 0x80 : 0)
                | (cnp || aeth && p.cnpFlag() ? 0x40 : 0));
        i = BigEndian.u24(f, i, FrameEncoder.QPN_BASE + p.queuePair());
        f[i++] = (byte) (p.ackRequest() ? 0x80 : 0);
        i = BigEndian.u24(f, i, (int) p.psn());
        if (reth) {
            // The virtual address: the payload's offset in the WRITE (0 for its first packet, as before).
            long va = Math.max(0, p.placementOffset());
            BigEndian.u32(f, i, (int) (va >>> 32));
            BigEndian.u32(f, i + 4, (int) va);
            i += 8;
            i = BigEndian.u32(f, i, 0x1234);
            i = BigEndian.u32(f, i, (int) Math.min(p.messageBytes(), 0xFFFFFFFFL));
        } else if (aeth) {
            f[i++] = (byte) p.syndrome();
            i = BigEndian.u24(f, i, msn & 0xFFFFFF);
        }
        i += payload + pad;
        long icrc = icrc(f, lrh, bth, i);
        i = le32(f, i, icrc);
        int vcrc = vcrc(f, lrh, i);
        f[i] = (byte) vcrc;
        f[i + 1] = (byte) (vcrc >>> 8);
        return f;
    }

    /** Invariant CRC: the LRH's VL and the BTH's FECN/BECN/reserved byte are masked (they may change on the way). */
    static long icrc(byte[] f, int lrh, int bth, int end) {
        byte[] masked = Arrays.copyOfRange(f, lrh, end);
        masked[0] |= (byte) 0xF0;
        masked[bth - lrh + 4] = (byte) 0xFF;
        CRC32 c = new CRC32();
        c.update(masked);
        return c.getValue();
    }

    /** Variant CRC over everything from the LRH through the ICRC. */
    static int vcrc(byte[] f, int from, int end) {
        int c = 0xFFFF;
        for (int k = from; k < end; k++) {
            c = VCRC_TABLE[(c ^ f[k]) & 0xFF] ^ (c >>> 8);
        }
        return c ^ 0xFFFF;
    }

    private static int[] vcrcTable() {
        int[] t = new int[256];
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xD008 ^ (c >>> 1) : c >>> 1;
            }
            t[n] = c;
        }
        return t;
    }

    private static int le32(byte[] f, int i, long v) {
        f[i] = (byte) v;
        f[i + 1] = (byte) (v >>> 8);
        f[i + 2] = (byte) (v >>> 16);
        f[i + 3] = (byte) (v >>> 24);
        return i + 4;
    }
}
