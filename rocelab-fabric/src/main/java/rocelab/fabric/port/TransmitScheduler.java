package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/** Chooses which traffic class an egress port serves next. */
public interface TransmitScheduler {
    /**
     * @param queues one FIFO per traffic class
     * @param eligibleMask bit c set when class c may transmit now (not paused)
     * @return the class to serve, or -1 when no eligible class has a packet; the caller dequeues its head
     */
    int nextClass(PacketFifo[] queues, int eligibleMask);
}
