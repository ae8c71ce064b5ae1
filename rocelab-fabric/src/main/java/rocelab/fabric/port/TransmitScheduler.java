package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/** Chooses which traffic class an egress port serves next. */
public interface TransmitScheduler {
    /**
     * @param queues one FIFO per traffic class
     * @param readyMask bit c set when class c has a packet and may transmit now (not paused); never 0
     * @return the class to serve; the caller dequeues its head
     */
    int nextClass(PacketFifo[] queues, int readyMask);
}
