package rocelab.congestion.hpcc;

import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;
import rocelab.fabric.packet.Packet;

/**
 * HPCC sender of one queue pair (Li et al., SIGCOMM 2019, as in the HPCC ns-3 {@code UpdateRateHp}): every ACK
 * carries the in-band telemetry of each switch egress the data packet left; the sender turns it into the
 * utilisation U of the most loaded hop, smooths it over one base RTT T and sets its window
 * {@code W = Wc / (U/η) + W_AI} (multiplicative) or {@code W = Wc + W_AI} (additive, at most maxStage rounds in a
 * row). The reference window Wc and the stage are committed once per RTT; the ACKs in between react with the
 * same formula without committing ("fast react").
 *
 * <p>State is kept in the rate domain, {@code R = W / T}, as the ns-3 model does; the window the RNIC enforces is
 * {@code R x T}. Before T is known (no fixed {@code base-rtt} and no ACK yet) the queue pair sends at line rate
 * with no window, which puts the same B x T bytes on the wire in the first RTT as {@code W_init = B x T}. The
 * previous ACK's telemetry is kept per hop in three fixed primitive arrays: an ACK costs no allocation.
 */
public final class HpccControl implements CongestionControl {
    private static final double BITS_PS_PER_BYTE_S = 8e12;
    private static final int MAX_HOPS = Packet.MAX_TELEMETRY_HOPS;

    private final HpccParameters p;
    private final long[] hopTimePs = new long[MAX_HOPS];
    private final long[] hopTxBytes = new long[MAX_HOPS];
    private final long[] hopQueueBytes = new long[MAX_HOPS];
    private int storedHops = -1;
    private long baseRttPs;
    private double rateBps;
    private double referenceRateBps;
    private double utilisation = 1.0;
    private int incStage;
    private boolean started;
    private long ackedBytes;
    private long lastUpdateBytes;
    private long cuts;
    private final RateListener rates;
    private final int queuePair;
    private RateCause cause;
    private long causeValue;
    private int causeIndex;

    public HpccControl(HpccParameters params) {
        this(params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate or window change of QP {@code queuePair} with its cause */
    public HpccControl(HpccParameters params, RateListener rates, int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.p = params;
        this.baseRttPs = params.baseRttPs();
        this.rateBps = params.maxRateBps();
        this.referenceRateBps = params.maxRateBps();
    }

    @Override
    public boolean wantsTelemetry() {
        return true;
    }

    /** The INT header every data packet carries and every ACK echoes ({@code int-hops}, 42 bytes by default). */
    @Override
    public int telemetryHeaderBytes() {
        return p.intHeaderBytes();
    }

    @Override
    public long rateBps() {
        return (long) rateBps;
    }

    /** {@code R x T} payload bytes, at least 1 (the RNIC then still sends one packet when nothing is in flight). */
    @Override
    public long windowBytes() {
        if (baseRttPs == 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(1L, (long) (rateBps * baseRttPs / BITS_PS_PER_BYTE_S));
    }

    @Override
    public void onSend(long nowPs, int wireBytes) {}

    @Override
    public void onAck(long nowPs, AckFeedback ack) {
        long rate = rateBps();
        long window = windowBytes();
        cause = RateCause.RTT_SAMPLE;
        causeValue = ack.rttPs();
        causeIndex = 0;
        handleAck(ack);
        rates.report(nowPs, queuePair, rate, rateBps(), window, windowBytes(), cause, causeValue, causeIndex);
    }

    private void handleAck(AckFeedback ack) {
        long rtt = ack.rttPs();
        if (rtt > 0 && p.baseRttPs() == 0 && (baseRttPs == 0 || rtt < baseRttPs)) {
            baseRttPs = rtt;
        }
        ackedBytes += ack.newlyAckedBytes();
        long sentBytes = ackedBytes + ack.unackedBytes();
        if (!started) {
            if (baseRttPs == 0) {
                return;
            }
            // First feedback: remember the telemetry; the first full update waits until this RTT's data is acked.
            started = true;
            lastUpdateBytes = sentBytes;
            storeTelemetry(ack);
            return;
        }
        boolean fullUpdate = ackedBytes > lastUpdateBytes;
        if (ack.hops() > 0 && ack.hops() == storedHops) {
            update(ack, fullUpdate);
        }
        if (fullUpdate && sentBytes > lastUpdateBytes) {
            lastUpdateBytes = sentBytes;
        }
        storeTelemetry(ack);
    }

    /** One HPCC rate computation from the ACK's telemetry against the previous ACK's, hop by hop. */
    private void update(AckFeedback ack, boolean fullUpdate) {
        double t = baseRttPs;
        double maxU = 0;
        long tau = 0;
        int loaded = 0;
        boolean any = false;
        for (int i = 0; i < storedHops; i++) {
            long dt = ack.hopTimePs(i) - hopTimePs[i];
            if (dt <= 0) {
                continue;
            }
            double b = ack.hopRateBps(i);
            double txRateBps = (ack.hopTxBytes(i) - hopTxBytes[i]) * BITS_PS_PER_BYTE_S / dt;
            double queue = Math.min(ack.hopQueueBytes(i), hopQueueBytes[i]);
            double u = txRateBps / b + queue * BITS_PS_PER_BYTE_S / (b * t);
            any = true;
            if (u > maxU) {
                maxU = u;
                tau = dt;
                loaded = i;
            }
        }
        if (!any) {
            return;
        }
        double w = Math.min(tau, t) / t;
        utilisation = (1 - w) * utilisation + w * maxU;
        double ratio = utilisation / p.eta();
        double next;
        int stage;
        if (ratio >= 1 || incStage >= p.maxStage()) {
            next = referenceRateBps / ratio + p.aiRateBps();
            stage = 0;
            cause = RateCause.INT_MULTIPLICATIVE;
        } else {
            next = referenceRateBps + p.aiRateBps();
            stage = incStage + 1;
            cause = RateCause.INT_ADDITIVE;
        }
        causeValue = Math.round(utilisation * 1e6);
        causeIndex = loaded;
        rateBps = Math.max(p.minRateBps(), Math.min(p.maxRateBps(), next));
        if (fullUpdate) {
            if (rateBps < referenceRateBps) {
                cuts++;
            }
            referenceRateBps = rateBps;
            incStage = stage;
        }
    }

    private void storeTelemetry(AckFeedback ack) {
        int n = ack.hops();
        for (int i = 0; i < n; i++) {
            hopTimePs[i] = ack.hopTimePs(i);
            hopTxBytes[i] = ack.hopTxBytes(i);
            hopQueueBytes[i] = ack.hopQueueBytes(i);
        }
        storedHops = n;
    }

    @Override
    public long rateCuts() {
        return cuts;
    }

    @Override
    public String cutsCounted() {
        return "HPCC window cuts: reference-window updates (at most one per window of data acknowledged) that lowered it";
    }

    /** The smoothed utilisation U of the most loaded hop (1.0 until the first update). */
    public double utilisation() {
        return utilisation;
    }

    /** The reference rate Rc = Wc / T committed at the last per-RTT update. */
    public double referenceRateBps() {
        return referenceRateBps;
    }

    public int incStage() {
        return incStage;
    }

    /** T in picoseconds (0 until known). */
    public long baseRttPs() {
        return baseRttPs;
    }

    public HpccParameters parameters() {
        return p;
    }
}
