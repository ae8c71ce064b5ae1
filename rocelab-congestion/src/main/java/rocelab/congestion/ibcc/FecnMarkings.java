package rocelab.congestion.ibcc;

import rocelab.engine.RandomStreams;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.congestion.EcnMarkingFactory;

/** FECN marking on every virtual lane of every switch output port, decided as the packet leaves. */
public final class FecnMarkings implements EcnMarkingFactory {
    private final FecnParameters params;

    public FecnMarkings(FecnParameters params) {
        this.params = params;
    }

    @Override
    public EcnMarking forQueue(String switchName, int port, long portRateBps, int trafficClass,
            RandomStreams streams) {
        return new FecnMarking(params);
    }

    @Override
    public boolean marksAtEnqueue() {
        return false;
    }
}
