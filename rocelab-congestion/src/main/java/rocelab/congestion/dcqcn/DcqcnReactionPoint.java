package rocelab.congestion.dcqcn;

import rocelab.engine.EventHandler;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.congestion.AckFeedback;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.congestion.RateListener;

/**
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015) of one QP, in the three variants of {@link DcqcnProfile}:
 * cuts the rate on congestion notifications by alpha/2, where alpha is an EWMA of "a CNP arrived", and recovers
 * by fast recovery, additive and hyper increase driven by a timer and (paper, NVIDIA) a byte counter.
 *
 * <p>Alpha is updated lazily: the periodic alpha ticks between two notifications are applied in closed form when
 * the next one arrives, so a QP costs no events while it is not notified. A QP keeps at most two wake-ups: the next
 * rate-decrease boundary (only while a notification waits for it) and the rate-increase timer (stopped once the
 * rate is back at line rate).
 */
public final class DcqcnReactionPoint implements CongestionControl, EventHandler {
    private static final int DECREASE = 1;
    private static final int INCREASE = 2;

    private final Simulator sim;
    private final int handlerId;
    private final DcqcnParameters p;
    private final AlphaDecay decay;

    private double rc;
    private double rt;
    private double alpha;
    private boolean notified;
    private long originPs;
    private long nextAlphaTickPs;
    private boolean cnpSinceAlphaTick;
    private boolean cnpSinceDecrease;
    private boolean decreasePending;
    private int timerStage;
    private int byteStage;
    private long bytesSinceEvent;
    private boolean timerIncreaseSinceCut;
    private boolean byteIncreaseSinceCut;
    private long increaseDeadlinePs;
    private boolean increasePending;
    private boolean increaseRunning;
    private long cuts;
    private final RateListener rates;
    private final int queuePair;
    /** The number of the last notification heard: a cut at the decrease boundary names it. */
    private long lastNotification;

    public DcqcnReactionPoint(Simulator sim, DcqcnParameters params) {
        this(sim, params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate change of QP {@code queuePair} with its cause */
    public DcqcnReactionPoint(Simulator sim, DcqcnParameters params, RateListener rates, int queuePair) {
        this.rates = rates;
        this.queuePair = queuePair;
        this.sim = sim;
        this.p = params;
        this.decay = AlphaDecay.of(params.g());
        this.rc = params.maxRateBps();
        this.rt = params.maxRateBps();
        this.alpha = params.initialAlpha();
        this.handlerId = sim.register(this);
    }

    @Override
    public long rateBps() {
        return (long) rc;
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
        if (p.byteCounterBytes() == 0 || !notified) {
            return;
        }
        bytesSinceEvent += wireBytes;
        long threshold = hyper() && p.profile() == DcqcnProfile.PAPER ? p.byteCounterBytes() / 2 : p.byteCounterBytes();
        if (bytesSinceEvent >= threshold) {
            bytesSinceEvent = 0;
            increase(false);
        }
    }

    @Override
    public void onAck(long nowPs, AckFeedback ack) {}

    @Override
    public boolean onCnp(long nowPs) {
        return onCnp(nowPs, 0);
    }

    @Override
    public boolean onCnp(long nowPs, long notification) {
        lastNotification = notification;
        boolean first = !notified;
        if (first) {
            notified = true;
            originPs = nowPs;
            nextAlphaTickPs = nowPs + p.alphaPeriodPs();
            alpha = p.initialAlpha();
            if (p.profile() != DcqcnProfile.PAPER) {
                rt = rc;
                if (p.firstCnpRateBps() > 0) {
                    long before = (long) rc;
                    rc = Math.min(p.maxRateBps(), p.firstCnpRateBps());
                    rt = rc;
                    report(nowPs, before, RateCause.CNP, notification, 0);
                    return true;
                }
            }
        } else {
            advanceAlpha(nowPs);
        }
        if (p.decreasePeriodPs() == 0) {
            cutNow(nowPs);
        } else {
            // The first CNP sets alpha and does not count toward the first alpha update (the ns-3 model and Isekai's
            // firmware model clear that flag on the first CNP); it still asks for the first cut.
            cnpSinceAlphaTick |= !first || p.profile() == DcqcnProfile.PAPER;
            cnpSinceDecrease = true;
            if (!decreasePending) {
                decreasePending = true;
                long periods = (nowPs - originPs) / p.decreasePeriodPs() + 1;
                // HPCC's model checks 1 ns after the alpha tick at the same boundary; ticks at a boundary come first.
                sim.schedule(originPs + periods * p.decreasePeriodPs(), handlerId, DECREASE, 0L);
            }
        }
        return true;
    }

    /** The paper: every CNP updates alpha and cuts at once; alpha then decays every K after this CNP. */
    private void cutNow(long nowPs) {
        alpha = (1 - p.g()) * alpha + p.g();
        long before = (long) rc;
        rt = rc;
        rc = Math.max(p.minRateBps(), rc * (1 - alpha / 2));
        nextAlphaTickPs = nowPs + p.alphaPeriodPs();
        afterCut(nowPs);
        report(nowPs, before, RateCause.CNP, lastNotification, 0);
    }

    /** NVIDIA and HPCC ns-3: at a decrease boundary, cut once if notifications arrived in the period. */
    private void cutAtBoundary(long nowPs) {
        advanceAlpha(nowPs);
        if (!cnpSinceDecrease) {
            return;
        }
        cnpSinceDecrease = false;
        boolean clamp;
        if (p.profile() == DcqcnProfile.HPCC_NS3) {
            clamp = p.clampTargetRate() || timerStage != 0;
        } else {
            clamp = p.clampTargetRate() || byteIncreaseSinceCut || p.clampAfterTimerIncrease() && timerIncreaseSinceCut;
        }
        if (clamp) {
            rt = rc;
        }
        double cut = Math.min(rc * alpha / 2, rc * p.maxCutFraction());
        long before = (long) rc;
        rc = Math.max(p.minRateBps(), rc - cut);
        afterCut(nowPs);
        report(nowPs, before, RateCause.CNP_PERIOD, lastNotification, 0);
    }

    private void afterCut(long nowPs) {
        cuts++;
        timerStage = 0;
        byteStage = 0;
        bytesSinceEvent = 0;
        timerIncreaseSinceCut = false;
        byteIncreaseSinceCut = false;
        increaseDeadlinePs = nowPs + p.increaseTimerPs();
        increaseRunning = true;
        if (!increasePending) {
            increasePending = true;
            sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
        }
    }

    /** Applies the alpha ticks up to now: the first after a notification raises alpha, the others decay it. */
    private void advanceAlpha(long nowPs) {
        if (nowPs < nextAlphaTickPs) {
            return;
        }
        long ticks = (nowPs - nextAlphaTickPs) / p.alphaPeriodPs() + 1;
        nextAlphaTickPs += ticks * p.alphaPeriodPs();
        long decays = ticks;
        if (cnpSinceAlphaTick) {
            alpha = (1 - p.g()) * alpha + p.g();
            cnpSinceAlphaTick = false;
            decays--;
        }
        if (decays > 0) {
            alpha *= decay.factor(decays);
        }
    }

    @Override
    public void onEvent(long nowPs, int kind, long arg) {
        if (kind == DECREASE) {
            decreasePending = false;
            cutAtBoundary(nowPs);
            return;
        }
        increasePending = false;
        if (!increaseRunning) {
            return;
        }
        if (nowPs < increaseDeadlinePs) {
            increasePending = true;
            sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
            return;
        }
        increase(true);
        if (rc >= p.maxRateBps() && rt >= p.maxRateBps()) {
            increaseRunning = false;
            return;
        }
        long period = hyper() && p.profile() == DcqcnProfile.PAPER ? p.increaseTimerPs() / 2 : p.increaseTimerPs();
        increaseDeadlinePs = nowPs + period;
        increasePending = true;
        sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
    }

    private boolean hyper() {
        int f = p.fastRecoverySteps();
        return timerStage >= f && (p.byteCounterBytes() == 0 || byteStage >= f);
    }

    /** One rate-increase event from the timer or the byte counter, by the profile's rules. */
    private void increase(boolean fromTimer) {
        int f = p.fastRecoverySteps();
        long before = (long) rc;
        int phase; // 0 fast recovery, 1 additive, 2 hyper: what the journey names as the cause
        switch (p.profile()) {
            case PAPER: {
                if (fromTimer) {
                    timerStage++;
                } else {
                    byteStage++;
                }
                if ((timerStage == 1 || byteStage == 1) && rt > 10 * rc) {
                    // QCN: a target far above the rate is brought down instead of raised, in this event, while
                    // either count is at its first step since the cut, as ns3-rdma's AdjustRates tests it. In effect
                    // the first increase after a cut: Rc then becomes at least half the new target, and neither
                    // count's later steps nor the target's growth bring Rt back above 10 Rc before the next cut.
                    rt /= 8;
                    phase = 0; // no step in this event: the journey names it fast recovery
                } else if (Math.max(timerStage, byteStage) < f) {
                    // fast recovery (both counts below F): Rt unchanged
                    phase = 0;
                } else if (Math.min(timerStage, byteStage) < f) {
                    // additive increase: either count reached F, not both
                    rt += p.aiRateBps();
                    phase = 1;
                } else {
                    rt += (double) (Math.min(byteStage, timerStage) - f + 1) * p.haiRateBps();
                    phase = 2;
                }
                break;
            }
            case NVIDIA: {
                if (Math.min(timerStage, byteStage) > f) {
                    rt += p.haiRateBps();
                    phase = 2;
                } else if (Math.max(timerStage, byteStage) >= f) {
                    rt += p.aiRateBps();
                    phase = 1;
                } else {
                    phase = 0;
                }
                if (fromTimer) {
                    timerStage++;
                } else {
                    byteStage++;
                }
                break;
            }
            default: {
                if (timerStage == f) {
                    rt += p.aiRateBps();
                    phase = 1;
                } else if (timerStage > f) {
                    rt += p.haiRateBps();
                    phase = 2;
                } else {
                    phase = 0;
                }
                timerStage++;
                break;
            }
        }
        if (fromTimer) {
            timerIncreaseSinceCut = true;
        } else {
            byteIncreaseSinceCut = true;
        }
        rt = Math.min(rt, p.maxRateBps());
        rc = Math.min(p.maxRateBps(), (rc + rt) / 2);
        RateCause cause = fromTimer
                ? phase == 0 ? RateCause.TIMER_FAST_RECOVERY : phase == 1 ? RateCause.TIMER_ADDITIVE : RateCause.TIMER_HYPER
                : phase == 0 ? RateCause.BYTES_FAST_RECOVERY : phase == 1 ? RateCause.BYTES_ADDITIVE : RateCause.BYTES_HYPER;
        report(sim.nowPs(), before, cause, 0, fromTimer ? timerStage : byteStage);
    }

    private void report(long nowPs, long beforeBps, RateCause cause, long value, int index) {
        rates.report(nowPs, queuePair, beforeBps, (long) rc, Long.MAX_VALUE, Long.MAX_VALUE, cause, value, index);
    }

    public double alpha() {
        return alpha;
    }

    public double targetRateBps() {
        return rt;
    }

    public long cuts() {
        return cuts;
    }

    @Override
    public long rateCuts() {
        return cuts;
    }

    @Override
    public String cutsCounted() {
        return p.decreasePeriodPs() == 0 ? "DCQCN rate cuts: one per CNP handled"
                : "DCQCN rate cuts: at most one per decrease period (" + Time.microsText(p.decreasePeriodPs())
                        + " us) in which CNPs arrived";
    }

    public DcqcnParameters parameters() {
        return p;
    }
}
