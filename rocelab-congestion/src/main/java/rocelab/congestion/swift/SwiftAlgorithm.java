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

    @Override
    public String name() {
        return "swift";
    }

    @Override
    public Map<String, Unit> parameters() {
        return SwiftParameters.KEYS;
    }

    /** The overrides resolved at the RNIC's line rate, as each of its QPs resolves them. */
    @Override
    public void check(CcSettings settings, long lineRateBps) {
        factory(settings);
        SwiftParameters.resolve(settings.overrides(), lineRateBps);
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("swift has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
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
