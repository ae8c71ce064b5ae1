package rocelab.fabric.switching;

import java.util.Objects;

/**
 * Settings of adaptive routing and flowlet switching ({@link LoadBalancing#ADAPTIVE}, {@link LoadBalancing#FLOWLET}),
 * as switch dynamic load balancing (DLB) implements them: each candidate port's load is quantised to a few bits, the
 * least-loaded level wins, and a tie-break picks among the ports at that level.
 *
 * @param bits quantisation of each port's load, 1..8 bits ({@code 2^bits} levels, the last one open-ended)
 * @param queueQuantumBytes egress queue bytes (of the packet's traffic class) per load level
 * @param utilisationWindowPs window over which a port's transmit utilisation is measured and also quantised (the load
 *     is the larger of the two levels); 0 uses the queue alone
 * @param tieBreak how a port is picked among those at the least-loaded level
 * @param flowletTimeoutPs idle gap after which a flow's next packet starts a new flowlet (flowlet mode)
 * @param flowletTableSize entries of the flow table (a power of two), indexed by the 5-tuple hash, that holds the
 *     flowlets (flowlet mode) and the round-robin pointers; flows whose hashes collide share an entry, as in hardware
 */
public record AdaptiveParameters(int bits, long queueQuantumBytes, long utilisationWindowPs, TieBreak tieBreak,
        long flowletTimeoutPs, int flowletTableSize) {

    /** How a port is picked among the least-loaded candidates. */
    public enum TieBreak {
        /** Uniformly at random (the switch's own random stream, so deterministic by seed). */
        RANDOM,
        /** The packet's ECMP hash modulo the tied ports: a flow prefers the same port while loads are equal. */
        HASH,
        /**
         * A pointer per flow (per entry of the flow table) that advances on every choice of that flow, so a flow's
         * packets rotate over the tied ports and each gets an equal share of it.
         */
        ROUND_ROBIN
    }

    public AdaptiveParameters {
        if (bits < 1 || bits > 8) {
            throw new IllegalArgumentException("load quantisation must be 1..8 bits, got " + bits);
        }
        if (queueQuantumBytes < 1) {
            throw new IllegalArgumentException("queue quantum must be at least 1 byte, got " + queueQuantumBytes);
        }
        if (utilisationWindowPs < 0) {
            throw new IllegalArgumentException("utilisation window must not be negative");
        }
        if (flowletTimeoutPs < 1) {
            throw new IllegalArgumentException("flowlet timeout must be positive");
        }
        if (flowletTableSize < 1 || Integer.bitCount(flowletTableSize) != 1 || flowletTableSize > 1 << 24) {
            throw new IllegalArgumentException("flowlet table size must be a power of two up to 2^24, got "
                    + flowletTableSize);
        }
        Objects.requireNonNull(tieBreak, "tieBreak");
    }

    /** 3 bits (8 levels) of 4 KB of queue each, queue only, random tie-break, 50 us flowlets, 4096 entries. */
    public static AdaptiveParameters defaults() {
        return new AdaptiveParameters(3, 4096, 0, TieBreak.RANDOM, 50_000_000L, 4096);
    }

    /** The highest load level. */
    public int maxLevel() {
        return (1 << bits) - 1;
    }
}
