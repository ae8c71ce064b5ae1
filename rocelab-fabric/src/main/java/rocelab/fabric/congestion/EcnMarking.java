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

    /**
     * Whether a queue that is long only because it waits for credits from downstream (a victim of congestion, in
     * a credit-based fabric) marks too; IB congestion control's Victim_Mask. Without credits it never applies.
     */
    default boolean marksVictims() {
        return true;
    }
}
