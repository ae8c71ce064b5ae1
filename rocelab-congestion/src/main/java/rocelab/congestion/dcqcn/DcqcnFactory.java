package rocelab.congestion.dcqcn;

import rocelab.congestion.PerLineRate;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.congestion.CongestionControlFactory;

/** Creates DCQCN reaction points for the scenario's profile and overrides, resolved per RNIC line rate. */
public final class DcqcnFactory implements CongestionControlFactory {
    private final DcqcnSettings settings;
    private final PerLineRate<DcqcnParameters> parameters;

    public DcqcnFactory(DcqcnSettings settings) {
        this.settings = settings;
        this.parameters = new PerLineRate<>(settings::resolve);
    }

    @Override
    public String name() {
        return "dcqcn";
    }

    @Override
    public CongestionControl create(Context context) {
        return new DcqcnReactionPoint(context.sim(), parameters.get(context.lineRateBps()), context.rates(),
                context.queuePair());
    }

    public DcqcnSettings settings() {
        return settings;
    }
}
