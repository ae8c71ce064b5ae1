package rocelab.fabric.port;

import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.PortCounter;

/**
 * A switch output port: one FIFO per traffic class, a scheduler between classes, ECN marking per class at
 * dequeue, and one frame on the wire at a time. It keeps at most one pending wake-up: the end of the current
 * transmission, and only while more frames wait. The port also holds the counters of its physical port (receive side included).
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
    private final boolean markAtEnqueue;
    private final long[] counters = new long[PortCounter.COUNT];
    private final long[] markedByClass;
    private Link link;
    private long busyUntilPs;
    private boolean wakeupPending;
    private long queuedBytes;
    private long peakQueuedBytes;
    private int backlog;

    public EgressPort(Simulator sim, int portIndex, long rateBps, int classes, TransmitScheduler scheduler,
            EcnMarking[] marking, boolean markAtEnqueue, SharedBuffer buffer) {
        this.sim = sim;
        this.portIndex = portIndex;
        this.rateBps = rateBps;
        this.psPerByte = Rates.exactPsPerByte(rateBps);
        this.queues = new PacketFifo[classes];
        this.markedByClass = new long[classes];
        for (int i = 0; i < classes; i++) {
            queues[i] = new PacketFifo();
        }
        this.scheduler = scheduler;
        this.marking = marking.clone();
        this.buffer = buffer;
        this.markAtEnqueue = markAtEnqueue;
        this.handlerId = sim.register(this);
    }

    public void connect(Link outgoingLink) {
        this.link = outgoingLink;
    }

    /** Queues an admitted packet in its class ({@code packet.priority()} holds the traffic class here). */
    public void enqueue(long nowPs, Packet packet) {
        int tc = packet.priority();
        if (markAtEnqueue) {
            mark(nowPs, tc, queues[tc].bytes(), packet);
        }
        queues[tc].add(packet);
        backlog |= 1 << tc;
        queuedBytes += packet.frameBytes();
        if (queuedBytes > peakQueuedBytes) {
            peakQueuedBytes = queuedBytes;
        }
        if (!wakeupPending) {
            if (nowPs >= busyUntilPs) {
                startNext(nowPs);
            } else {
                wakeupPending = true;
                sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
            }
        }
    }

    /** The previous frame's last bit is out: start the next one. */
    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        wakeupPending = false;
        startNext(nowPs);
    }

    /**
     * Dequeues the next frame, marks it if its class's marking says so, and puts it on the link. The frame leaves
     * the shared buffer when it is dequeued (as the ns-3 RDMA switch MMU accounts it); the port wakes up again at
     * the end of the transmission only if more frames wait.
     */
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
        if (!markAtEnqueue) {
            mark(nowPs, tc, depth - p.frameBytes(), p);
        }
        int bytes = p.frameBytes();
        queuedBytes -= bytes;
        buffer.release(p.ingressPort(), portIndex, tc, bytes);
        counters[PortCounter.TX_PACKETS.ordinal()]++;
        counters[PortCounter.TX_BYTES.ordinal()] += bytes;
        if (p.kind() == PacketKind.DATA) {
            counters[PortCounter.TX_DATA_PACKETS.ordinal()]++;
        }
        if (p.telemetryRequested()) {
            p.stampTelemetry(nowPs, counters[PortCounter.TX_BYTES.ordinal()], queuedBytes, rateBps);
        }
        long wire = p.wireBytes();
        long txPs = psPerByte > 0 ? wire * psPerByte : Rates.serializationPs(wire, rateBps);
        busyUntilPs = nowPs + txPs;
        link.transmit(nowPs, txPs, p);
        if (backlog != 0) {
            wakeupPending = true;
            sim.schedule(busyUntilPs, handlerId, TX_COMPLETE, 0L);
        }
    }

    /** ECN: only ECN-capable packets can be marked; {@code depth} is the class queue the decision sees. */
    private void mark(long nowPs, int tc, long depth, Packet p) {
        if (p.ecn().isCapable() && marking[tc].shouldMark(nowPs, depth, p) && p.markCongestionExperienced()) {
            counters[PortCounter.ECN_MARKED.ordinal()]++;
            markedByClass[tc]++;
        }
    }

    /** Packets this port marked CE in traffic class {@code tc}. */
    public long ecnMarked(int tc) {
        return markedByClass[tc];
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

    /** Packets held by this port: queued (the frame being transmitted is already owned by the link). */
    public int packetsHeld() {
        int n = 0;
        for (PacketFifo q : queues) {
            n += q.size();
        }
        return n;
    }
}
