package rocelab.congestion.ibcc;

import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.packet.Packet;

/**
 * FECN marking of one switch output lane (the congestion point of IB CC). The packet's ECN codepoint stands for
 * the BTH FECN bit in an InfiniBand fabric: CE means FECN set, and only QPs running IB CC send packets that may
 * be marked.
 */
public final class FecnMarking implements EcnMarking {
    private final FecnParameters p;
    private long eligible;

    public FecnMarking(FecnParameters params) {
        this.p = params;
    }

    @Override
    public boolean shouldMark(long nowPs, long queueBytes, Packet packet) {
        if (queueBytes <= p.thresholdBytes() || packet.frameBytes() < p.minPacketBytes()) {
            return false;
        }
        return eligible++ % (p.markingRate() + 1) == 0;
    }

    /** Victim_Mask: by default only the root of congestion marks, not ports held back by missing credits. */
    @Override
    public boolean marksVictims() {
        return p.victimMask();
    }
}
