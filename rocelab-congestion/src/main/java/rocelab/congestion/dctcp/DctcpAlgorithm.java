package rocelab.congestion.dctcp;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/** DCTCP-style control as a scenario option: {@code cc: dctcp} with {@code dctcp: {g: 1/16, ai-rate: 615Mbps}}. */
public final class DctcpAlgorithm implements CongestionAlgorithm {
    /** Overrides are checked against this line rate when the scenario is read; values scale per RNIC later. */
    private static final long CHECK_RATE_BPS = 100_000_000_000L;

    @Override
    public String name() {
        return "dctcp";
    }

    @Override
    public Map<String, Unit> parameters() {
        return DctcpParameters.KEYS;
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("dctcp has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
        DctcpParameters.resolve(overrides, CHECK_RATE_BPS);
        PerLineRate<DctcpParameters> parameters = new PerLineRate<>(rate -> DctcpParameters.resolve(overrides, rate));
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return "dctcp";
            }

            @Override
            public CongestionControl create(Context context) {
                return new DctcpControl(parameters.get(context.lineRateBps()),
                        context.rates(), context.queuePair());
            }
        };
    }

    /** DCTCP reads the ECN echo of ACKs: receivers send no CNPs (the ECN echo still rides on every ACK). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.NONE, 0, cnpDscp, cnpPriority);
    }
}
