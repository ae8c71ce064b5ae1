package rocelab.congestion.ibcc;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;

/**
 * InfiniBand congestion control as a scenario option ({@code nic.cc: ib-cc}, infiniband mode only): switches mark
 * FECN ({@link FecnMarking}), the destination returns a BECN for every FECN packet, and the source walks its
 * congestion control table ({@link IbCongestionControl}).
 */
public final class IbCcAlgorithm implements CongestionAlgorithm {
    public static final String NAME = "ib-cc";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Unit> parameters() {
        return IbCcParameters.KEYS;
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("ib-cc has no profiles");
        }
        IbCcParameters params = IbCcParameters.resolve(settings.overrides());
        return new CongestionControlFactory() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public CongestionControl create(Context context) {
                return new IbCongestionControl(context.sim(), context.lineRateBps(), params, context.rates(),
                        context.queuePair());
            }
        };
    }

    /** Annex A10: the destination answers every FECN-marked packet with a BECN (here, a CNP with BECN set). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.CNP, 0, cnpDscp, cnpPriority);
    }
}
