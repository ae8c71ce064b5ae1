package rocelab.fabric.packet;

/**
 * Byte-exact sizes of RoCEv2 frames on Ethernet: Ethernet II header (14), optional 802.1Q tag (4), IPv4 (20),
 * UDP (8, destination port 4791), BTH (12), RETH (16) on the first packet of a WRITE, AETH (4) on ACK/NAK,
 * payload padded to 4 bytes, ICRC (4), FCS (4); frames shorter than 64 bytes are padded. On the wire each frame
 * is also preceded by preamble and SFD (8) and followed by the inter-frame gap (12).
 *
 * <p>{@link #infiniband()} gives native InfiniBand packets instead: LRH (8), BTH (12), RETH/AETH, payload padded
 * to 4 bytes, ICRC (4), VCRC (2), no minimum size, and a 6-byte flow-control packet; on the wire each packet is
 * framed by a start and an end delimiter (one symbol each, {@link #IB_FRAMING} bytes of link time).
 *
 * <p>A congestion control that carries in-band telemetry (HPCC) adds its header to every data packet and to every
 * ACK or NAK that echoes it: the {@code telemetryBytes} of the methods that take them (see
 * {@link #intHeaderBytes}).
 */
public final class FrameFormat {
    public static final int ETHERNET_HEADER = 14;
    public static final int VLAN_TAG = 4;
    public static final int IPV4_HEADER = 20;
    public static final int UDP_HEADER = 8;
    public static final int BTH = 12;
    public static final int RETH = 16;
    public static final int AETH = 4;
    public static final int CNP_RESERVED = 16;
    public static final int ICRC = 4;
    public static final int FCS = 4;
    public static final int MIN_FRAME = 64;
    /** Preamble + SFD (8) and inter-frame gap (12): wire time that carries no frame bytes. */
    public static final int PREAMBLE_AND_IFG = 20;
    public static final int ROCEV2_UDP_PORT = 4791;
    /** InfiniBand local route header. */
    public static final int LRH = 8;
    /** InfiniBand variant CRC, recomputed at every hop. */
    public static final int VCRC = 2;
    /** InfiniBand link-level flow-control packet (Op, FCTBS, VL, FCCL, LPCRC). */
    public static final int IB_FLOW_CONTROL_PACKET = 6;
    /** Start and end delimiters of an InfiniBand packet on the link (one symbol each). */
    public static final int IB_FRAMING = 2;

    private final int l2Header;
    private final boolean infiniband;

    public FrameFormat(boolean vlanTagged) {
        this.l2Header = ETHERNET_HEADER + (vlanTagged ? VLAN_TAG : 0);
        this.infiniband = false;
    }

    private FrameFormat() {
        this.l2Header = 0;
        this.infiniband = true;
    }

    /** Native InfiniBand packets (LRH, no GRH) for {@code fabric.mode: infiniband}. */
    public static FrameFormat infiniband() {
        return new FrameFormat();
    }

    public boolean vlanTagged() {
        return !infiniband && l2Header != ETHERNET_HEADER;
    }

    /** Whether packets are native InfiniBand (LRH ... VCRC) rather than RoCEv2 on Ethernet. */
    public boolean isInfiniband() {
        return infiniband;
    }

    /** Bytes of one hop's record in HPCC's INT header (the HPCC ns-3 {@code IntHop}: two 32-bit words). */
    public static final int INT_HOP_RECORD = 8;
    /** The hop count that ends HPCC's INT header (ns-3 {@code IntHeader::nhop}, 16 bits). */
    public static final int INT_HOP_COUNT = 2;

    /**
     * Bytes of an INT header with room for {@code hops} hop records, as the HPCC ns-3 model sizes it
     * ({@code IntHeader::GetStaticSize}: {@code maxHop} records of 8 bytes and a 2-byte hop count, whatever hops the
     * packet crosses: 42 bytes for its 5); 0 for no header.
     */
    public static int intHeaderBytes(int hops) {
        return hops == 0 ? 0 : hops * INT_HOP_RECORD + INT_HOP_COUNT;
    }

    /** Frame bytes (FCS included) of a data packet carrying {@code payloadBytes}. */
    public int dataFrameBytes(int payloadBytes, boolean withReth) {
        return dataFrameBytes(payloadBytes, withReth, 0);
    }

    /** As {@link #dataFrameBytes(int, boolean)}, with a telemetry header of {@code telemetryBytes} (HPCC's INT). */
    public int dataFrameBytes(int payloadBytes, boolean withReth, int telemetryBytes) {
        int padded = (payloadBytes + 3) & ~3;
        return packet(BTH + (withReth ? RETH : 0) + padded + telemetryBytes);
    }

    /** Frame bytes of an ACK or NAK. */
    public int ackFrameBytes() {
        return ackFrameBytes(0);
    }

    /** As {@link #ackFrameBytes()}, echoing a telemetry header of {@code telemetryBytes} (HPCC's INT). */
    public int ackFrameBytes(int telemetryBytes) {
        return packet(BTH + AETH + telemetryBytes);
    }

    /** Frame bytes of a CNP: RoCEv2's has 16 reserved bytes after its BTH, InfiniBand's (Annex A10) nothing. */
    public int cnpFrameBytes() {
        return packet(BTH + (infiniband ? 0 : CNP_RESERVED));
    }

    /** Bytes of an InfiniBand link-level flow-control (credit update) packet. */
    public int creditFrameBytes() {
        return IB_FLOW_CONTROL_PACKET;
    }

    /** Bytes of an InfiniBand subnet management packet: LRH, BTH, DETH (8), a 256-byte MAD, ICRC, VCRC. */
    public int managementFrameBytes() {
        return LRH + BTH + 8 + 256 + ICRC + VCRC;
    }

    /** Link time, in bytes, that one packet occupies beyond its own bytes (preamble and IFG, or IB delimiters). */
    public int framingBytes() {
        return infiniband ? IB_FRAMING : PREAMBLE_AND_IFG;
    }

    /** Bytes of link time a packet of {@code frameBytes} occupies in this format. */
    public int onWire(int frameBytes) {
        return frameBytes + framingBytes();
    }

    /** Transport headers plus payload, wrapped in the link and network layers of this format. */
    private int packet(int transportBytes) {
        if (infiniband) {
            return LRH + transportBytes + ICRC + VCRC;
        }
        return pad(l2Header + IPV4_HEADER + UDP_HEADER + transportBytes + ICRC + FCS);
    }

    /** Frame bytes of an 802.1Qbb PFC frame (minimum-size MAC control frame). */
    public int pfcFrameBytes() {
        return MIN_FRAME;
    }

    /** Bytes of link time a frame occupies: frame plus preamble, SFD and inter-frame gap. */
    public static int wireBytes(int frameBytes) {
        return frameBytes + PREAMBLE_AND_IFG;
    }

    private static int pad(int bytes) {
        return Math.max(bytes, MIN_FRAME);
    }
}
