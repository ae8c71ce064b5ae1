package rocelab.fabric.port;

import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.link.PacketSink;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.PortCounter;

/**
 * A switch output port: one FIFO per traffic class, a scheduler between classes, ECN marking per class at
 * dequeue, and one frame in service at a time. It keeps a single pending wake-up: the end of the current
 * transmission. The port also holds the counters of its physical port (receive side included).
 */
public final class EgressPort implements EventHandler {
    private static final int TX_COMPLETE = 1;
    private static final int ALL_CLASSES = 0xff;

    private final Simulator sim;
    private final int handlerId;
    private final int portIndex;
    private final long rateBps;
    private final long psPerByte;
    private final PacketFifo[] queues;
    private final TransmitScheduler scheduler;
    private final EcnMarking[] marking;
    private final SharedBuffer buffer;
    private final long[] counters = new long[PortCounter.COUNT];
    private PacketSink link;
    private Packet inService;
    private long queuedBytes;
    private long peakQueuedBytes;
    private int backlog;

    public EgressPort(Simulator sim, int portIndex, long rateBps, int classes, TransmitScheduler scheduler,
            EcnMarking[] marking, SharedBuffer buffer) {
        this.sim = sim;
        this.portIndex = portIndex;
        this.rateBps = rateBps;
        this.psPerByte = Rates.exactPsPerByte(rateBps);
        this.queues = new PacketFifo[classes];
        for (int i = 0; i < classes; i++) {
            queues[i] = new PacketFifo();
        }
        this.scheduler = scheduler;
        this.marking = marking.clone();
        this.buffer = buffer;
        this.handlerId = sim.register(this);
    }

    public void connect(PacketSink outgoingLink) {
        this.link = outgoingLink;
    }

    /** Queues an admitted packet in its class ({@code packet.priority()} holds the traffic class here). */
    public void enqueue(long nowPs, Packet packet) {
        int tc = packet.priority();
        queues[tc].add(packet);
        backlog |= 1 << tc;
        queuedBytes += packet.frameBytes();
        if (queuedBytes > peakQueuedBytes) {
            peakQueuedBytes = queuedBytes;
        }
        if (inService == null) {
            startNext(nowPs);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        Packet sent = inService;
        inService = null;
        int bytes = sent.frameBytes();
        queuedBytes -= bytes;
        buffer.release(sent.ingressPort(), portIndex, sent.priority(), bytes);
        counters[PortCounter.TX_PACKETS.ordinal()]++;
        counters[PortCounter.TX_BYTES.ordinal()] += bytes;
        if (sent.kind() == PacketKind.DATA) {
            counters[PortCounter.TX_DATA_PACKETS.ordinal()]++;
        }
        link.receive(nowPs, sent);
        startNext(nowPs);
    }

    private void startNext(long nowPs) {
        int ready = backlog & ALL_CLASSES;
        if (ready == 0) {
            return;
        }
        int tc = scheduler.nextClass(queues, ready);
        PacketFifo q = queues[tc];
        long depth = q.bytes();
        Packet p = q.poll();
        if (q.isEmpty()) {
            backlog &= ~(1 << tc);
        }
        if (p.ecn().isCapable() && marking[tc].shouldMark(nowPs, depth, p) && p.markCongestionExperienced()) {
            counters[PortCounter.ECN_MARKED.ordinal()]++;
        }
        inService = p;
        long wire = p.wireBytes();
        long txPs = psPerByte > 0 ? wire * psPerByte : Rates.serializationPs(wire, rateBps);
        sim.schedule(nowPs + txPs, handlerId, TX_COMPLETE, 0L);
    }

    /** Counts a packet arriving on this physical port. */
    public void countReceived(int frameBytes) {
        counters[PortCounter.RX_PACKETS.ordinal()]++;
        counters[PortCounter.RX_BYTES.ordinal()] += frameBytes;
    }

    public void count(PortCounter counter, long delta) {
        counters[counter.ordinal()] += delta;
    }

    public long counter(PortCounter counter) {
        return counters[counter.ordinal()];
    }

    public int portIndex() {
        return portIndex;
    }

    public long rateBps() {
        return rateBps;
    }

    /** Bytes waiting or in service on this port, all classes. */
    public long queuedBytes() {
        return queuedBytes;
    }

    public long queuedBytes(int tc) {
        return queues[tc].bytes();
    }

    public long peakQueuedBytes() {
        return peakQueuedBytes;
    }

    /** Packets held by this port: queued plus in service. */
    public int packetsHeld() {
        int n = inService == null ? 0 : 1;
        for (PacketFifo q : queues) {
            n += q.size();
        }
        return n;
    }
}
