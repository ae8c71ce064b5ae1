package rocelab.scenario.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.link.Link;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.nic.MessageListener;
import rocelab.fabric.nic.Nic;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.nic.QueuePairFactory;
import rocelab.fabric.nic.QueuePairTable;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.packet.PacketPool;

/**
 * Two RNICs back to back through a wire that loses data packets at random and delays each frame by a random extra
 * time (so frames overtake each other, as on sprayed paths), both from one seeded stream: a transport test bench
 * with nothing else in the way. It records what the QP reports upward.
 */
final class LossyWire {
    static final long RATE = 100_000_000_000L;

    final Simulator sim = new Simulator();
    final PacketPool pool = new PacketPool(64, new FrameFormat(false).framingBytes());
    final Nic sender;
    final Nic receiver;
    final QueuePair qp;
    final List<Long> delivered = new ArrayList<>();
    final List<Long> completed = new ArrayList<>();
    int errors;
    long dataDropped;
    /** Placement offsets that did not match PSN x MTU within their message (must stay 0). */
    long misplaced;

    private final SplittableRandom random;
    private final double dropProbability;
    private final long maxJitterPs;

    LossyWire(NicParameters params, double dropProbability, long maxJitterPs, long seed) {
        this.random = new SplittableRandom(seed);
        this.dropProbability = dropProbability;
        this.maxJitterPs = maxJitterPs;
        QueuePairTable table = new QueuePairTable();
        FrameFormat frames = new FrameFormat(false);
        sender = new Nic(sim, 0, RATE, params, frames, pool, table, NotificationPointParameters.defaults());
        receiver = new Nic(sim, 1, RATE, params, frames, pool, table, NotificationPointParameters.defaults());
        sender.connect(new Link(sim, 1_000_000, new Wire(receiver, true)));
        receiver.connect(new Link(sim, 1_000_000, new Wire(sender, false)));
        MessageListener listener = new MessageListener() {
            @Override
            public void onMessageDelivered(long nowPs, int queuePair, long cookie) {
                delivered.add(cookie);
            }

            @Override
            public void onMessageCompleted(long nowPs, int queuePair, long cookie) {
                completed.add(cookie);
            }

            @Override
            public void onQueuePairError(long nowPs, int queuePair) {
                errors++;
            }
        };
        qp = QueuePairFactory.create(sim, 0, sender, receiver, 0xC000, lineRate(), listener, params, frames, table);
    }

    private static CongestionControl lineRate() {
        return new CongestionControl() {
            @Override
            public long rateBps() {
                return RATE;
            }

            @Override
            public long windowBytes() {
                return Long.MAX_VALUE;
            }

            @Override
            public void onSend(long nowPs, int wireBytes) {}

            @Override
            public void onAck(long nowPs, AckFeedback ack) {}
        };
    }

    /** The far end of a link: drops data at random (forward direction only), delays every frame at random. */
    private final class Wire implements PacketSink, EventHandler {
        private final Nic far;
        private final boolean lossy;
        private final int handler;
        private final List<Packet> held = new ArrayList<>();

        Wire(Nic far, boolean lossy) {
            this.far = far;
            this.lossy = lossy;
            this.handler = sim.register(this);
        }

        @Override
        public void receive(long nowPs, Packet p) {
            if (lossy && p.kind() == PacketKind.DATA) {
                if (p.placementOffset() >= 0 && p.placementOffset() != expectedOffset(p)) {
                    misplaced++;
                }
                if (random.nextDouble() < dropProbability) {
                    dataDropped++;
                    pool.release(p);
                    return;
                }
            }
            long jitter = maxJitterPs == 0 ? 0 : random.nextLong(maxJitterPs + 1);
            held.add(p);
            sim.schedule(nowPs + jitter, handler, 0, held.size() - 1);
        }

        @Override
        public void onEvent(long nowPs, int kind, long slot) {
            Packet p = held.set((int) slot, null);
            far.receive(nowPs, p);
        }
    }

    /** Every message of this bench is posted back to back, so a packet's offset follows from its PSN. */
    private final List<long[]> posted = new ArrayList<>();

    void post(long bytes, long cookie) {
        long first = posted.isEmpty() ? 0 : posted.get(posted.size() - 1)[1];
        long packets = (bytes + sender.parameters().mtuBytes() - 1) / sender.parameters().mtuBytes();
        posted.add(new long[] {first, first + packets});
        qp.postWrite(sim.nowPs(), bytes, cookie);
    }

    private long expectedOffset(Packet p) {
        for (long[] m : posted) {
            if (p.psn() >= m[0] && p.psn() < m[1]) {
                return (p.psn() - m[0]) * sender.parameters().mtuBytes();
            }
        }
        return -2;
    }
}
