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

    /** What the reaction points made last share: an RNIC's QPs are made one after another. */
    private DcqcnReactionPoint.Shared last;

    @Override
    public synchronized CongestionControl create(Context context) {
        DcqcnParameters p = parameters.get(context.lineRateBps());
        DcqcnReactionPoint.Shared shared = last;
        if (shared == null || !shared.sameAs(context.sim(), p, context.rates())) {
            shared = new DcqcnReactionPoint.Shared(context.sim(), p, context.rates());
            last = shared;
        }
        return new DcqcnReactionPoint(shared, context.queuePair());
    }

    public DcqcnSettings settings() {
        return settings;
    }
}
