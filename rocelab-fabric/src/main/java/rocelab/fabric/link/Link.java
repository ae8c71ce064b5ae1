package rocelab.fabric.link;

import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;

/**
 * One direction of a point-to-point link: propagation delay only (the sender accounts for serialisation). Frames
 * leave in the order they entered, so the link keeps an in-flight FIFO and a single pending wake-up for the
 * frame at its head (as htsim's pipe does), whatever the number of frames in flight. The FIFO is a ring of the
 * frames and their arrival times held by the link itself: an arrival reads the next frame's time from the link's
 * own array instead of from that frame (which sits elsewhere in memory and is cold by then), and a transmission
 * does not touch the frame before it.
 */
public final class Link implements PacketSink, EventHandler {
    private static final int ARRIVAL = 1;

    private final Simulator sim;
    private final int handlerId;
    private final long delayPs;
    private final PacketSink far;
    private long epoch;
    private Packet[] ring = new Packet[16];
    private long[] dueAtPs = new long[16];
    private int head;
    private int inFlight;
    private boolean down;
    private PacketPool pool;
    private long lost;
    private LinkProbe probe = LinkProbe.NONE;

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
            lost++;
            pool.release(packet);
            return;
        }
        if (inFlight == ring.length) {
            grow();
        }
        // Serialisation ends in order on one link, so arrivals stay in FIFO order.
        long due = startPs + serializationPs + delayPs;
        int i = (head + inFlight) & (ring.length - 1);
        ring[i] = packet;
        dueAtPs[i] = due;
        if (inFlight++ == 0) {
            sim.schedule(due, handlerId, ARRIVAL, epoch);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (arg != epoch || inFlight == 0) {
            return;
        }
        Packet p = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        if (--inFlight > 0) {
            sim.schedule(dueAtPs[head], handlerId, ARRIVAL, epoch);
        }
        far.receive(nowPs, p);
    }

    /** Doubles the ring (the sizes stay powers of two), keeping the frames in order from index 0. */
    private void grow() {
        int n = ring.length;
        Packet[] r = new Packet[2 * n];
        long[] d = new long[2 * n];
        for (int k = 0; k < inFlight; k++) {
            r[k] = ring[(head + k) & (n - 1)];
            d[k] = dueAtPs[(head + k) & (n - 1)];
        }
        ring = r;
        dueAtPs = d;
        head = 0;
    }

    /**
     * Takes the link down (frames on the wire are lost, as are frames sent while it is down) or back up.
     */
    public void setDown(boolean isDown, PacketPool packetPool) {
        this.pool = packetPool;
        this.down = isDown;
        if (isDown) {
            while (inFlight > 0) {
                packetPool.release(ring[head]);
                ring[head] = null;
                head = (head + 1) & (ring.length - 1);
                lost++;
                inFlight--;
            }
            ++epoch;
        }
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

    /** Frames on the wire right now. */
    public int inFlight() {
        return inFlight;
    }

    public long delayPs() {
        return delayPs;
    }
}
