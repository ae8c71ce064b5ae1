package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/** Strict priority: the highest ready class always goes first (802.1Q strict selection). */
public final class StrictPriorityScheduler implements TransmitScheduler {
    @Override
    public int nextClass(PacketFifo[] queues, int readyMask) {
        return 31 - Integer.numberOfLeadingZeros(readyMask);
    }
}
