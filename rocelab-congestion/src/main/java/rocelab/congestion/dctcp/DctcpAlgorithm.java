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

    @Override
    public String name() {
        return "dctcp";
    }

    @Override
    public Map<String, Unit> parameters() {
        return DctcpParameters.KEYS;
    }

    /** The overrides resolved at the RNIC's line rate, as each of its QPs resolves them. */
    @Override
    public void check(CcSettings settings, long lineRateBps) {
        factory(settings);
        DctcpParameters.resolve(settings.overrides(), lineRateBps);
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("dctcp has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
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
