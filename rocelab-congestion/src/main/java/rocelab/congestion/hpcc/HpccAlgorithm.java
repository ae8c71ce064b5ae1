package rocelab.congestion.hpcc;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** HPCC as a scenario option: {@code cc: hpcc} with {@code hpcc: {eta: 0.95, max-stage: 5, base-rtt: 10us}}. */
public final class HpccAlgorithm implements CongestionAlgorithm {
    /** Overrides are checked against this line rate when the scenario is read; values scale per RNIC later. */
    private static final long CHECK_RATE_BPS = 100_000_000_000L;

    @Override
    public String name() {
        return "hpcc";
    }

    @Override
    public Map<String, Unit> parameters() {
        return HpccParameters.KEYS;
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("hpcc has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
        HpccParameters.resolve(overrides, CHECK_RATE_BPS);
        PerLineRate<HpccParameters> parameters = new PerLineRate<>(rate -> HpccParameters.resolve(overrides, rate));
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return "hpcc";
            }

            @Override
            public CongestionControl create(Context context) {
                return new HpccControl(parameters.get(context.lineRateBps()),
                        context.rates(), context.queuePair());
            }
        };
    }

    /** HPCC ignores ECN: receivers send no CNPs (the ECN echo still rides on every ACK). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.NONE, 0, cnpDscp, cnpPriority);
    }
}
