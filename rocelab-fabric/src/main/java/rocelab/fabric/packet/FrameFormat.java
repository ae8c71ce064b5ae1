package rocelab.fabric.packet;

/**
 * Byte-exact sizes of RoCEv2 frames on Ethernet: Ethernet II header (14), optional 802.1Q tag (4), IPv4 (20),
 * UDP (8, destination port 4791), BTH (12), RETH (16) on the first packet of a WRITE, AETH (4) on ACK/NAK,
 * payload padded to 4 bytes, ICRC (4), FCS (4); frames shorter than 64 bytes are padded. On the wire each frame
 * is also preceded by preamble and SFD (8) and followed by the inter-frame gap (12).
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

    private final int l2Header;

    public FrameFormat(boolean vlanTagged) {
        this.l2Header = ETHERNET_HEADER + (vlanTagged ? VLAN_TAG : 0);
    }

    public boolean vlanTagged() {
        return l2Header != ETHERNET_HEADER;
    }

    /** Frame bytes (FCS included) of a data packet carrying {@code payloadBytes}. */
    public int dataFrameBytes(int payloadBytes, boolean withReth) {
        int padded = (payloadBytes + 3) & ~3;
        return pad(l2Header + IPV4_HEADER + UDP_HEADER + BTH + (withReth ? RETH : 0) + padded + ICRC + FCS);
    }

    /** Frame bytes of an ACK or NAK. */
    public int ackFrameBytes() {
        return pad(l2Header + IPV4_HEADER + UDP_HEADER + BTH + AETH + ICRC + FCS);
    }

    /** Frame bytes of a CNP. */
    public int cnpFrameBytes() {
        return pad(l2Header + IPV4_HEADER + UDP_HEADER + BTH + CNP_RESERVED + ICRC + FCS);
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
