package rocelab.fabric.nic;

import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketFifo;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PfcProbe;
import rocelab.fabric.probe.PfcReason;

/**
 * A receive pipeline slower than the wire (when configured): arriving packets wait in a receive buffer and go
 * through one at a time at the pipeline's rate. With PFC the RNIC pauses its switch when the buffer passes its
 * XOFF threshold (refreshing every half pause) and lifts the pause below XON; without, what does not fit is dropped.
 */
final class ReceivePipeline {
    private final Simulator sim;
    private final int handlerId;
    private final int host;
    private final long lineRateBps;
    private final FrameFormat frames;
    private final PacketPool pool;
    private final long[] counters;
    private final FrameSender transmitter;
    private final Nic nic;
    private final PacketFifo queue = new PacketFifo();
    private ReceiveParameters rx = ReceiveParameters.unlimited();
    private boolean pfc;
    private boolean creditBound;
    private PfcProbe pfcProbe = PfcProbe.NONE;
    /** The priority the RNIC's own PFC frames pause (the one received RoCE is filed under). */
    private int pausePriority;
    private boolean busy;
    private boolean pausing;
    private long refreshEpoch;

    ReceivePipeline(Simulator sim, int handlerId, int host, long lineRateBps, FrameFormat frames, PacketPool pool,
            long[] counters, FrameSender transmitter, Nic nic, int pausePriority) {
        this.sim = sim;
        this.handlerId = handlerId;
        this.host = host;
        this.lineRateBps = lineRateBps;
        this.frames = frames;
        this.pool = pool;
        this.counters = counters;
        this.transmitter = transmitter;
        this.nic = nic;
        this.pausePriority = pausePriority;
    }

    void configure(ReceiveParameters params, boolean pfc) {
        this.rx = params;
        this.pfc = pfc;
    }

    /** With InfiniBand credits the HCA's lane buffers bound what can arrive: nothing is dropped. */
    void creditBound(boolean bound) {
        this.creditBound = bound;
    }

    void pausePriority(int priority) {
        this.pausePriority = priority;
    }

    void pfcProbe(PfcProbe probe) {
        this.pfcProbe = probe;
    }

    /** The pipeline's rate, bits per second of frames on the wire; 0 when it keeps up with the link. */
    long rateBps() {
        return rx.limited() ? rx.rateBps() : 0;
    }

    /** Whether packets go through the pipeline; if not, the RNIC processes them as they arrive. */
    boolean limited() {
        return rx.limited();
    }

    void arrive(long nowPs, Packet p) {
        if (!creditBound && queue.bytes() + p.frameBytes() > rx.bufferBytes()) {
            counters[NicCounter.OUT_OF_BUFFER.ordinal()]++;
            pool.release(p);
            return;
        }
        queue.add(p);
        if (!busy) {
            start(nowPs);
        }
        if (pfc && !pausing && queue.bytes() >= rx.xoffBytes()) {
            pausing = true;
            sendPause(nowPs, 0xFFFF, PfcReason.RECEIVE_BUFFER);
        }
    }

    void onDone(long nowPs) {
        Packet p = queue.poll();
        busy = false;
        if (!queue.isEmpty()) {
            start(nowPs);
        }
        if (pausing && queue.bytes() <= rx.xonBytes()) {
            pausing = false;
            sendPause(nowPs, 0, PfcReason.RESUME);
        }
        nic.process(nowPs, p);
    }

    void onRefresh(long nowPs, long arg) {
        if (arg == refreshEpoch && pausing) {
            sendPause(nowPs, 0xFFFF, PfcReason.REFRESH);
        }
    }

    int packetsHeld() {
        return queue.size();
    }

    private void start(long nowPs) {
        busy = true;
        sim.schedule(nowPs + Rates.serializationPs(queue.peek().wireBytes(), rx.rateBps()), handlerId,
                NicEvent.RX_DONE, 0L);
    }

    /** XOFF (refreshed every half pause while the buffer stays full) or XON to the switch above. */
    private void sendPause(long nowPs, int quanta, PfcReason reason) {
        Packet frame = pool.acquire().initPfc(nowPs, pausePriority, quanta, frames.pfcFrameBytes());
        counters[NicCounter.TX_PAUSE.ordinal()]++;
        pfcProbe.onPfcSent(nowPs, host, 0, pausePriority, quanta, queue.bytes(),
                quanta == 0 ? rx.xonBytes() : rx.xoffBytes(), reason, -1, -1);
        transmitter.sendMacControl(nowPs, frame);
        ++refreshEpoch;
        if (quanta != 0) {
            long half = Headroom.pauseDurationPs(quanta, lineRateBps) / 2;
            sim.schedule(nowPs + half, handlerId, NicEvent.RX_REFRESH, refreshEpoch);
        }
    }
}
