package rocelab.congestion.timely;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** TIMELY as a scenario option: {@code cc: timely} with {@code timely: {t-low: 50us, t-high: 500us, beta: 0.8}}. */
public final class TimelyAlgorithm implements CongestionAlgorithm {
    /** Overrides are checked against this line rate when the scenario is read; values scale per RNIC later. */
    private static final long CHECK_RATE_BPS = 100_000_000_000L;

    @Override
    public String name() {
        return "timely";
    }

    @Override
    public Map<String, Unit> parameters() {
        return TimelyParameters.KEYS;
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("timely has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
        TimelyParameters.resolve(overrides, CHECK_RATE_BPS);
        PerLineRate<TimelyParameters> parameters = new PerLineRate<>(rate -> TimelyParameters.resolve(overrides, rate));
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return "timely";
            }

            @Override
            public CongestionControl create(Context context) {
                return new TimelyControl(parameters.get(context.lineRateBps()),
                        context.rates(), context.queuePair());
            }
        };
    }

    /** TIMELY ignores ECN: receivers send no CNPs (the ECN echo still rides on every ACK). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.NONE, 0, cnpDscp, cnpPriority);
    }
}
