package rocelab.fabric.congestion;

import java.util.SplittableRandom;
import rocelab.engine.Simulator;

/** Creates the congestion control instance of a queue pair; one factory per algorithm, chosen by name. */
public interface CongestionControlFactory {
    /** What an algorithm may use: the simulator for its timers, the line rate, and its own random stream. */
    record Context(Simulator sim, long lineRateBps, int queuePair, SplittableRandom random) {}

    String name();

    CongestionControl create(Context context);
}
