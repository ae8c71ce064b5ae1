package rocelab.fabric.packet;

/** What a frame is. Control frames are real frames: they take serialisation and propagation time. */
public enum PacketKind {
    /** RoCEv2 RDMA WRITE or SEND data (BTH, RETH on the first packet of a WRITE). */
    DATA,
    /** RC Acknowledge (BTH + AETH, ACK syndrome). */
    ACK,
    /** RC negative acknowledge, PSN sequence error (BTH + AETH syndrome 0x60). */
    NAK,
    /** Congestion Notification Packet (BTH opcode 0x81). */
    CNP,
    /** IEEE 802.1Qbb priority flow control frame. */
    PFC,
    /** InfiniBand link-level flow-control packet: a credit update for one virtual lane. */
    CREDIT,
    /** InfiniBand subnet management packet (SMP) on VL15: never flow-controlled, ahead of every data lane. */
    MANAGEMENT
}
