package rocelab.congestion.hpcc;

import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.packet.FrameFormat;

/** HPCC as a scenario option: {@code cc: hpcc} with {@code hpcc: {eta: 0.95, max-stage: 5, base-rtt: 10us}}. */
public final class HpccAlgorithm implements CongestionAlgorithm {

    @Override
    public String name() {
        return "hpcc";
    }

    @Override
    public Map<String, Unit> parameters() {
        return HpccParameters.KEYS;
    }

    /** The overrides resolved at the RNIC's line rate, as each of its QPs resolves them. */
    @Override
    public void check(CcSettings settings, long lineRateBps) {
        factory(settings);
        HpccParameters.resolve(settings.overrides(), lineRateBps);
    }

    @Override
    public CongestionControlFactory factory(CcSettings settings) {
        if (settings.profile() != null) {
            throw new IllegalArgumentException("hpcc has no profiles");
        }
        Map<String, Double> overrides = settings.overrides();
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

            /** int-hops does not depend on the line rate. */
            @Override
            public int telemetryHeaderBytes() {
                return FrameFormat.intHeaderBytes(HpccParameters.intHops(overrides));
            }
        };
    }

    /** HPCC ignores ECN: receivers send no CNPs (the ECN echo still rides on every ACK). */
    @Override
    public NotificationPointParameters notificationPoint(CcSettings settings, int cnpDscp, int cnpPriority) {
        return new NotificationPointParameters(NotificationPointParameters.Mode.NONE, 0, cnpDscp, cnpPriority);
    }
}
