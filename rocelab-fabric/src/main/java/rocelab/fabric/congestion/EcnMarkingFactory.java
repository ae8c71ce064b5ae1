package rocelab.fabric.congestion;

import rocelab.engine.RandomStreams;

/** Builds the ECN marking of every switch egress queue; one factory per marking scheme and configuration. */
public interface EcnMarkingFactory {
    /** No queue ever marks. */
    EcnMarkingFactory NONE = new EcnMarkingFactory() {
        @Override
        public EcnMarking forQueue(String switchName, int port, long portRateBps, int trafficClass,
                RandomStreams streams) {
            return EcnMarking.NONE;
        }

        @Override
        public boolean marksAtEnqueue() {
            return false;
        }
    };

    /** The marking of one egress queue (a port's traffic class), or {@link EcnMarking#NONE}. */
    EcnMarking forQueue(String switchName, int port, long portRateBps, int trafficClass, RandomStreams streams);

    /** Decide at enqueue on the queue found there, instead of at dequeue (the reference simulators' choice). */
    boolean marksAtEnqueue();
}
