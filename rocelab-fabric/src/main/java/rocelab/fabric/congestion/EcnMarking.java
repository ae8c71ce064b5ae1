package rocelab.fabric.congestion;

import rocelab.fabric.packet.Packet;

/** Decides whether an egress queue marks a packet Congestion Experienced (the congestion point of DCQCN). */
public interface EcnMarking {
    /** Never marks. */
    EcnMarking NONE = (nowPs, queueBytes, packet) -> false;

    /**
     * @param queueBytes bytes in the packet's egress queue (traffic class), measured where the scheme marks
     * @return true to set CE on the packet (the caller only marks ECN-capable packets)
     */
    boolean shouldMark(long nowPs, long queueBytes, Packet packet);
}
