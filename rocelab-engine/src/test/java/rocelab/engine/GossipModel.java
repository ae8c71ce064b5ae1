package rocelab.engine;

import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * A small model whose every step depends on the order of the events before it, to test that a partitioned run
 * sees exactly the order one simulator sees. Each node folds every event it receives (time, kind, argument) into
 * a running hash, and from its own random stream decides what to do next: wake itself up again soon (often after
 * 0 ps, so equal times abound) or send a message to another node after at least the lookahead, carrying part of its
 * hash (several senders often hit one receiver at the same picosecond). Any difference in the order of two events
 * at one node changes its hash, its draws and everything it sends afterwards.
 */
final class GossipModel {
    static final int TIMER = 1;
    static final int MESSAGE = 2;

    private final Node[] nodes;

    /**
     * @param simulatorOfNode the simulator each node registers with (the same one for all, or its partition's);
     *                        nodes register in index order, so their handler ids are their indices
     */
    GossipModel(int nodeCount, long seed, long lookaheadPs, long horizonPs,
            IntFunction<Simulator> simulatorOfNode) {
        RandomStreams streams = new RandomStreams(seed);
        nodes = new Node[nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            nodes[i] = new Node(simulatorOfNode.apply(i), i, nodeCount, streams.forComponent("node/" + i),
                    lookaheadPs, horizonPs);
        }
        for (Node n : nodes) {
            n.start();
        }
    }

    /** Each node's hash and event count: what a run must reproduce exactly. */
    String outcome() {
        StringBuilder b = new StringBuilder();
        for (Node n : nodes) {
            b.append(n.id).append(':').append(Long.toHexString(n.hash)).append('/').append(n.events).append(' ');
        }
        return b.toString();
    }

    long events() {
        long e = 0;
        for (Node n : nodes) {
            e += n.events;
        }
        return e;
    }

    private static final class Node implements EventHandler {
        private final Simulator sim;
        private final int id;
        private final int nodeCount;
        private final SplittableRandom random;
        private final long lookaheadPs;
        private final long horizonPs;
        private final int handlerId;
        private long hash;
        private long events;

        Node(Simulator sim, int id, int nodeCount, SplittableRandom random, long lookaheadPs, long horizonPs) {
            this.sim = sim;
            this.id = id;
            this.nodeCount = nodeCount;
            this.random = random;
            this.lookaheadPs = lookaheadPs;
            this.horizonPs = horizonPs;
            this.handlerId = sim.register(this);
            if (handlerId != id) {
                throw new IllegalStateException("node " + id + " got handler id " + handlerId);
            }
        }

        void start() {
            sim.schedule(random.nextInt(3) * lookaheadPs / 2, handlerId, TIMER, 0);
            // A message to a neighbour at assembly time: crosses partitions before any window runs.
            sim.schedule(lookaheadPs, (id + 1) % nodeCount, MESSAGE, id);
        }

        @Override
        public void onEvent(long nowPs, int kind, long arg) {
            events++;
            hash = RandomStreams.mix64(hash ^ nowPs * 31 ^ kind * 7919L ^ arg);
            // The draws depend on the hash, so they depend on everything seen so far, in order.
            SplittableRandom r = random;
            int draw = (int) ((hash >>> 7) ^ r.nextInt(1 << 20)) & 0xff;
            if (nowPs > horizonPs) {
                return;
            }
            if (kind == TIMER) {
                // Timers die out: a wake-up often follows at once (equal times), rarely a long chain.
                if (draw < 100) {
                    long[] soon = {0, 0, 1, 3, lookaheadPs / 3};
                    sim.schedule(nowPs + soon[draw % soon.length], handlerId, TIMER, draw & 3);
                }
                return;
            }
            // A message is a token passed on to another node, carrying part of this node's hash; early in the
            // run a token sometimes splits in two, and a message sometimes also wakes its receiver up.
            long[] later = {lookaheadPs, lookaheadPs, lookaheadPs + 1, 2 * lookaheadPs, 3 * lookaheadPs / 2};
            int to = (id + 1 + draw % Math.max(1, nodeCount - 1)) % nodeCount;
            sim.schedule(nowPs + later[(draw >>> 3) % later.length], to, MESSAGE, hash & 0xffff);
            if (draw >= 250 && nowPs < horizonPs / 4) {
                sim.schedule(nowPs + lookaheadPs, (id + 1) % nodeCount, MESSAGE, arg);
            }
            if (draw < 70) {
                sim.schedule(nowPs + (draw & 1), handlerId, TIMER, arg & 7);
            }
        }
    }
}
