package rocelab.congestion.ecn;

import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.packet.Packet;

/** Step marking (DCTCP, Alizadeh et al. 2010): every packet is marked while the queue is above K. */
public final class StepEcnMarking implements EcnMarking {
    private final long kBytes;

    public StepEcnMarking(long kBytes) {
        this.kBytes = kBytes;
    }

    @Override
    public boolean shouldMark(long nowPs, long queueBytes, Packet packet) {
        return queueBytes > kBytes;
    }
}
