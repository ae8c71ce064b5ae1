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

    /**
     * What every reaction point of one RNIC shares: its simulator, parameters, alpha's decay table and rate listener.
     * One reference instead of four: a 1,024-host all-to-all holds a million reaction points to its end (128 -> 112
     * bytes each, 16 MB).
     */
    public static final class Shared {
        final Simulator sim;
        final DcqcnParameters p;
        final AlphaDecay decay;
        final RateListener rates;

        public Shared(Simulator sim, DcqcnParameters params, RateListener rates) {
            this.sim = sim;
            this.p = params;
            this.decay = AlphaDecay.of(params.g());
            this.rates = rates;
        }

        boolean sameAs(Simulator otherSim, DcqcnParameters otherParams, RateListener otherRates) {
            return sim == otherSim && p == otherParams && rates == otherRates;
        }
    }

    private final Shared c;
    private final int handlerId;

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
    private final int queuePair;
    /** The number of the last notification heard: a cut at the decrease boundary names it. */
    private long lastNotification;

    public DcqcnReactionPoint(Simulator sim, DcqcnParameters params) {
        this(sim, params, RateListener.NONE, -1);
    }

    /** @param rates hears every rate change of QP {@code queuePair} with its cause */
    public DcqcnReactionPoint(Simulator sim, DcqcnParameters params, RateListener rates, int queuePair) {
        this(new Shared(sim, params, rates), queuePair);
    }

    /** A reaction point of QP {@code queuePair} with what it shares with its RNIC's others. */
    public DcqcnReactionPoint(Shared shared, int queuePair) {
        this.c = shared;
        this.queuePair = queuePair;
        this.rc = shared.p.maxRateBps();
        this.rt = shared.p.maxRateBps();
        this.alpha = shared.p.initialAlpha();
        this.handlerId = shared.sim.register(this);
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
        if (!notified || c.p.byteCounterBytes() == 0) {
            return;
        }
        bytesSinceEvent += wireBytes;
        long threshold = hyper() && c.p.profile() == DcqcnProfile.PAPER ? c.p.byteCounterBytes() / 2 : c.p.byteCounterBytes();
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
            nextAlphaTickPs = nowPs + c.p.alphaPeriodPs();
            alpha = c.p.initialAlpha();
            if (c.p.profile() != DcqcnProfile.PAPER) {
                rt = rc;
                if (c.p.firstCnpRateBps() > 0) {
                    long before = (long) rc;
                    rc = Math.min(c.p.maxRateBps(), c.p.firstCnpRateBps());
                    rt = rc;
                    report(nowPs, before, RateCause.CNP, notification, 0);
                    return true;
                }
            }
        } else {
            advanceAlpha(nowPs);
        }
        if (c.p.decreasePeriodPs() == 0) {
            cutNow(nowPs);
        } else {
            // The first CNP sets alpha and does not count toward the first alpha update (the ns-3 model and Isekai's
            // firmware model clear that flag on the first CNP); it still asks for the first cut.
            cnpSinceAlphaTick |= !first || c.p.profile() == DcqcnProfile.PAPER;
            cnpSinceDecrease = true;
            if (!decreasePending) {
                decreasePending = true;
                long periods = (nowPs - originPs) / c.p.decreasePeriodPs() + 1;
                // HPCC's model checks 1 ns after the alpha tick at the same boundary; ticks at a boundary come first.
                c.sim.schedule(originPs + periods * c.p.decreasePeriodPs(), handlerId, DECREASE, 0L);
            }
        }
        return true;
    }

    /** The paper: every CNP updates alpha and cuts at once; alpha then decays every K after this CNP. */
    private void cutNow(long nowPs) {
        alpha = (1 - c.p.g()) * alpha + c.p.g();
        long before = (long) rc;
        rt = rc;
        rc = Math.max(c.p.minRateBps(), rc * (1 - alpha / 2));
        nextAlphaTickPs = nowPs + c.p.alphaPeriodPs();
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
        if (c.p.profile() == DcqcnProfile.HPCC_NS3 && increaseRunning && increaseDeadlinePs == nowPs) {
            // The rate-increase timer expires at this boundary too (it runs on the decrease grid whenever the timer is a
            // multiple of the decrease period, as the profile's 300 us and 4 us are). HPCC's ns-3 scheduled the timer
            // earlier than the decrease check, so its increase comes first and the cut then clamps the target to the
            // increased rate (rdma-hw.cc: RateIncEventTimerMlx, then CheckRateDecreaseMlx). Cutting first would restart
            // the timer and lose the increase. The timer's own event, still pending at this instant, finds its new
            // deadline ahead and waits for it.
            timerIncrease(nowPs);
        }
        boolean clamp;
        if (c.p.profile() == DcqcnProfile.HPCC_NS3) {
            clamp = c.p.clampTargetRate() || timerStage != 0;
        } else {
            clamp = c.p.clampTargetRate() || byteIncreaseSinceCut || c.p.clampAfterTimerIncrease() && timerIncreaseSinceCut;
        }
        if (clamp) {
            rt = rc;
        }
        double cut = Math.min(rc * alpha / 2, rc * c.p.maxCutFraction());
        long before = (long) rc;
        rc = Math.max(c.p.minRateBps(), rc - cut);
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
        increaseDeadlinePs = nowPs + c.p.increaseTimerPs();
        increaseRunning = true;
        if (!increasePending) {
            increasePending = true;
            c.sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
        }
    }

    /** Applies the alpha ticks up to now: the first after a notification raises alpha, the others decay it. */
    private void advanceAlpha(long nowPs) {
        if (nowPs < nextAlphaTickPs) {
            return;
        }
        long ticks = (nowPs - nextAlphaTickPs) / c.p.alphaPeriodPs() + 1;
        nextAlphaTickPs += ticks * c.p.alphaPeriodPs();
        long decays = ticks;
        if (cnpSinceAlphaTick) {
            alpha = (1 - c.p.g()) * alpha + c.p.g();
            cnpSinceAlphaTick = false;
            decays--;
        }
        if (decays > 0) {
            alpha *= c.decay.factor(decays);
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
            c.sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
            return;
        }
        timerIncrease(nowPs);
        if (increaseRunning) {
            increasePending = true;
            c.sim.schedule(increaseDeadlinePs, handlerId, INCREASE, 0L);
        }
    }

    /** The increase timer expires: one increase event, then the next deadline (or the timer stops at line rate). */
    private void timerIncrease(long nowPs) {
        increase(true);
        if (rc >= c.p.maxRateBps() && rt >= c.p.maxRateBps()) {
            increaseRunning = false;
            return;
        }
        long period = hyper() && c.p.profile() == DcqcnProfile.PAPER ? c.p.increaseTimerPs() / 2 : c.p.increaseTimerPs();
        increaseDeadlinePs = nowPs + period;
    }

    private boolean hyper() {
        int f = c.p.fastRecoverySteps();
        return timerStage >= f && (c.p.byteCounterBytes() == 0 || byteStage >= f);
    }

    /** One rate-increase event from the timer or the byte counter, by the profile's rules. */
    private void increase(boolean fromTimer) {
        int f = c.p.fastRecoverySteps();
        long before = (long) rc;
        int phase; // 0 fast recovery, 1 additive, 2 hyper: what the journey names as the cause
        switch (c.p.profile()) {
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
                    rt += c.p.aiRateBps();
                    phase = 1;
                } else {
                    rt += (double) (Math.min(byteStage, timerStage) - f + 1) * c.p.haiRateBps();
                    phase = 2;
                }
                break;
            }
            case NVIDIA: {
                if (Math.min(timerStage, byteStage) > f) {
                    rt += c.p.haiRateBps();
                    phase = 2;
                } else if (Math.max(timerStage, byteStage) >= f) {
                    rt += c.p.aiRateBps();
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
                    rt += c.p.aiRateBps();
                    phase = 1;
                } else if (timerStage > f) {
                    rt += c.p.haiRateBps();
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
        rt = Math.min(rt, c.p.maxRateBps());
        rc = Math.min(c.p.maxRateBps(), (rc + rt) / 2);
        RateCause cause = fromTimer
                ? phase == 0 ? RateCause.TIMER_FAST_RECOVERY : phase == 1 ? RateCause.TIMER_ADDITIVE : RateCause.TIMER_HYPER
                : phase == 0 ? RateCause.BYTES_FAST_RECOVERY : phase == 1 ? RateCause.BYTES_ADDITIVE : RateCause.BYTES_HYPER;
        report(c.sim.nowPs(), before, cause, 0, fromTimer ? timerStage : byteStage);
    }

    private void report(long nowPs, long beforeBps, RateCause cause, long value, int index) {
        c.rates.report(nowPs, queuePair, beforeBps, (long) rc, Long.MAX_VALUE, Long.MAX_VALUE, cause, value, index);
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
        return c.p.decreasePeriodPs() == 0 ? "DCQCN rate cuts: one per CNP handled"
                : "DCQCN rate cuts: at most one per decrease period (" + Time.microsText(c.p.decreasePeriodPs())
                        + " us) in which CNPs arrived";
    }

    public DcqcnParameters parameters() {
        return c.p;
    }
}
