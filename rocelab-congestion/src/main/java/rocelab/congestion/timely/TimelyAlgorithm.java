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

    @Override
    public String name() {
        return "timely";
    }

    @Override
    public Map<String, Unit> parameters() {
        return TimelyParameters.KEYS;
    }

    /** The overrides resolved at the RNIC's line rate, as each of its QPs resolves them. */
    @Override
    public void check(CcSettings settings, long lineRateBps) {
        factory(settings);
        TimelyParameters.resolve(settings.overrides(), lineRateBps);
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("timely has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
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
