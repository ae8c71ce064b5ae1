package rocelab.fabric.switching;

import java.util.Arrays;
import java.util.SplittableRandom;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.PortCounter;

/**
 * The egress choice of a switch under adaptive routing or flowlet switching: among the equal-cost candidates, the
 * port whose quantised load is lowest (the queue of the packet's traffic class, in levels of a quantum, and
 * optionally the port's transmit utilisation over a short window), a tie-break among equals. In flowlet mode a flow
 * keeps its port while its packets arrive within the flowlet timeout of each other, tracked in a table of primitive
 * arrays indexed by the 5-tuple hash (colliding flows share an entry, as in a switch ASIC). Nothing here allocates.
 */
final class AdaptiveSelector {
    private final EgressPort[] ports;
    private final int maxLevel;
    private final long quantum;
    private final long windowPs;
    private final AdaptiveParameters.TieBreak tieBreak;
    private final boolean flowlets;
    private final long timeoutPs;
    private final SplittableRandom random;
    private final EcmpHash hash;
    private final long hashSeed;
    /** Level of each candidate in the current choice, by candidate index. */
    private final int[] levels;
    /** Utilisation measurement per port: start of the current window, bytes sent by then, last level measured. */
    private final long[] windowStartPs;
    private final long[] windowStartBytes;
    private final int[] utilisationLevel;
    /** Flowlet table: the port of each entry's current flowlet (-1: none yet) and its last packet's time. */
    private final int[] flowletPort;
    private final long[] lastSeenPs;
    private final int tableMask;
    /** Round-robin tie-break: a pointer per flow-table entry (so each flow rotates over the tied ports). */
    private final int[] roundRobin;
    private long flowletsStarted;

    AdaptiveSelector(EgressPort[] ports, LoadBalancing mode, AdaptiveParameters p, SplittableRandom random,
            EcmpHash hash, long hashSeed) {
        this.ports = ports;
        this.maxLevel = p.maxLevel();
        this.quantum = p.queueQuantumBytes();
        this.windowPs = p.utilisationWindowPs();
        this.tieBreak = p.tieBreak();
        this.flowlets = mode == LoadBalancing.FLOWLET;
        this.timeoutPs = p.flowletTimeoutPs();
        this.random = random;
        this.hash = hash;
        this.hashSeed = hashSeed;
        this.levels = new int[ports.length];
        this.windowStartPs = new long[windowPs > 0 ? ports.length : 0];
        this.windowStartBytes = new long[windowStartPs.length];
        this.utilisationLevel = new int[windowStartPs.length];
        int size = flowlets ? p.flowletTableSize() : 0;
        this.flowletPort = new int[size];
        this.lastSeenPs = new long[size];
        Arrays.fill(flowletPort, -1);
        this.roundRobin = new int[tieBreak == AdaptiveParameters.TieBreak.ROUND_ROBIN ? p.flowletTableSize() : 0];
        this.tableMask = p.flowletTableSize() - 1;
    }

    /** The output port (not its index) for a packet of class {@code tc}; {@code candidates} has two or more. */
    int choose(long nowPs, int tc, int srcHost, int dstHost, int entropy, int[] candidates) {
        if (!flowlets) {
            return leastLoaded(nowPs, tc, srcHost, dstHost, entropy, candidates);
        }
        int e = hash5(srcHost, dstHost, entropy) & tableMask;
        int port = flowletPort[e];
        long last = lastSeenPs[e];
        lastSeenPs[e] = nowPs;
        if (port >= 0 && nowPs - last <= timeoutPs && contains(candidates, port)) {
            return port;
        }
        // An idle gap (or a new flow, or a route change): the next flowlet goes where the load is lowest now.
        port = leastLoaded(nowPs, tc, srcHost, dstHost, entropy, candidates);
        flowletPort[e] = port;
        flowletsStarted++;
        return port;
    }

    /** Flowlets begun so far (flowlet mode): new flows, gaps longer than the timeout, and route changes. */
    long flowletsStarted() {
        return flowletsStarted;
    }

    private int leastLoaded(long nowPs, int tc, int srcHost, int dstHost, int entropy, int[] candidates) {
        int best = Integer.MAX_VALUE;
        int ties = 0;
        for (int c = 0; c < candidates.length; c++) {
            int level = level(nowPs, candidates[c], tc);
            levels[c] = level;
            if (level < best) {
                best = level;
                ties = 1;
            } else if (level == best) {
                ties++;
            }
        }
        int k = 0;
        if (ties > 1) {
            k = switch (tieBreak) {
                case RANDOM -> random.nextInt(ties);
                case HASH -> hash5(srcHost, dstHost, entropy) % ties;
                case ROUND_ROBIN -> roundRobin(hash5(srcHost, dstHost, entropy)) % ties;
            };
        }
        for (int c = 0; c < candidates.length; c++) {
            if (levels[c] == best && k-- == 0) {
                return candidates[c];
            }
        }
        throw new AssertionError("no candidate at the least load level");
    }

    /**
     * The flow's next round-robin step. The pointers start at the flow's hash, not at 0: flows that all start at
     * once would otherwise rotate in lockstep and meet on the same port downstream at the same time.
     */
    private int roundRobin(int flowHash) {
        return (flowHash + roundRobin[flowHash & tableMask]++) & Integer.MAX_VALUE;
    }

    /** A port's quantised load: its queue of class {@code tc} in quanta, or its recent utilisation if higher. */
    private int level(long nowPs, int port, int tc) {
        long q = ports[port].queuedBytes(tc) / quantum;
        int level = q >= maxLevel ? maxLevel : (int) q;
        if (windowPs > 0) {
            level = Math.max(level, utilisation(nowPs, port));
        }
        return level;
    }

    /**
     * The port's transmit utilisation over its last complete window, in levels (a fully busy port is the top level);
     * measured lazily when a choice looks at the port, so an idle switch does no work.
     */
    private int utilisation(long nowPs, int port) {
        long elapsed = nowPs - windowStartPs[port];
        if (elapsed >= windowPs) {
            long bytes = ports[port].counter(PortCounter.TX_BYTES);
            double busy = (bytes - windowStartBytes[port]) * 8.0 * 1e12 / ((double) ports[port].rateBps() * elapsed);
            utilisationLevel[port] = (int) Math.min(maxLevel, Math.floor(busy * (maxLevel + 1)));
            windowStartPs[port] = nowPs;
            windowStartBytes[port] = bytes;
        }
        return utilisationLevel[port];
    }

    private int hash5(int srcHost, int dstHost, int entropy) {
        return hash.hash(Switch.ipOf(srcHost), Switch.ipOf(dstHost), entropy, 4791, hashSeed);
    }

    private static boolean contains(int[] candidates, int port) {
        for (int c : candidates) {
            if (c == port) {
                return true;
            }
        }
        return false;
    }
}
