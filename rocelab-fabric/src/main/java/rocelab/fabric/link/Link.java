package rocelab.fabric.link;

import rocelab.engine.CrossingInbox;
import rocelab.engine.Prefetching;
import rocelab.engine.Simulator;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.JourneyProbe;

/**
 * One direction of a point-to-point link: propagation delay only (the sender accounts for serialisation). Frames
 * leave in the order they entered, so the link keeps an in-flight FIFO and a single pending wake-up for the
 * frame at its head (as htsim's pipe does), whatever the number of frames in flight.
 *
 * <p>In a partitioned run a link whose ends are in different partitions is where the run is cut: its handler
 * belongs to the receiving partition, and a frame the sender puts on it during a window waits in a list of that
 * window's parity until the barrier, when the receiving side moves it into the FIFO ({@link #drain}). Frames on one
 * link are due in order, so the FIFO and its one pending arrival (keyed by due time, this link, its epoch) are the
 * ones a single simulator has.
 */
public final class Link implements PacketSink, Prefetching, CrossingInbox {
    private static final int ARRIVAL = 1;

    private final Simulator sim;
    private final int handlerId;
    private final long delayPs;
    private final PacketSink far;
    private long epoch;
    private Packet head;
    private Packet tail;
    private int inFlight;
    private boolean down;
    private PacketPool pool;
    private long lost;
    private long lostBytes;
    private LinkProbe probe = LinkProbe.NONE;
    /** Told of the frames this link loses while down, as drops by its sending end ({@link #journeyProbe}). */
    private JourneyProbe journey = JourneyProbe.NONE;
    private int senderNode = -1;
    private int senderPort = -1;
    /** The sending partition when the link is cut (null: both ends in {@link #sim}). */
    private Simulator sender;
    private final Packet[] transitHead = new Packet[2];
    private final Packet[] transitTail = new Packet[2];
    /** Per parity, when the first frame waiting for the barrier is due, and how many frames wait. */
    private final long[] transitHeadDuePs = new long[2];
    private final int[] transitCount = new int[2];
    /** Frames put on the cut link by the sender and moved into the FIFO by the receiver (each side writes its own). */
    private long crossed;
    private long drained;

    /**
     * @param delayPs propagation delay, plus any fixed pipeline latency of the receiving device
     * @param far the receiver at the far end
     */
    public Link(Simulator sim, long delayPs, PacketSink far) {
        this.sim = sim;
        this.delayPs = delayPs;
        this.far = far;
        this.handlerId = sim.register(this);
    }

    /** Called when the last bit of {@code packet} has been put on the wire. */
    @Override
    public void receive(long nowPs, Packet packet) {
        transmit(nowPs, 0, packet);
    }

    /**
     * Called when the first bit of {@code packet} goes on the wire: its last bit reaches the far end after the
     * serialisation time plus the propagation delay. Handing the frame over at the start saves the sender a
     * wake-up at the end of each transmission when nothing else waits to be sent.
     */
    public void transmit(long startPs, long serializationPs, Packet packet) {
        probe.onTransmit(startPs, this, packet);
        if (down) {
            lose(startPs, packet);
            pool.release(packet);
            return;
        }
        packet.dueAtPs(startPs + serializationPs + delayPs);
        if (sender != null && sender.inWindow()) {
            cross(packet);
            return;
        }
        enqueue(packet);
    }

    /** The sender's side of a cut link during a window: the frame waits for the barrier. */
    private void cross(Packet packet) {
        sender.crossing(packet.dueAtPs());
        int parity = sender.windowParity();
        if (transitTail[parity] == null) {
            transitHead[parity] = packet;
            transitHeadDuePs[parity] = packet.dueAtPs();
        } else {
            transitTail[parity].nextInFlight(packet);
        }
        transitTail[parity] = packet;
        transitCount[parity]++;
        crossed++;
    }

    /**
     * After the barrier: the frames sent in the window join the FIFO behind what is in flight, in order, as one list.
     * One thread drains every cut link while the others wait, so it touches no frame but the FIFO's tail: walking the
     * frames here was 7 % of bench-B3's first thread on two, each frame pulled to that core and back again to the
     * receiver's. The frames are linked already, each with the due time of the one behind it ({@link #cross}).
     */
    @Override
    public void drain(int parity) {
        Packet first = transitHead[parity];
        if (first == null) {
            return;
        }
        int frames = transitCount[parity];
        Packet last = transitTail[parity];
        transitHead[parity] = null;
        transitTail[parity] = null;
        transitCount[parity] = 0;
        drained += frames;
        inFlight += frames;
        if (tail == null) {
            head = first;
            sim.schedule(transitHeadDuePs[parity], handlerId, ARRIVAL, epoch);
        } else {
            tail.nextInFlight(first, transitHeadDuePs[parity]);
        }
        tail = last;
    }

    /** This link is cut: {@code sendingPartition} puts frames on it, this link's simulator receives them. */
    public void crossFrom(Simulator sendingPartition) {
        this.sender = sendingPartition;
    }

    /** Frames put on this link while it was cut between partitions (they crossed at a barrier). */
    public long crossings() {
        return crossed;
    }

    private void enqueue(Packet packet) {
        if (tail == null) {
            head = packet;
            tail = packet;
            sim.schedule(packet.dueAtPs(), handlerId, ARRIVAL, epoch);
        } else {
            // Serialisation ends in order on one link, so arrivals stay in FIFO order.
            tail.nextInFlight(packet);
            tail = packet;
        }
        inFlight++;
    }

    /** What {@link #prefetch} read, kept so that its loads are not optimised away. */
    private long touched;

    @Override
    public void prefetch(int kind, long arg) {
        Packet p = head;
        if (p != null) {
            touched = p.touch();
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (arg != epoch || head == null) {
            return;
        }
        Packet p = head;
        // From the arriving frame, which is read anyway, not from the one behind it (see Packet.nextInFlight).
        long nextDuePs = p.nextDueAtPs();
        head = p.takeNextInFlight();
        if (head == null) {
            tail = null;
        } else {
            sim.schedule(nextDuePs, handlerId, ARRIVAL, epoch);
        }
        inFlight--;
        far.receive(nowPs, p);
    }

    /**
     * Takes the link down (frames on the wire are lost, as are frames sent while it is down) or back up.
     */
    public void setDown(boolean isDown, PacketPool packetPool) {
        this.pool = packetPool;
        this.down = isDown;
        if (isDown) {
            Packet p = head;
            while (p != null) {
                Packet n = p.takeNextInFlight();
                lose(sim.nowPs(), p);
                packetPool.release(p);
                inFlight--;
                p = n;
            }
            head = null;
            tail = null;
            ++epoch;
        }
    }

    /** A frame lost because the link is down: counted, and told to the journey as a drop by the sending end. */
    private void lose(long nowPs, Packet packet) {
        lost++;
        lostBytes += packet.frameBytes();
        journey.onDrop(nowPs, senderNode, senderPort, DropReason.LINK_DOWN, packet);
    }

    /**
     * Tells {@code p} of the frames this link loses while it is down, as drops by the end that sent them:
     * {@code node}'s port {@code port} (an RNIC's port is its plane).
     */
    public void journeyProbe(JourneyProbe p, int node, int port) {
        this.journey = p;
        this.senderNode = node;
        this.senderPort = port;
    }

    /** Observes every frame put on this link (packet capture); {@link LinkProbe#NONE} by default. */
    public void probe(LinkProbe p) {
        this.probe = p;
    }

    public boolean isDown() {
        return down;
    }

    /** Frames lost because the link was down. */
    public long lost() {
        return lost;
    }

    /** Bytes of the frames {@link #lost}. */
    public long lostBytes() {
        return lostBytes;
    }

    /** Frames on the wire right now (those waiting for a barrier included). */
    public int inFlight() {
        return inFlight + (int) (crossed - drained);
    }

    public long delayPs() {
        return delayPs;
    }
}
