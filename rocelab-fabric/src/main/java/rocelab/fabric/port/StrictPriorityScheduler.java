package rocelab.fabric.port;

import rocelab.fabric.packet.PacketFifo;

/** Strict priority: the highest non-empty eligible class always goes first (802.1Q strict selection). */
public final class StrictPriorityScheduler implements TransmitScheduler {
    @Override
    public int nextClass(PacketFifo[] queues, int eligibleMask) {
        for (int tc = queues.length - 1; tc >= 0; tc--) {
            if ((eligibleMask & (1 << tc)) != 0 && !queues[tc].isEmpty()) {
                return tc;
            }
        }
        return -1;
    }
}
