package rocelab.fabric.congestion;

import java.util.SplittableRandom;
import rocelab.engine.Simulator;

/** Creates the congestion control instance of a queue pair; one factory per algorithm, chosen by name. */
public interface CongestionControlFactory {
    /**
     * What an algorithm may use: the simulator for its timers, the line rate, its own random stream, and where it
     * reports each change of rate or window with its cause.
     */
    record Context(Simulator sim, long lineRateBps, int queuePair, SplittableRandom random, RateListener rates) {
        public Context(Simulator sim, long lineRateBps, int queuePair, SplittableRandom random) {
            this(sim, lineRateBps, queuePair, random, RateListener.NONE);
        }
    }

    String name();

    CongestionControl create(Context context);

    /**
     * The {@link CongestionControl#telemetryHeaderBytes} of every control this factory makes, for the closed forms
     * that size a flow's frames without a QP (ideal FCT, the ideal network, the flow-level model).
     */
    default int telemetryHeaderBytes() {
        return 0;
    }
}
