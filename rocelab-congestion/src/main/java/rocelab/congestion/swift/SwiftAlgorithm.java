package rocelab.congestion.swift;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** Swift as a scenario option: {@code cc: swift} with {@code swift: {base-delay: 20us, beta: 0.8, max-mdf: 0.5}}. */
public final class SwiftAlgorithm implements CongestionAlgorithm {
    /** Overrides are checked against this line rate when the scenario is read; values scale per RNIC later. */
    private static final long CHECK_RATE_BPS = 100_000_000_000L;

    @Override
    public String name() {
        return "swift";
    }

    @Override
    public Map<String, Unit> parameters() {
        return SwiftParameters.KEYS;
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("swift has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
        SwiftParameters.resolve(overrides, CHECK_RATE_BPS);
        PerLineRate<SwiftParameters> parameters = new PerLineRate<>(rate -> SwiftParameters.resolve(overrides, rate));
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return "swift";
            }

            @Override
            public CongestionControl create(Context context) {
                return new SwiftControl(parameters.get(context.lineRateBps()),
                        context.rates(), context.queuePair());
            }
        };
    }

    /** Swift ignores ECN: receivers send no CNPs (the ECN echo still rides on every ACK). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.NONE, 0, cnpDscp, cnpPriority);
    }
}
