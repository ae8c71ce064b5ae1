package rocelab.congestion.ibcc;

import rocelab.engine.EventHandler;
import rocelab.engine.Rates;
import rocelab.engine.Simulator;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;

/**
 * The InfiniBand congestion control of one QP (IBA Annex A10, source channel adapter): a BECN raises the
 * congestion control table index (CCTI), a timer lowers it, and the table entry is the injection delay inserted
 * after each packet. The RNIC paces by rate, so the delay becomes the rate at which a packet of the size last sent
 * takes its own serialisation time plus the delay: {@code rate = line x T / (T + CCT[CCTI])}. One pending
 * wake-up at most: the CCTI timer, running only while the index is above its minimum.
 */
public final class IbCongestionControl implements CongestionControl, EventHandler {
    private final Simulator sim;
    private final int handlerId;
    private final IbCcParameters p;
    private final long lineRateBps;
    private int ccti;
    private long rateBps;
    private long packetPs;
    private boolean timerRunning;
    /** BECNs that raised the index: one at ccti-limit already raises nothing (the spec's increase is capped). */
    private long raises;
    private final RateListener rates;
    private final int queuePair;

    public IbCongestionControl(Simulator sim, long lineRateBps, IbCcParameters params) {
        this(sim, lineRateBps, params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate change of QP {@code queuePair} with its cause */
    public IbCongestionControl(Simulator sim, long lineRateBps, IbCcParameters params, RateListener rates,
            int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.sim = sim;
        this.p = params;
        this.lineRateBps = lineRateBps;
        this.ccti = params.cctiMin();
        this.handlerId = sim.register(this);
        this.packetPs = Rates.serializationPs(4096, lineRateBps);
        updateRate();
    }

    @Override
    public long rateBps() {
        return rateBps;
    }

    @Override
    public long windowBytes() {
        return Long.MAX_VALUE;
    }

    @Override
    public boolean windowed() {
        return false;
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {
        long t = Rates.serializationPs(wireBytes, lineRateBps);
        if (t != packetPs) {
            long before = rateBps;
            packetPs = t;
            updateRate();
            rates.report(nowPs, queuePair, before, rateBps, Long.MAX_VALUE, Long.MAX_VALUE, RateCause.PACKET_SIZE, 0,
                    ccti);
        }
    }

    @Override
    public void onAck(long nowPs, AckFeedback ack) {}

    /** A BECN (carried by a CNP) for this QP: one step up the table. */
    @Override
    public boolean onCnp(long nowPs) {
        return onCnp(nowPs, 0);
    }

    @Override
    public boolean onCnp(long nowPs, long notification) {
        long before = rateBps;
        int from = ccti;
        ccti = Math.min(p.cctiLimit(), ccti + p.cctiIncrease());
        if (ccti > from) {
            raises++;
        }
        updateRate();
        rates.report(nowPs, queuePair, before, rateBps, Long.MAX_VALUE, Long.MAX_VALUE, RateCause.BECN, notification,
                ccti);
        if (!timerRunning && ccti > p.cctiMin()) {
            timerRunning = true;
            sim.schedule(nowPs + p.cctiTimerPs(), handlerId, 0, 0L);
        }
        return true;
    }

    /** CCTI timer expiry: one step down the table, and again later while above the minimum. */
    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (ccti > p.cctiMin()) {
            long before = rateBps;
            ccti--;
            updateRate();
            rates.report(nowPs, queuePair, before, rateBps, Long.MAX_VALUE, Long.MAX_VALUE, RateCause.CCT_TIMER, 0,
                    ccti);
        }
        if (ccti > p.cctiMin()) {
            sim.schedule(nowPs + p.cctiTimerPs(), handlerId, 0, 0L);
        } else {
            timerRunning = false;
        }
    }

    private void updateRate() {
        long delay = ccti * p.cctStepPs();
        rateBps = delay == 0 ? lineRateBps : Math.max(1, (long) ((double) lineRateBps * packetPs / (packetPs + delay)));
    }

    /** The current index into the congestion control table. */
    public int ccti() {
        return ccti;
    }

    @Override
    public long rateCuts() {
        return raises;
    }

    @Override
    public String cutsCounted() {
        return "IB CC index raises: one per BECN handled below ccti-limit (it raises the CCT index, slowing"
                + " injection; a BECN at the limit raises nothing)";
    }
}
