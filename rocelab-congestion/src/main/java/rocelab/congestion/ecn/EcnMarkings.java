package rocelab.congestion.ecn;

import rocelab.engine.RandomStreams;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.congestion.EcnMarkingFactory;

/** Builds the marking of every switch egress queue from {@link EcnParameters}. */
public final class EcnMarkings implements EcnMarkingFactory {
    private final EcnParameters params;

    public EcnMarkings(EcnParameters params) {
        this.params = params;
    }

    @Override
    public EcnMarking forQueue(String switchName, int port, long portRateBps, int trafficClass,
            RandomStreams streams) {
        if ((params.classMask() & (1 << trafficClass)) == 0) {
            return EcnMarking.NONE;
        }
        switch (params.scheme()) {
            case RED:
                return new RedEcnMarking(params.kminFor(portRateBps), params.kmaxFor(portRateBps), params.pmax(),
                        streams.forComponent("switch/" + switchName + "/p" + port + "/tc" + trafficClass + "/ecn"));
            case STEP:
                return new StepEcnMarking(params.kFor(portRateBps));
            default:
                return EcnMarking.NONE;
        }
    }

    @Override
    public boolean marksAtEnqueue() {
        return params.atEnqueue();
    }
}
