package rocelab.congestion.ecn;

import java.util.SplittableRandom;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.packet.Packet;

/**
 * RED-style ECN marking on the instantaneous queue (DCQCN, Zhu et al. 2015): never at or below Kmin, always above
 * Kmax, and with probability Pmax (q - Kmin) / (Kmax - Kmin) in between.
 */
public final class RedEcnMarking implements EcnMarking {
    private final long kminBytes;
    private final long kmaxBytes;
    private final double pmax;
    private final SplittableRandom random;

    public RedEcnMarking(long kminBytes, long kmaxBytes, double pmax, SplittableRandom random) {
        this.kminBytes = kminBytes;
        this.kmaxBytes = kmaxBytes;
        this.pmax = pmax;
        this.random = random;
    }

    @Override
    public boolean shouldMark(long nowPs, long queueBytes, Packet packet) {
        if (queueBytes <= kminBytes) {
            return false;
        }
        if (queueBytes > kmaxBytes) {
            return true;
        }
        return random.nextDouble() < probability(queueBytes);
    }

    /** The marking probability at a queue depth. */
    public double probability(long queueBytes) {
        if (queueBytes <= kminBytes) {
            return 0;
        }
        if (queueBytes > kmaxBytes) {
            return 1;
        }
        return pmax * (queueBytes - kminBytes) / (double) (kmaxBytes - kminBytes);
    }
}
